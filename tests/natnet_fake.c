/*
 * A fake Motive: see natnet_fake.h.  The encoder writes each field as the
 * SDK's samples lay it out, version by version, into a growing packet
 * whose section sizes (4.1) and header length are filled in at the end.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "natnet_fake.h"

#define FAKE_HEADER 4
#define FAKE_NAME_FIELD 256 /* the server info's fixed name field */
#define FAKE_IDS 256        /* request ids counted */
#define FAKE_EXTRA_MARKERS 3

/* A packet being written; over is set once it would not fit. */
struct fake_out {
	unsigned char *buf;
	size_t cap, len;
	int over;
};

struct natnet_fake {
	int sock;
	int wake[2]; /* a byte here stops the thread */
	int port;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	struct natnet_fake_config config;
	struct natnet_fake_model *models;
	int counts[FAKE_IDS];
	int has_client;
	struct sockaddr_in client;
	unsigned char *last; /* the last frame sent, or NULL */
	size_t last_len;
	unsigned char *in;    /* the thread's receive buffer */
	unsigned char *reply; /* the thread's reply buffer */
};

static void out_bytes(struct fake_out *, const void *, size_t);
static void out_u8(struct fake_out *, unsigned int);
static void out_u16(struct fake_out *, unsigned int);
static void out_u32(struct fake_out *, uint32_t);
static void out_i32(struct fake_out *, int32_t);
static void out_u64(struct fake_out *, uint64_t);
static void out_f32(struct fake_out *, double);
static void out_f64(struct fake_out *, double);
static void out_str(struct fake_out *, const char *);
static size_t out_mark(struct fake_out *, int);
static void out_size(struct fake_out *, size_t, int);
static size_t out_finish(struct fake_out *, unsigned int);
static int fake_since(int, int, int, int);
static void fake_version(int *, int *, int, int);
static void fake_body(struct fake_out *, int, int, int, double, const double[3],
    const double[4], int);
static void fake_frame_extras(struct fake_out *, int, int, int, int);
static void fake_model_body(struct fake_out *, int, int, const char *);
static void fake_model_extras(struct fake_out *, int, int, int *);
static int fake_address(const char *, int, struct sockaddr_in *);
static int fake_target(
    struct natnet_fake *, const char *, int, struct sockaddr_in *);
static void fake_reply(
    struct natnet_fake *, const struct sockaddr_in *, const void *, size_t);
static void fake_handle(struct natnet_fake *);
static void *fake_serve(void *);

/* Append bytes, or note that they do not fit. */
static void
out_bytes(struct fake_out *o, const void *p, size_t n)
{
	if (o->over || o->cap - o->len < n) {
		o->over = 1;
		return;
	}
	memcpy(o->buf + o->len, p, n);
	o->len += n;
}

/* Append a byte. */
static void
out_u8(struct fake_out *o, unsigned int v)
{
	unsigned char b = (unsigned char)v;

	out_bytes(o, &b, 1);
}

/* Append a uint16, least significant byte first. */
static void
out_u16(struct fake_out *o, unsigned int v)
{
	out_u8(o, v & 0xff);
	out_u8(o, (v >> 8) & 0xff);
}

/* Append a uint32, least significant byte first. */
static void
out_u32(struct fake_out *o, uint32_t v)
{
	out_u16(o, v & 0xffff);
	out_u16(o, v >> 16);
}

/* Append an int32 as its two's complement bits. */
static void
out_i32(struct fake_out *o, int32_t v)
{
	out_u32(o, (uint32_t)v);
}

/* Append a uint64, least significant byte first. */
static void
out_u64(struct fake_out *o, uint64_t v)
{
	out_u32(o, (uint32_t)v);
	out_u32(o, (uint32_t)(v >> 32));
}

/* Append a single-precision float's bits. */
static void
out_f32(struct fake_out *o, double v)
{
	float f = (float)v;
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	out_u32(o, u);
}

/* Append a double's bits. */
static void
out_f64(struct fake_out *o, double v)
{
	uint64_t u;

	memcpy(&u, &v, sizeof(u));
	out_u64(o, u);
}

/* Append a string and its NUL. */
static void
out_str(struct fake_out *o, const char *s)
{
	out_bytes(o, s, strlen(s) + 1);
}

