/*
 * hx-foxglove's side of the simulation (foxglove_live.c): a client of the
 * daemon that follows its state and events and publishes each topic of
 * foxglove_msg.h on the WebSocket server's channels (foxglove_ws.h).
 */
#ifndef HX_FOXGLOVE_LIVE_H
#define HX_FOXGLOVE_LIVE_H

#include <stddef.h>

struct fws;
struct live;

/*
 * Connect to server, fetch its model, subscribe to its state at fps
 * frames a second of wall time and to its events, and add the channels
 * to ws.  NULL with the reason in err.
 */
struct live *live_new(
    const char *server, double fps, struct fws *ws, char *err, size_t len);
void live_free(struct live *l);

/* The address connected to, for the ready line. */
const char *live_server(const struct live *l);

/*
 * One turn of the loop (fws_run's tick): the events that came, the
 * newest state published; a lost server retried, with a status to the
 * clients, until it is back.
 */
void live_tick(void *l);

#endif
