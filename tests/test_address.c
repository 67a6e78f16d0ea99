/* Unit tests of server address parsing (lib/address.c). */
#include "config.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "address.h"

TestSuite(address, .timeout = 10);

/* Parse spec as a client would and expect success. */
static struct address
parse_ok(const char *spec)
{
	struct address a;
	char err[256];

	cr_assert_eq(address_parse_server(spec, &a, err, sizeof(err)), 0,
	    "%s: %s", spec, err);
	return a;
}

/* Parse spec as a client would and expect an error mentioning what. */
static void
parse_bad(const char *spec, const char *what)
{
	struct address a;
	char err[256] = "";

	cr_assert_eq(address_parse_server(spec, &a, err, sizeof(err)), -1,
	    "%s should be refused", spec);
	cr_assert_not_null(strstr(err, what), "error for %s: %s", spec, err);
}

Test(address, unix_forms)
{
	struct address a = parse_ok("unix:/tmp/x.sock");

	cr_assert_eq(a.kind, ADDRESS_UNIX);
	cr_assert_str_eq(a.path, "/tmp/x.sock");
	a = parse_ok("/run/haptixd/haptixd.sock");
	cr_assert_eq(a.kind, ADDRESS_UNIX);
	cr_assert_str_eq(a.path, "/run/haptixd/haptixd.sock");
}

Test(address, tcp_forms)
{
	struct address a = parse_ok("sim.lab");

	cr_assert_eq(a.kind, ADDRESS_TCP);
	cr_assert_str_eq(a.host, "sim.lab");
	cr_assert_eq(atoi(a.port), ADDRESS_DEFAULT_PORT);
	a = parse_ok("10.0.0.2:6000");
	cr_assert_str_eq(a.host, "10.0.0.2");
	cr_assert_str_eq(a.port, "6000");
	a = parse_ok("tcp:localhost:7");
	cr_assert_str_eq(a.host, "localhost");
	cr_assert_str_eq(a.port, "7");
	a = parse_ok("[::1]:6000");
	cr_assert_str_eq(a.host, "::1");
	cr_assert_str_eq(a.port, "6000");
	a = parse_ok("[fe80::1]");
	cr_assert_str_eq(a.host, "fe80::1");
	cr_assert_eq(atoi(a.port), ADDRESS_DEFAULT_PORT);
	a = parse_ok("::1");
	cr_assert_str_eq(a.host, "::1", "a bare IPv6 address has no port");
}

Test(address, tls_and_shm_forms)
{
	struct address a = parse_ok("tls:sim.lab");
	char buf[400];

	cr_assert_eq(a.kind, ADDRESS_TCP);
	cr_assert(a.tls, "tls: is TLS");
	cr_assert_str_eq(a.host, "sim.lab");
	cr_assert_eq(atoi(a.port), ADDRESS_DEFAULT_PORT);
	cr_assert_str_eq(
	    address_format(&a, buf, sizeof(buf)), "tls:sim.lab:5790");
	a = parse_ok("tls:[::1]:6000");
	cr_assert(a.tls);
	cr_assert_str_eq(
	    address_format(&a, buf, sizeof(buf)), "tls:[::1]:6000");
	a = parse_ok("tcp:sim.lab");
	cr_assert(!a.tls, "tcp: is in the clear");
	a = parse_ok("sim.lab:6000");
	cr_assert(!a.tls && !a.shm);
	a = parse_ok("shm:/tmp/x.sock");
	cr_assert_eq(a.kind, ADDRESS_UNIX);
	cr_assert(a.shm, "shm: requires shared memory");
	cr_assert_str_eq(a.path, "/tmp/x.sock");
	cr_assert_str_eq(
	    address_format(&a, buf, sizeof(buf)), "shm:/tmp/x.sock");
	a = parse_ok("unix:/tmp/x.sock");
	cr_assert(!a.shm, "a Unix address does not require shared memory");
	cr_assert_str_eq(
	    address_format(&a, buf, sizeof(buf)), "unix:/tmp/x.sock");
}

Test(address, listen_takes_tls)
{
	struct address a;
	char err[256];

	cr_assert_eq(
	    address_parse_listen("tls:0.0.0.0:6003", &a, err, sizeof(err)), 0,
	    "%s", err);
	cr_assert(a.tls);
	cr_assert_str_eq(a.host, "0.0.0.0");
	cr_assert_str_eq(a.port, "6003");
	cr_assert_eq(address_parse_listen("tls:6004", &a, err, sizeof(err)), 0);
	cr_assert(a.tls);
	cr_assert_str_eq(a.host, "127.0.0.1", "a bare port stays loopback");
	cr_assert_eq(address_parse_listen("tcp:6005", &a, err, sizeof(err)), 0);
	cr_assert(!a.tls);
	cr_assert_str_eq(a.port, "6005");
}

Test(address, bad_forms)
{
	parse_bad("host:", "bad port");
	parse_bad("host:70000", "bad port");
	parse_bad("host:12x", "bad port");
	parse_bad("host:0", "port 0");
	parse_bad(":5790", "bad host");
	parse_bad("[::1", "missing ']'");
	parse_bad("[::1]x", "junk");
	parse_bad("unix:", "empty");
	parse_bad("shm:", "empty");
	parse_bad("tls:", "bad host");
	parse_bad("tls:host:0", "port 0");
}