/* Reserve a 4.1 byte count (if sized) and return where its data starts. */
static size_t
out_mark(struct fake_out *o, int sized)
{
	if (sized)
		out_u32(o, 0);
	return o->len;
}

/* Fill in the byte count before start with the bytes written since. */
static void
out_size(struct fake_out *o, size_t start, int sized)
{
	uint32_t n = (uint32_t)(o->len - start);
	int i;

	if (!sized || o->over)
		return;
	for (i = 0; i < 4; i++)
		o->buf[start - 4 + (size_t)i] = (unsigned char)(n >> (8 * i));
}

/* Fill in the header's id and payload length; the packet's length. */
static size_t
out_finish(struct fake_out *o, unsigned int id)
{
	size_t n = o->len - FAKE_HEADER;

	if (o->over || n > 0xffff)
		return 0;
	o->buf[0] = (unsigned char)id;
	o->buf[1] = (unsigned char)(id >> 8);
	o->buf[2] = (unsigned char)n;
	o->buf[3] = (unsigned char)(n >> 8);
	return o->len;
}

/* Whether version major.minor is since.after or later. */
static int
fake_since(int major, int minor, int since, int after)
{
	return major > since || (major == since && minor >= after);
}

/* A version of 0.0 means 3.1. */
static void
fake_version(int *major, int *minor, int want_major, int want_minor)
{
	*major = want_major;
	*minor = want_minor;
	if (want_major == 0 && want_minor == 0) {
		*major = 3;
		*minor = 1;
	}
}

/*
 * A rigid body as frames carry it (also a skeleton's bone): before 3.0
 * with three markers of its own, each at the body's position plus a
 * small offset.
 */
static void
fake_body(struct fake_out *o, int major, int extras, int id, double error,
    const double pos[3], const double quat[4], int tracked)
{
	int k, j;

	out_i32(o, id);
	for (k = 0; k < 3; k++)
		out_f32(o, pos[k]);
	out_f32(o, quat[1]);
	out_f32(o, quat[2]);
	out_f32(o, quat[3]);
	out_f32(o, quat[0]);
	if (major < 3) {
		int n = extras ? FAKE_EXTRA_MARKERS : 0;

		out_i32(o, n);
		for (k = 0; k < n; k++)
			for (j = 0; j < 3; j++)
				out_f32(o, pos[j] + 0.01 * (k + 1));
		for (k = 0; k < n; k++)
			out_i32(o, id * 10 + k);
		for (k = 0; k < n; k++)
			out_f32(o, 0.014);
	}
	out_f32(o, error);
	out_u16(o, tracked ? 0x01 : 0x00);
}

/*
 * What a frame carries besides rigid bodies, section by section: where
 * is which section (0 marker sets and unlabeled markers, 1 skeletons,
 * assets, labeled markers, force plates and devices).
 */
static void
fake_frame_extras(
    struct fake_out *o, int major, int minor, int extras, int where)
{
	static const double zero[3] = { 0, 0, 0 };
	static const double unit[4] = { 1, 0, 0, 0 };
	int sized = fake_since(major, minor, 4, 1);
	size_t start;
	int i, k, n;

