/* Raw protocol client for tests: see rawclient.h. */
#include "config.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "address.h"
#include "frame.h"
#include "rawclient.h"

int
raw_connect(const char *addr)
{
	struct address a;
	struct sockaddr_un sun;
	struct addrinfo hints, *res;
	char err[256];
	int fd;

	cr_assert_eq(address_parse_server(addr, &a, err, sizeof(err)), 0,
	    "bad address %s: %s", addr, err);
	if (a.kind == ADDRESS_UNIX) {
		fd = socket(AF_UNIX, SOCK_STREAM, 0);
		memset(&sun, 0, sizeof(sun));
		sun.sun_family = AF_UNIX;
		memcpy(sun.sun_path, a.path, strlen(a.path));
		cr_assert_eq(connect(fd, (struct sockaddr *)&sun, sizeof(sun)),
		    0, "connect %s: %s", addr, strerror(errno));
		return fd;
	}
	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	cr_assert_eq(getaddrinfo(a.host, a.port, &hints, &res), 0);
	fd = socket(res->ai_family, SOCK_STREAM, 0);
	cr_assert_eq(connect(fd, res->ai_addr, res->ai_addrlen), 0,
	    "connect %s: %s", addr, strerror(errno));
	freeaddrinfo(res);
	return fd;
}

void
raw_send(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	ssize_t n;

	while (len > 0) {
		n = send(fd, p, len, MSG_NOSIGNAL);
		cr_assert_gt(n, 0, "send: %s", strerror(errno));
		p += n;
		len -= (size_t)n;
	}
}

void
raw_send_frame(int fd, const void *payload, uint32_t len)
{
	uint8_t hdr[FRAME_HEADER_SIZE];

	frame_put_header(hdr, len);
	raw_send(fd, hdr, sizeof(hdr));
	if (len > 0)
		raw_send(fd, payload, len);
}

void
raw_send_request(int fd, Haptix__V1__Request *req)
{
	size_t len = haptix__v1__request__get_packed_size(req);
	uint8_t *buf = malloc(len + 1);

	haptix__v1__request__pack(req, buf);
	raw_send_frame(fd, buf, (uint32_t)len);
	free(buf);
}

/* Read exactly len bytes unless the stream ends or time runs out. */
static int
raw_read_exact(int fd, uint8_t *buf, size_t len, int timeout_ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	ssize_t n;

	while (len > 0) {
		if (poll(&pfd, 1, timeout_ms) != 1)
			return -1;
		n = recv(fd, buf, len, 0);
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

Haptix__V1__Response *
raw_recv(int fd, int timeout_ms)
{
	uint8_t hdr[FRAME_HEADER_SIZE], *buf;
	Haptix__V1__Response *r;
	uint32_t len;

	if (raw_read_exact(fd, hdr, sizeof(hdr), timeout_ms) != 0)
		return NULL;
	len = frame_get_length(hdr);
	cr_assert_leq(len, 64u << 20, "the server sent a %u-byte frame", len);
	buf = malloc(len + 1);
	if (raw_read_exact(fd, buf, len, timeout_ms) != 0) {
		free(buf);
		return NULL;
	}
	r = haptix__v1__response__unpack(NULL, len, buf);
	free(buf);
	cr_assert_not_null(r, "the server sent a frame that does not decode");
	return r;
}

int
raw_hello(int fd, const char *name)
{
	Haptix__V1__Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Hello hello = HAPTIX__V1__HELLO__INIT;
	Haptix__V1__Response *r;
	int rc;

	hello.protocol_version =
	    HAPTIX__V1__PROTOCOL_VERSION__PROTOCOL_VERSION_CURRENT;
	hello.client_name = (char *)name;
	req.id = 1;
	req.call_case = HAPTIX__V1__REQUEST__CALL_HELLO;
	req.hello = &hello;
	raw_send_request(fd, &req);
	r = raw_recv(fd, 5000);
	cr_assert_not_null(r, "no answer to Hello");
	rc = r->result;
	haptix__v1__response__free_unpacked(r, NULL);
	return rc;
}

int
raw_batch_client(
    const char *addr, const char *name, Haptix__V1__Batch *w, uint64_t id)
{
	Haptix__V1__Request req = HAPTIX__V1__REQUEST__INIT;
	int fd = raw_connect(addr);

	cr_assert_eq(raw_hello(fd, name), 0, "%s: Hello failed", name);
	req.id = id;
	req.call_case = HAPTIX__V1__REQUEST__CALL_BATCH;
	req.batch = w;
	raw_send_request(fd, &req);
	return fd;
}

int
raw_closed(int fd, int timeout_ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	uint8_t buf[4096];

	for (;;) {
		if (poll(&pfd, 1, timeout_ms) != 1)
			return 0;
		if (recv(fd, buf, sizeof(buf), 0) <= 0)
			return 1;
	}
}

Haptix__V1__Response *
raw_call_empty(int fd, Haptix__V1__Request__CallCase call, uint64_t id)
{
	Haptix__V1__Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Empty empty = HAPTIX__V1__EMPTY__INIT;

	req.id = id;
	req.call_case = call;
	req.info = &empty;
	raw_send_request(fd, &req);
	return raw_recv(fd, 5000);
}
