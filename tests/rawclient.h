/*
 * A raw protocol client for tests: bytes, frames and hand-built
 * messages, without libhaptix's checks in the way.
 */
#ifndef HX_TEST_RAWCLIENT_H
#define HX_TEST_RAWCLIENT_H

#include <stddef.h>
#include <stdint.h>

#include "haptix.pb-c.h"

/* Connect to "unix:PATH" or "HOST:PORT"; fails the test on error. */
int raw_connect(const char *addr);

/* Send bytes as they are. */
void raw_send(int fd, const void *buf, size_t len);

/* Send one frame with the given payload. */
void raw_send_frame(int fd, const void *payload, uint32_t len);

/* Pack and send a request. */
void raw_send_request(int fd, Haptix__V1__Request *req);

/*
 * Receive one frame and decode it as a Response; NULL on end of stream
 * or after timeout_ms.  Free with haptix__v1__response__free_unpacked.
 */
Haptix__V1__Response *raw_recv(int fd, int timeout_ms);

/* Say Hello with the current protocol version; return the result. */
int raw_hello(int fd, const char *name);

/*
 * Connect to addr as name and send batch w as request id, without
 * waiting for its answer; returns the connection.
 */
int raw_batch_client(
    const char *addr, const char *name, Haptix__V1__Batch *w, uint64_t id);

/* Return 1 if the server closes the connection within timeout_ms. */
int raw_closed(int fd, int timeout_ms);

/* Send a request with an Empty call (e.g. get_state) and return the answer. */
Haptix__V1__Response *raw_call_empty(
    int fd, Haptix__V1__Request__CallCase call, uint64_t id);

#endif