	if (where == 0) {
		/* Marker sets: a name and marker positions. */
		n = extras ? 2 : 0;
		out_i32(o, n);
		start = out_mark(o, sized);
		for (i = 0; i < n; i++) {
			out_str(o, i == 0 ? "Wand" : "all");
			out_i32(o, FAKE_EXTRA_MARKERS);
			for (k = 0; k < 3 * FAKE_EXTRA_MARKERS; k++)
				out_f32(o, 0.5 + k);
		}
		out_size(o, start, sized);
		/* Unlabeled ("other") markers: positions. */
		n = extras ? 4 : 0;
		out_i32(o, n);
		start = out_mark(o, sized);
		for (k = 0; k < 3 * n; k++)
			out_f32(o, -1.25 * k);
		out_size(o, start, sized);
		return;
	}
	/* Skeletons: an id and bones, rigid bodies as frames carry them. */
	n = extras ? 1 : 0;
	out_i32(o, n);
	start = out_mark(o, sized);
	for (i = 0; i < n; i++) {
		out_i32(o, 300);
		out_i32(o, 2);
		for (k = 0; k < 2; k++)
			fake_body(
			    o, major, extras, 301 + k, 0.001, zero, unit, 1);
	}
	out_size(o, start, sized);
	if (sized) {
		/* Assets: an id, rigid bodies, markers. */
		n = extras ? 1 : 0;
		out_i32(o, n);
		start = out_mark(o, sized);
		for (i = 0; i < n; i++) {
			out_i32(o, 400);
			out_i32(o, 1);
			out_i32(o, 401);
			for (k = 0; k < 7; k++)
				out_f32(o, k == 6 ? 1 : 0);
			out_f32(o, 0.002);
			out_u16(o, 1);
			out_i32(o, 2);
			for (k = 0; k < 2; k++) {
				out_i32(o, 410 + k);
				out_f32(o, 1);
				out_f32(o, 2);
				out_f32(o, 3);
				out_f32(o, 0.01);
				out_u16(o, 0);
				out_f32(o, 0.0001);
			}
		}
		out_size(o, start, sized);
	}
	/* Labeled markers: id, position, size, flags, residual. */
	n = extras ? 3 : 0;
	out_i32(o, n);
	start = out_mark(o, sized);
	for (i = 0; i < n; i++) {
		out_i32(o, 0x00010000 | i);
		out_f32(o, 0.1 * i);
		out_f32(o, 0.2 * i);
		out_f32(o, 0.3 * i);
		out_f32(o, 0.015);
		out_u16(o, 0x04);
		if (major >= 3)
			out_f32(o, 0.0002);
	}
	out_size(o, start, sized);
	/* Force plates (2.9) and devices (2.11): channels of frames. */
	for (k = 0; k < 2; k++) {
		if (!fake_since(major, minor, 2, k == 0 ? 9 : 11))
			continue;
		n = extras ? 1 : 0;
		out_i32(o, n);
		start = out_mark(o, sized);
		for (i = 0; i < n; i++) {
			int c, fr;

			out_i32(o, 500 + k);
			out_i32(o, 2);
			for (c = 0; c < 2; c++) {
				out_i32(o, 3);
				for (fr = 0; fr < 3; fr++)
					out_f32(o, 9.5 * fr);
			}
		}
		out_size(o, start, sized);
	}
}

size_t
natnet_fake_encode_frame(
    unsigned char *buf, size_t cap, const struct natnet_fake_frame *fr)
{
	struct fake_out o = { buf, cap, FAKE_HEADER, cap < FAKE_HEADER };
	int major, minor, sized, i;
	size_t start;

	fake_version(&major, &minor, fr->major, fr->minor);
	sized = fake_since(major, minor, 4, 1);
	out_i32(&o, fr->frame_number);
	fake_frame_extras(&o, major, minor, fr->extras, 0);
	out_i32(&o, fr->nbodies);
	start = out_mark(&o, sized);
	for (i = 0; i < fr->nbodies; i++) {
		const struct natnet_fake_body *b = &fr->bodies[i];

		fake_body(&o, major, fr->extras, b->id, b->mean_error, b->pos,
		    b->quat, b->tracked);
	}
	out_size(&o, start, sized);
	fake_frame_extras(&o, major, minor, fr->extras, 1);
	/* The suffix. */
	if (major < 3)
		out_f32(&o, 0.004); /* software latency */
	out_u32(&o, 0x01020304);    /* timecode 01:02:03:04 */
	out_u32(&o, 0);
	if (fake_since(major, minor, 2, 7))
		out_f64(&o, fr->timestamp);
	else
		out_f32(&o, fr->timestamp);
	if (major >= 3) {
		out_u64(&o, fr->mid_exposure);
		out_u64(&o, fr->data_received);
		out_u64(&o, fr->transmit);
	}
	if (major >= 4 && fr->precision) {
		out_u32(&o, fr->precision_secs);
		out_u32(&o, fr->precision_frac);
	}
	out_u16(
	    &o, (fr->recording ? 0x01 : 0) | (fr->models_changed ? 0x02 : 0));
	out_u32(&o, 0); /* end of data */
	return out_finish(&o, NATNET_FAKE_FRAMEOFDATA);
}

