/* The message on show to the viewers: see message.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "daemon.h"
#include "log.h"
#include "message.h"

struct message {
	char text[MESSAGE_MAX + 1];
	uint64_t owner; /* session that set it, or 0 */
};

struct message *
message_create(void)
{
	struct message *m;

	if ((m = calloc(1, sizeof(*m))) == NULL)
		fatal("out of memory");
	return m;
}

void
message_free(struct message *m)
{
	free(m);
}

void
message_set(struct daemon *d, uint64_t owner, const char *text, size_t n)
{
	struct message *m = d->message;

	if (n > MESSAGE_MAX)
		n = MESSAGE_MAX;
	memcpy(m->text, text, n);
	m->text[n] = '\0';
	m->owner = n != 0 ? owner : 0;
}

const char *
message_text(const struct daemon *d)
{
	return d->message->text;
}

uint64_t
message_owner(const struct daemon *d)
{
	return d->message->owner;
}

int
message_session_closed(struct daemon *d, uint64_t id)
{
	struct message *m = d->message;

	if (m->owner != id || id == 0)
		return 0;
	m->text[0] = '\0';
	m->owner = 0;
	return 1;
}
