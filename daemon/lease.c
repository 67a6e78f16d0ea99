/* The control lease: see lease.h. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "clock.h"
#include "daemon.h"
#include "lease.h"
#include "log.h"
#include "options.h"
#include "session.h"
#include "sim.h"
#include "sim_robot.h"
#include "token.h"

/* The lease as it stands; one per daemon (d->lease). */
struct lease {
	uint64_t holder;      /* session holding it, or 0 */
	char holder_name[64]; /* its name, for errors */
	char token[33];       /* its token (hex), told to its holder */
	uint64_t *sharers;    /* sessions that presented the token */
	int nsharers, maxsharers;
	uint64_t batch; /* session whose batch run holds it, or 0 */
};

/* Tells the layers above that the lease changed hands (core.c). */
static lease_notify_fn lease_notify;

static void lease_end(struct daemon *);
static void lease_told(struct daemon *);

void
lease_set_notify(lease_notify_fn fn)
{
	lease_notify = fn;
}

static void
lease_told(struct daemon *d)
{
	if (lease_notify != NULL)
		lease_notify(d);
}

struct lease *
lease_create(void)
{
	struct lease *l;

	if ((l = calloc(1, sizeof(*l))) == NULL)
		fatal("out of memory");
	return l;
}

void
lease_free(struct lease *l)
{
	if (l == NULL)
		return;
	explicit_bzero(l->token, sizeof(l->token));
	free(l->sharers);
	free(l);
}

uint64_t
lease_holder(const struct daemon *d)
{
	return d->lease->holder;
}

const char *
lease_holder_name(const struct daemon *d)
{
	return d->lease->holder_name;
}

void
lease_batch_hold(struct daemon *d, uint64_t id)
{
	d->lease->batch = id;
}

uint64_t
lease_batch(const struct daemon *d)
{
	return d->lease->batch;
}

int
lease_shared(const struct daemon *d, uint64_t id)
{
	const struct lease *l = d->lease;
	int i;

	for (i = 0; i < l->nsharers; i++)
		if (l->sharers[i] == id)
			return 1;
	return 0;
}

int
lease_permits(const struct daemon *d, const struct session *s)
{
	return d->lease->holder == 0 || d->lease->holder == s->id ||
	    lease_shared(d, s->id);
}

/* A fresh token for a lease just taken: 128 random bits as hex. */
static void
lease_new_token(struct daemon *d)
{
	uint8_t b[16];
	size_t n = 0;
	ssize_t k;
	int i;

	while (n < sizeof(b)) {
		if ((k = getrandom(b + n, sizeof(b) - n, 0)) < 0)
			fatal("getrandom: %s", strerror(errno));
		n += (size_t)k;
	}
	for (i = 0; i < (int)sizeof(b); i++)
		snprintf(d->lease->token + 2 * i, 3, "%02x", b[i]);
}

int
lease_share(struct daemon *d, struct session *s, const char *token, char *err,
    size_t len)
{
	if (d->lease->holder == 0 ||
	    !token_equal(token, strlen(token), d->lease->token,
		strlen(d->lease->token))) {
		snprintf(err, len,
		    "the lease token ($HAPTIX_LEASE) is not the lease's: its "
		    "holder released it or left%s",
		    d->lease->holder != 0 ? ", and another holds it now" : "");
		return -1;
	}
	if (lease_shared(d, s->id) || d->lease->holder == s->id)
		return 0;
	if (d->lease->nsharers == d->lease->maxsharers) {
		d->lease->maxsharers = d->lease->maxsharers == 0 ?
		    4 :
		    2 * d->lease->maxsharers;
		d->lease->sharers = realloc(d->lease->sharers,
		    (size_t)d->lease->maxsharers * sizeof(*d->lease->sharers));
		if (d->lease->sharers == NULL)
			fatal("out of memory");
	}
	d->lease->sharers[d->lease->nsharers++] = s->id;
	log_info("client %llu (%s) shares the control lease of client %llu "
		 "(%s)",
	    (unsigned long long)s->id, s->name,
	    (unsigned long long)d->lease->holder, d->lease->holder_name);
	return 0;
}

const char *
lease_token(const struct daemon *d, const struct session *s)
{
	return d->lease->holder == s->id ? d->lease->token : "";
}

int
lease_take(struct daemon *d, struct session *s, char *err, size_t len)
{
	if (d->lease->holder == s->id)
		return 0;
	if (d->lease->holder != 0) {
		snprintf(err, len, "client %llu (%s) holds the control lease%s",
		    (unsigned long long)d->lease->holder, d->lease->holder_name,
		    lease_shared(d, s->id) ? "; this client shares it, and may "
					     "write already" :
					     "");
		return -1;
	}
	d->lease->holder = s->id;
	lease_new_token(d);
	snprintf(d->lease->holder_name, sizeof(d->lease->holder_name), "%s",
	    s->name);
	log_info("client %llu (%s) took the control lease",
	    (unsigned long long)s->id, s->name);
	lease_told(d);
	return 0;
}

int
lease_release(struct daemon *d, struct session *s, char *err, size_t len)
{
	if (d->lease->holder != s->id) {
		snprintf(err, len, "this client does not hold the lease%s",
		    lease_shared(d, s->id) ? " (it shares it: the holder "
					     "releases it)" :
					     "");
		return -1;
	}
	lease_end(d);
	log_info("client %llu (%s) released the control lease",
	    (unsigned long long)s->id, s->name);
	lease_told(d);
	return 0;
}

/* The lease ends: nobody holds it, and its token and sharers go. */
static void
lease_end(struct daemon *d)
{
	d->lease->holder = 0;
	d->lease->holder_name[0] = '\0';
	explicit_bzero(d->lease->token, sizeof(d->lease->token));
	free(d->lease->sharers);
	d->lease->sharers = NULL;
	d->lease->nsharers = d->lease->maxsharers = 0;
}

void
lease_session_closed(struct daemon *d, struct session *s)
{
	int i;

	for (i = 0; i < d->lease->nsharers; i++)
		if (d->lease->sharers[i] == s->id)
			d->lease
			    ->sharers[i--] = d->lease
						 ->sharers[--d->lease->nsharers];
	if (d->lease->holder != s->id)
		return;
	lease_end(d);
	log_info("client %llu (%s) left holding the control lease: %s",
	    (unsigned long long)s->id, s->name,
	    options_lease_loss_name(d->opts->lease_loss));
	if (sim_loaded(d->sim)) {
		switch (d->opts->lease_loss) {
		case LEASE_LOSS_PAUSE:
			clock_pause(d->clock);
			break;
		case LEASE_LOSS_HOLD:
			sim_controls_hold(d->sim, 0);
			break;
		case LEASE_LOSS_ZERO:
			sim_controls_hold(d->sim, 1);
			break;
		default:
			break;
		}
	}
	lease_told(d);
}
