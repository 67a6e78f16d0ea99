/*
 * The message on show to the viewers (HAPTIX's mj_message): its text and
 * the client that set it, cleared when that client leaves.
 */
#ifndef HXD_MESSAGE_H
#define HXD_MESSAGE_H

#include <stddef.h>
#include <stdint.h>

struct daemon;
struct message;

#define MESSAGE_MAX 1000 /* bytes of text, the NUL not counted */

/* The message's state (d->message); message_free takes NULL. */
struct message *message_create(void);
void message_free(struct message *m);

/*
 * Show text (n bytes, at most MESSAGE_MAX) set by session owner; "" takes
 * the message down.
 */
void message_set(struct daemon *d, uint64_t owner, const char *text, size_t n);

/* The text on show ("" if none) and the session that set it (or 0). */
const char *message_text(const struct daemon *d);
uint64_t message_owner(const struct daemon *d);

/* Session id left: take its message down.  Returns 1 if there was one. */
int message_session_closed(struct daemon *d, uint64_t id);

#endif