/* A rigid body's description; from 3.0 with three markers. */
static void
fake_model_body(struct fake_out *o, int major, int id, const char *name)
{
	char marker[32];
	int k;

	out_str(o, name);
	out_i32(o, id);
	out_i32(o, -1); /* parent */
	out_f32(o, 0);
	out_f32(o, 0);
	out_f32(o, 0);
	if (major < 3)
		return;
	out_i32(o, FAKE_EXTRA_MARKERS);
	for (k = 0; k < 3 * FAKE_EXTRA_MARKERS; k++)
		out_f32(o, 0.01 * (k + 1));
	for (k = 0; k < FAKE_EXTRA_MARKERS; k++)
		out_i32(o, 0); /* active labels */
	if (major < 4)
		return;
	for (k = 0; k < FAKE_EXTRA_MARKERS; k++) {
		snprintf(marker, sizeof(marker), "Marker%d", k + 1);
		out_str(o, marker);
	}
}

/*
 * The descriptions of other kinds than rigid bodies, each with its kind
 * and (4.1) size; *count counts them.
 */
static void
fake_model_extras(struct fake_out *o, int major, int minor, int *count)
{
	int sized = fake_since(major, minor, 4, 1);
	size_t start;
	int k;

	/* A marker set: name and marker names. */
	out_i32(o, 0);
	start = out_mark(o, sized);
	out_str(o, "all");
	out_i32(o, FAKE_EXTRA_MARKERS);
	out_str(o, "all_1");
	out_str(o, "all_2");
	out_str(o, "all_3");
	out_size(o, start, sized);
	/* A skeleton: name, id, bones described as rigid bodies. */
	out_i32(o, 2);
	start = out_mark(o, sized);
	out_str(o, "Skeleton");
	out_i32(o, 60);
	out_i32(o, 2);
	fake_model_body(o, major, 61, "Hip");
	fake_model_body(o, major, 62, "Ab");
	out_size(o, start, sized);
	/* A camera: name, position, orientation. */
	out_i32(o, 5);
	start = out_mark(o, sized);
	out_str(o, "Prime 13 #1");
	for (k = 0; k < 7; k++)
		out_f32(o, k == 6 ? 1 : 0.5);
	out_size(o, start, sized);
	*count += 3;
	if (major < 3)
		return;
	/* A force plate: id, serial, sizes, origin, calibration, corners,
	 * types, channel names. */
	out_i32(o, 3);
	start = out_mark(o, sized);
	out_i32(o, 70);
	out_str(o, "FP-0001");
	for (k = 0; k < 2 + 3 + 144 + 12; k++)
		out_f32(o, k * 0.5);
	out_i32(o, 1);
	out_i32(o, 0);
	out_i32(o, 2);
	out_str(o, "Fx");
	out_str(o, "Fy");
	out_size(o, start, sized);
	/* A device: id, name, serial, types, channel names. */
	out_i32(o, 4);
	start = out_mark(o, sized);
	out_i32(o, 80);
	out_str(o, "NI-DAQ");
	out_str(o, "D-0001");
	out_i32(o, 1);
	out_i32(o, 0);
	out_i32(o, 3);
	out_str(o, "ai0");
	out_str(o, "ai1");
	out_str(o, "ai2");
	out_size(o, start, sized);
	*count += 2;
}

size_t
natnet_fake_encode_models(
    unsigned char *buf, size_t cap, const struct natnet_fake_models *m)
{
	struct fake_out o = { buf, cap, FAKE_HEADER, cap < FAKE_HEADER };
	int major, minor, sized, count = 0, i, k;
	size_t count_at, start;

	fake_version(&major, &minor, m->major, m->minor);
	sized = fake_since(major, minor, 4, 1);
	count_at = o.len;
	out_i32(&o, 0);
	if (m->extras)
		fake_model_extras(&o, major, minor, &count);
	for (i = 0; i <= m->n; i++) {
		if (m->unknown_kind != 0 && i == m->unknown_after) {
			out_i32(&o, m->unknown_kind);
			start = out_mark(&o, sized);
			out_str(&o, "Mystery");
			for (k = 0; k < 5; k++)
				out_i32(&o, k);
			out_size(&o, start, sized);
			count++;
		}
		if (i == m->n)
			break;
		out_i32(&o, 1);
		start = out_mark(&o, sized);
		fake_model_body(&o, major, m->bodies[i].id, m->bodies[i].name);
		out_size(&o, start, sized);
		count++;
	}
	if (!o.over)
		for (k = 0; k < 4; k++)
			buf[count_at + (size_t)k] = (unsigned char)((uint32_t)
									count >>
			    (8 * k));
	return out_finish(&o, NATNET_FAKE_MODELDEF);
}