Test(address, too_long_unix_path)
{
	char spec[300];

	memset(spec, 'a', sizeof(spec) - 1);
	spec[sizeof(spec) - 1] = '\0';
	memcpy(spec, "unix:/", 6);
	parse_bad(spec, "too long");
}

Test(address, default_comes_from_the_environment)
{
	struct address a;

	setenv("HAPTIX_SERVER", "unix:/tmp/from-env.sock", 1);
	a = parse_ok(NULL);
	cr_assert_str_eq(a.path, "/tmp/from-env.sock");
	a = parse_ok("");
	cr_assert_str_eq(a.path, "/tmp/from-env.sock");
	unsetenv("HAPTIX_SERVER");
	setenv("XDG_RUNTIME_DIR", "/nonexistent-xdg", 1);
	a = parse_ok(NULL);
	cr_assert_eq(a.kind, ADDRESS_UNIX);
	cr_assert(strcmp(a.path, "/nonexistent-xdg/haptixd.sock") == 0 ||
		strcmp(a.path, ADDRESS_UNIX_SYSTEM) == 0,
	    "%s", a.path);
}

Test(address, listen_forms_default_to_loopback)
{
	struct address a;
	char err[256];

	cr_assert_eq(address_parse_listen("6000", &a, err, sizeof(err)), 0);
	cr_assert_str_eq(a.host, "127.0.0.1");
	cr_assert_str_eq(a.port, "6000");
	cr_assert_eq(address_parse_listen(":6001", &a, err, sizeof(err)), 0);
	cr_assert_str_eq(a.host, "127.0.0.1");
	cr_assert_eq(
	    address_parse_listen("0.0.0.0:6002", &a, err, sizeof(err)), 0);
	cr_assert_str_eq(a.host, "0.0.0.0");
	cr_assert_eq(address_parse_listen("127.0.0.1:0", &a, err, sizeof(err)),
	    0, "port 0 asks for an ephemeral port");
}

Test(address, loopback_detection)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6 };

	inet_pton(AF_INET, "127.0.0.1", &sin.sin_addr);
	cr_assert(address_is_loopback((struct sockaddr *)&sin));
	inet_pton(AF_INET, "127.3.2.1", &sin.sin_addr);
	cr_assert(address_is_loopback((struct sockaddr *)&sin));
	inet_pton(AF_INET, "0.0.0.0", &sin.sin_addr);
	cr_assert_not(address_is_loopback((struct sockaddr *)&sin));
	inet_pton(AF_INET, "192.168.1.2", &sin.sin_addr);
	cr_assert_not(address_is_loopback((struct sockaddr *)&sin));
	inet_pton(AF_INET6, "::1", &sin6.sin6_addr);
	cr_assert(address_is_loopback((struct sockaddr *)&sin6));
	inet_pton(AF_INET6, "::", &sin6.sin6_addr);
	cr_assert_not(address_is_loopback((struct sockaddr *)&sin6));
	inet_pton(AF_INET6, "::ffff:127.0.0.1", &sin6.sin6_addr);
	cr_assert(address_is_loopback((struct sockaddr *)&sin6));
}

Test(address, host_loopback_detection)
{
	cr_assert(address_host_is_loopback("localhost"));
	cr_assert(address_host_is_loopback("127.0.0.1"));
	cr_assert(address_host_is_loopback("127.8.9.10"));
	cr_assert(address_host_is_loopback("::1"));
	cr_assert(address_host_is_loopback("::ffff:127.0.0.1"));
	cr_assert_not(address_host_is_loopback("0.0.0.0"));
	cr_assert_not(address_host_is_loopback("::"));
	cr_assert_not(address_host_is_loopback("192.168.1.2"));
	cr_assert_not(address_host_is_loopback("example.org"),
	    "a name other than localhost is not looked up");
	cr_assert_not(address_host_is_loopback(""));
}

/* address_parse_endpoint: hxview --http and hx-foxglove --listen. */
Test(address, endpoint_needs_a_port)
{
	struct address a;

	cr_assert_eq(address_parse_endpoint("127.0.0.1:8765", &a), 0);
	cr_assert_str_eq(a.host, "127.0.0.1");
	cr_assert_str_eq(a.port, "8765");
	cr_assert_eq(a.tls, 0);
	cr_assert_eq(address_parse_endpoint("tls:0.0.0.0:0", &a), 0);
	cr_assert_str_eq(a.host, "0.0.0.0");
	cr_assert_str_eq(a.port, "0");
	cr_assert_eq(a.tls, 1);
	/* V6ADDR:PORT: the last colon ends the address. */
	cr_assert_eq(address_parse_endpoint("::1:9000", &a), 0);
	cr_assert_str_eq(a.host, "::1");
	cr_assert_str_eq(a.port, "9000");
	cr_assert_eq(address_parse_endpoint("[::1]:9001", &a), 0);
	cr_assert_str_eq(a.host, "::1");
	cr_assert_str_eq(a.port, "9001");
	/* A bare port or host, which --tcp takes, is not an endpoint. */
	cr_assert_eq(address_parse_endpoint("8765", &a), -1);
	cr_assert_eq(address_parse_endpoint("localhost", &a), -1);
	cr_assert_eq(address_parse_endpoint("tls:", &a), -1);
	cr_assert_eq(address_parse_endpoint(":8765", &a), -1);
	cr_assert_eq(address_parse_endpoint("[::1]", &a), -1);
}
