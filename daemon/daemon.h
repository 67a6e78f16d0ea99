/*
 * The daemon's shared context: what every module of haptixd reaches
 * through the one pointer it is given.  There is one instance, owned by
 * main(); one thread runs it all.
 */
#ifndef HXD_DAEMON_H
#define HXD_DAEMON_H

#include <stddef.h>
#include <stdint.h>

struct event_base;
struct options;
struct sim;
struct clock;
struct server;

#define DAEMON_TOKEN_MAX 4096
#define DAEMON_MESSAGE_MAX 1000

struct daemon {
	struct event_base *base;
	const struct options *opts;
	struct sim *sim;
	struct clock *clock;
	struct server *server;
	double started; /* monotonic seconds */

	uint8_t token[DAEMON_TOKEN_MAX]; /* TCP clients present this */
	size_t token_len;                /* 0: no token configured */

	int model_legacy;         /* the model went through mjcf_legacy */
	char *model_xml;          /* its MJCF text, includes inlined; or NULL */
	size_t model_xml_len;     /* (URDF and MJB models have none) */
	char model_xml_dir[4096]; /* where the text's file names start */

	char message[DAEMON_MESSAGE_MAX + 1]; /* the mj_message on show */
	uint64_t message_owner;               /* session that set it */

	uint64_t lease_holder; /* session holding the control lease, or 0 */
	char lease_holder_name[64]; /* its name, for errors */
	char lease_token[33];       /* its token (hex), shared by its holder */
	uint64_t *lease_sharers;    /* sessions that presented the token */
	int nlease_sharers, maxlease_sharers;
	uint64_t batch_session; /* session whose batch run is stepping */
};

/* Return 1 if session id shares the lease, having presented its token. */
static inline int
daemon_lease_shared(const struct daemon *d, uint64_t id)
{
	int i;

	for (i = 0; i < d->nlease_sharers; i++)
		if (d->lease_sharers[i] == id)
			return 1;
	return 0;
}

#endif