size_t
natnet_fake_encode_server(
    unsigned char *buf, size_t cap, const struct natnet_fake_config *c)
{
	struct fake_out o = { buf, cap, FAKE_HEADER, cap < FAKE_HEADER };
	static const unsigned char v31[4] = { 3, 1, 0, 0 };
	const unsigned char *appv = c->app_version;
	const char *app = c->app != NULL ? c->app : "Motive";
	const char *group_text = c->group != NULL ? c->group : "239.255.42.99";
	struct in_addr group;
	unsigned char name[FAKE_NAME_FIELD];
	size_t len;
	int major, minor;

	fake_version(&major, &minor, c->major, c->minor);
	/* The name fills its field; a longer one loses its NUL. */
	memset(name, 0, sizeof(name));
	len = strlen(app);
	memcpy(name, app, len < sizeof(name) ? len : sizeof(name));
	out_bytes(&o, name, sizeof(name));
	if (!appv[0] && !appv[1] && !appv[2] && !appv[3])
		appv = v31;
	out_bytes(&o, appv, 4);
	out_u8(&o, (unsigned int)major);
	out_u8(&o, (unsigned int)minor);
	out_u8(&o, 0);
	out_u8(&o, 0);
	if (major >= 3) {
		if (inet_pton(AF_INET, group_text, &group) != 1)
			return 0;
		out_u64(&o, c->clock_frequency ? c->clock_frequency : 10000000);
		out_u16(&o, c->data_port ? (unsigned int)c->data_port : 1511);
		out_u8(&o, c->multicast ? 1 : 0);
		out_bytes(&o, &group.s_addr, 4); /* network order, as sent */
	}
	return out_finish(&o, NATNET_FAKE_SERVERINFO);
}

/* An IPv4 address for host (a name or a numeral) and port. */
static int
fake_address(const char *host, int port, struct sockaddr_in *sa)
{
	struct addrinfo hints, *res;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_INET;
	hints.ai_socktype = SOCK_DGRAM;
	if (getaddrinfo(host, NULL, &hints, &res) != 0)
		return -1;
	memcpy(sa, res->ai_addr, sizeof(*sa));
	freeaddrinfo(res);
	sa->sin_port = htons((uint16_t)port);
	return 0;
}

/* Where to send: host:port, or with port 0 the last client. */
static int
fake_target(
    struct natnet_fake *f, const char *host, int port, struct sockaddr_in *sa)
{
	int ok;

	if (port != 0)
		return fake_address(
		    host != NULL ? host : "127.0.0.1", port, sa);
	pthread_mutex_lock(&f->lock);
	ok = f->has_client;
	*sa = f->client;
	pthread_mutex_unlock(&f->lock);
	return ok ? 0 : -1;
}

/* Send a reply; a lost reply is what UDP allows, so errors are ignored. */
static void
fake_reply(struct natnet_fake *f, const struct sockaddr_in *to, const void *pkt,
    size_t len)
{
	if (len > 0)
		(void)sendto(f->sock, pkt, len, 0, (const struct sockaddr *)to,
		    sizeof(*to));
}

/* Receive one request and answer it as Motive would. */
static void
fake_handle(struct natnet_fake *f)
{
	struct natnet_fake_models m;
	struct natnet_fake_frame empty;
	struct sockaddr_in from;
	socklen_t fromlen = sizeof(from);
	unsigned char *r = f->reply;
	ssize_t got;
	size_t len = 0;
	unsigned int id;

	got = recvfrom(f->sock, f->in, NATNET_FAKE_MAX_PACKET, 0,
	    (struct sockaddr *)&from, &fromlen);
	if (got < FAKE_HEADER || from.sin_family != AF_INET)
		return;
	id = (unsigned int)(f->in[0] | f->in[1] << 8);
	switch (id) {
	case NATNET_FAKE_CONNECT:
		pthread_mutex_lock(&f->lock);
		f->client = from;
		f->has_client = 1;
		pthread_mutex_unlock(&f->lock);
		len = natnet_fake_encode_server(
		    r, NATNET_FAKE_MAX_PACKET, &f->config);
		break;
	case NATNET_FAKE_REQUEST_MODELDEF:
		memset(&m, 0, sizeof(m));
		m.major = f->config.major;
		m.minor = f->config.minor;
		m.n = f->config.nmodels;
		m.bodies = f->models;
		m.extras = f->config.extras;
		len = natnet_fake_encode_models(r, NATNET_FAKE_MAX_PACKET, &m);
		break;
	case NATNET_FAKE_REQUEST:
		/* A 4-byte answer: 0, success. */
		memset(r, 0, 8);
		r[0] = NATNET_FAKE_RESPONSE;
		r[2] = 4;
		len = 8;
		break;
	case NATNET_FAKE_REQUEST_FRAMEOFDATA:
		pthread_mutex_lock(&f->lock);
		if (f->last != NULL) {
			memcpy(r, f->last, f->last_len);
			len = f->last_len;
		}
		pthread_mutex_unlock(&f->lock);
		if (len == 0) {
			memset(&empty, 0, sizeof(empty));
			empty.major = f->config.major;
			empty.minor = f->config.minor;
			len = natnet_fake_encode_frame(
			    r, NATNET_FAKE_MAX_PACKET, &empty);
		}
		break;
	case NATNET_FAKE_DISCONNECT:
		pthread_mutex_lock(&f->lock);
		f->has_client = 0;
		pthread_mutex_unlock(&f->lock);
		break;
	case NATNET_FAKE_KEEPALIVE:
		break;
	default:
		memset(r, 0, 4);
		r[0] = NATNET_FAKE_UNRECOGNIZED;
		len = 4;
		break;
	}
	/* Count before answering, so a client that has its answer sees the
	 * request counted. */
	pthread_mutex_lock(&f->lock);
	f->counts[id < FAKE_IDS ? id : FAKE_IDS - 1]++;
	pthread_cond_broadcast(&f->changed);
	pthread_mutex_unlock(&f->lock);
	fake_reply(f, &from, r, len);
}

/* The server's thread: requests until a byte arrives on the wake pipe. */
static void *
fake_serve(void *arg)
{
	struct natnet_fake *f = arg;
	struct pollfd pfd[2];

	pfd[0].fd = f->sock;
	pfd[0].events = POLLIN;
	pfd[1].fd = f->wake[0];
	pfd[1].events = POLLIN;
	for (;;) {
		if (poll(pfd, 2, -1) == -1) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pfd[1].revents != 0)
			break;
		if (pfd[0].revents & POLLIN)
			fake_handle(f);
	}
	return NULL;
}

struct natnet_fake *
natnet_fake_start(const struct natnet_fake_config *c)
{
	struct natnet_fake *f;
	struct sockaddr_in sa;
	socklen_t salen = sizeof(sa);
	int i;

	f = calloc(1, sizeof(*f));
	cr_assert_not_null(f);
	f->config = *c;
	fake_version(&f->config.major, &f->config.minor, c->major, c->minor);
	if (c->nmodels > 0) {
		f->models = calloc((size_t)c->nmodels, sizeof(*f->models));
		cr_assert_not_null(f->models);
		for (i = 0; i < c->nmodels; i++) {
			f->models[i].id = c->models[i].id;
			f->models[i].name = strdup(c->models[i].name);
			cr_assert_not_null(f->models[i].name);
		}
	}
	f->config.models = f->models;
	f->config.app = strdup(c->app != NULL ? c->app : "Motive");
	f->config.group = strdup(c->group != NULL ? c->group : "239.255.42.99");
	f->in = malloc(NATNET_FAKE_MAX_PACKET);
	f->reply = malloc(NATNET_FAKE_MAX_PACKET);
	cr_assert(f->config.app != NULL && f->config.group != NULL &&
	    f->in != NULL && f->reply != NULL);
	f->sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	cr_assert_geq(f->sock, 0, "socket: %s", strerror(errno));
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	cr_assert_eq(bind(f->sock, (struct sockaddr *)&sa, sizeof(sa)), 0,
	    "bind: %s", strerror(errno));
	cr_assert_eq(getsockname(f->sock, (struct sockaddr *)&sa, &salen), 0);
	f->port = ntohs(sa.sin_port);
	cr_assert_eq(pipe2(f->wake, O_CLOEXEC), 0, "pipe: %s", strerror(errno));
	cr_assert_eq(pthread_mutex_init(&f->lock, NULL), 0);
	cr_assert_eq(pthread_cond_init(&f->changed, NULL), 0);
	cr_assert_eq(pthread_create(&f->thread, NULL, fake_serve, f), 0);
	return f;
}

int
natnet_fake_command_port(const struct natnet_fake *f)
{
	return f->port;
}

int
natnet_fake_send_raw(struct natnet_fake *f, const char *host, int port,
    const void *pkt, size_t len)
{
	struct sockaddr_in to;
	ssize_t sent;

	if (fake_target(f, host, port, &to) == -1)
		return -1;
	sent = sendto(f->sock, pkt, len, 0, (struct sockaddr *)&to, sizeof(to));
	return sent == (ssize_t)len ? 0 : -1;
}

int
natnet_fake_send_frame(struct natnet_fake *f, const char *host, int port,
    const struct natnet_fake_frame *fr)
{
	struct natnet_fake_frame copy = *fr;
	unsigned char *buf;
	size_t len;
	int r = -1;

	if (copy.major == 0 && copy.minor == 0) {
		copy.major = f->config.major;
		copy.minor = f->config.minor;
	}
	buf = malloc(NATNET_FAKE_MAX_PACKET);
	if (buf == NULL)
		return -1;
	len = natnet_fake_encode_frame(buf, NATNET_FAKE_MAX_PACKET, &copy);
	if (len > 0)
		r = natnet_fake_send_raw(f, host, port, buf, len);
	if (r == 0) {
		pthread_mutex_lock(&f->lock);
		free(f->last);
		f->last = buf;
		f->last_len = len;
		buf = NULL;
		pthread_mutex_unlock(&f->lock);
	}
	free(buf);
	return r;
}

int
natnet_fake_requests(struct natnet_fake *f, int id)
{
	int n;

	if (id < 0 || id >= FAKE_IDS)
		return -1;
	pthread_mutex_lock(&f->lock);
	n = f->counts[id];
	pthread_mutex_unlock(&f->lock);
	return n;
}

int
natnet_fake_wait_requests(
    struct natnet_fake *f, int id, int count, int timeout_ms)
{
	struct timespec until;
	int ok;

	if (id < 0 || id >= FAKE_IDS)
		return 0;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += timeout_ms / 1000;
	until.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&f->lock);
	while (f->counts[id] < count)
		if (pthread_cond_timedwait(&f->changed, &f->lock, &until) != 0)
			break;
	ok = f->counts[id] >= count;
	pthread_mutex_unlock(&f->lock);
	return ok;
}

int
natnet_fake_client(struct natnet_fake *f, char *host, size_t hostlen, int *port)
{
	struct sockaddr_in sa;
	int ok;

	pthread_mutex_lock(&f->lock);
	ok = f->has_client;
	sa = f->client;
	pthread_mutex_unlock(&f->lock);
	if (!ok)
		return 0;
	if (host != NULL && hostlen > 0 &&
	    inet_ntop(AF_INET, &sa.sin_addr, host, (socklen_t)hostlen) == NULL)
		host[0] = '\0';
	if (port != NULL)
		*port = ntohs(sa.sin_port);
	return 1;
}

void
natnet_fake_stop(struct natnet_fake *f)
{
	ssize_t w;
	int i;

	if (f == NULL)
		return;
	w = write(f->wake[1], "x", 1);
	(void)w;
	pthread_join(f->thread, NULL);
	close(f->wake[0]);
	close(f->wake[1]);
	close(f->sock);
	pthread_cond_destroy(&f->changed);
	pthread_mutex_destroy(&f->lock);
	for (i = 0; i < f->config.nmodels; i++)
		free((char *)f->models[i].name);
	free(f->models);
	free((char *)f->config.app);
	free((char *)f->config.group);
	free(f->last);
	free(f->in);
	free(f->reply);
	free(f);
}
