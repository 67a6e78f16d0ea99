/*
 * Unit tests of the daemon's settings (daemon/options.c) and of the
 * settings file (daemon/conffile.c): the defaults, every kind of value
 * and its range, the command line over the file, errors that name the
 * file and line, a reload's fresh reading, and the example settings file.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include "conffile.h"
#include "frame.h"
#include "lease.h"
#include "options.h"
#include "scratch.h"

TestSuite(
    options, .init = hx_scratch_init, .fini = hx_scratch_fini, .timeout = 10);

/* Write text as the settings file name in the scratch directory. */
static const char *
conf_write(const char *name, const char *text)
{
	const char *path = hx_scratch(name);

	hx_write_file(path, text, strlen(text));
	return path;
}

/*
 * Parse args (NULL-terminated, program name first) as haptixd would.  The
 * command line keeps pointers into argv: copies of args live on, in a
 * pool for the whole test, as main's argv does.
 */
static int
cmdline(struct options_cmdline *cl, const char *const *args)
{
	static char pool[16384], *argv[4 * OPTIONS_MAX_ARGS];
	static size_t used, nargv;
	size_t n, first = nargv;
	int argc;

	for (argc = 0; args[argc] != NULL; argc++) {
		n = strlen(args[argc]) + 1;
		cr_assert_lt(used + n, sizeof(pool));
		cr_assert_lt(nargv + 1, sizeof(argv) / sizeof(argv[0]));
		argv[nargv++] = memcpy(pool + used, args[argc], n);
		used += n;
	}
	argv[nargv++] = NULL;
	return options_parse_cmdline(cl, argc, argv + first);
}

/* Build the settings from config (a path or "none") and argv. */
static void
build_ok(struct options *o, const char *config, const char *const *argv)
{
	static const char *const noargs[] = { "haptixd", NULL };
	struct options_cmdline cl;
	char err[4200] = "";

	cr_assert_eq(cmdline(&cl, argv != NULL ? argv : noargs), 0);
	cl.config = config;
	cr_assert_eq(options_build(o, &cl, err, sizeof(err)), 0, "%s", err);
}

/* Build from the file text and expect the error want, exactly. */
static void
file_fails(const char *text, const char *want)
{
	struct options_cmdline cl = { 0 };
	struct options o;
	char err[4200] = "", full[4400];

	cl.config = conf_write("bad.conf", text);
	cr_assert_eq(
	    options_build(&o, &cl, err, sizeof(err)), -1, "accepted: %s", text);
	snprintf(full, sizeof(full), "%s:%s", cl.config, want);
	cr_assert_str_eq(err, full);
}

/* Set key to value and expect it taken. */
static void
set_ok(struct options *o, const char *key, const char *value)
{
	char err[600] = "";

	cr_assert_eq(options_set(o, key, value, err, sizeof(err)),
	    OPTIONS_SET_OK, "%s = %s: %s", key, value, err);
}

/* Set key to value and expect it refused with the reason want. */
static void
set_bad(struct options *o, const char *key, const char *value, const char *want)
{
	char err[600] = "";

	cr_assert_eq(options_set(o, key, value, err, sizeof(err)),
	    OPTIONS_SET_BADVALUE, "%s = %s accepted", key, value);
	cr_assert_str_eq(err, want, "%s = %s", key, value);
}

Test(options, defaults)
{
	struct options o;

	setenv("XDG_RUNTIME_DIR", "/run/user/4242", 1);
	build_ok(&o, "none", NULL);
	cr_assert_null(o.config);
	cr_assert_null(o.model, "NULL: the default scene");
	cr_assert_eq(o.no_model, 0);
	cr_assert_eq(o.legacy, 0);
	cr_assert_eq(o.nmodel_dirs, 1);
	cr_assert_str_eq(o.model_dirs[0], HXD_MODELDIR);
	cr_assert_str_eq(o.unix_path, "/run/user/4242/haptixd.sock");
	cr_assert_str_eq(o.tcp, "127.0.0.1:5790");
	cr_assert_eq(o.unix_set, 0);
	cr_assert_eq(o.tcp_set, 0);
	cr_assert_null(o.token_file);
	cr_assert_null(o.state_dir);
	cr_assert_eq(o.speed, 1.0);
	cr_assert_eq(o.speed_max, 0);
	cr_assert_eq(o.paused, 0);
	cr_assert_lt(o.api_rate, 0, "below zero: the model's apirate");
	cr_assert_eq(o.max_clients, 64);
	cr_assert_eq(o.max_handshakes, 32);
	cr_assert_eq(o.max_frame, 16u * 1024 * 1024);
	cr_assert_eq(o.max_frame, FRAME_MAX_DEFAULT, "what --help prints");
	cr_assert_eq(o.max_queued, 64u * 1024 * 1024);
	cr_assert_eq(o.max_subscriptions, 16);
	cr_assert_eq(o.lease_loss, LEASE_LOSS_PAUSE);
	cr_assert_eq(o.perturb_timeout, 0.2);
	cr_assert_eq(o.verbosity, 0);
	options_free(&o);

	unsetenv("XDG_RUNTIME_DIR");
	build_ok(&o, "none", NULL);
	cr_assert_str_eq(o.unix_path, "/run/haptixd/haptixd.sock");
	options_free(&o);
}

Test(options, every_setting_from_the_file)
{
	struct options o;
	const char *path = conf_write("all.conf",
	    "model = arm.xml\n"
	    "legacy = yes\n"
	    "model-dir = /srv/models\n"
	    "model-dir = /srv/more models\n"
	    "unix = /tmp/hx.sock\n"
	    "tcp = 0.0.0.0:6000\n"
	    "token-file = /etc/haptixd/token\n"
	    "state-dir = /var/lib/hx\n"
	    "speed = 0.5\n"
	    "paused = yes\n"
	    "api-rate = 250\n"
	    "lease-loss = hold\n"
	    "perturb-timeout = 350\n"
	    "max-clients = 7\n"
	    "max-frame = 2048\n"
	    "max-queued = 131072\n"
	    "max-subscriptions = 3\n"
	    "verbose = 2\n");

	build_ok(&o, path, NULL);
	cr_assert_str_eq(o.config, path);
	cr_assert_str_eq(o.model, "arm.xml");
	cr_assert_eq(o.no_model, 0);
	cr_assert_eq(o.legacy, 1);
	cr_assert_eq(o.nmodel_dirs, 2, "the file's dirs replace the default");
	cr_assert_str_eq(o.model_dirs[0], "/srv/models");
	cr_assert_str_eq(o.model_dirs[1], "/srv/more models");
	cr_assert_str_eq(o.unix_path, "/tmp/hx.sock");
	cr_assert_eq(o.unix_set, 1);
	cr_assert_str_eq(o.tcp, "0.0.0.0:6000");
	cr_assert_eq(o.tcp_set, 1);
	cr_assert_str_eq(o.token_file, "/etc/haptixd/token");
	cr_assert_str_eq(o.state_dir, "/var/lib/hx");
	cr_assert_eq(o.speed, 0.5);
	cr_assert_eq(o.speed_max, 0);
	cr_assert_eq(o.paused, 1);
	cr_assert_eq(o.api_rate, 250.0);
	cr_assert_eq(o.lease_loss, LEASE_LOSS_HOLD);
	cr_assert_float_eq(o.perturb_timeout, 0.35, 1e-12, "seconds");
	cr_assert_eq(o.max_clients, 7);
	cr_assert_eq(o.max_frame, 2048);
	cr_assert_eq(o.max_queued, 131072);
	cr_assert_eq(o.max_subscriptions, 3);
	cr_assert_eq(o.verbosity, 2);
	options_free(&o);
}

/* The speed's range, in o; a refused value changes nothing. */
static void
expect_speed_range(struct options *o)
{
	set_ok(o, "speed", "1e-6");
	cr_assert_eq(o->speed, 1e-6);
	set_ok(o, "speed", "1e6");
	cr_assert_eq(o->speed, 1e6);
	set_bad(
	    o, "speed", "1e-7", "'1e-7' is not a number from 1e-06 to 1000000");
	set_bad(o, "speed", "1000001",
	    "'1000001' is not a number from 1e-06 to 1000000");
	set_bad(o, "speed", "0", "'0' is not a number from 1e-06 to 1000000");
	set_bad(o, "speed", "-1", "'-1' is not a number from 1e-06 to 1000000");
	set_bad(o, "speed", "2x", "'2x' is not a number from 1e-06 to 1000000");
	set_bad(o, "speed", "", "'' is not a number from 1e-06 to 1000000");
	set_bad(
	    o, "speed", "nan", "'nan' is not a number from 1e-06 to 1000000");
	set_bad(
	    o, "speed", "inf", "'inf' is not a number from 1e-06 to 1000000");
	set_bad(o, "speed", "1e999",
	    "'1e999' is not a number from 1e-06 to 1000000");
	cr_assert_eq(o->speed, 1e6, "a refused value changes nothing");
}

/* The limits on clients, handshakes and subscriptions, in o. */
static void
expect_session_limits(struct options *o)
{
	set_ok(o, "max-clients", "1");
	cr_assert_eq(o->max_clients, 1);
	set_ok(o, "max-clients", "100000");
	cr_assert_eq(o->max_clients, 100000);
	set_bad(o, "max-clients", "0", "'0' is not a number from 1 to 100000");
	set_bad(o, "max-clients", "100001",
	    "'100001' is not a number from 1 to 100000");
	set_ok(o, "max-handshakes", "1");
	cr_assert_eq(o->max_handshakes, 1);
	set_bad(
	    o, "max-handshakes", "0", "'0' is not a number from 1 to 100000");

	set_ok(o, "max-subscriptions", "1");
	cr_assert_eq(o->max_subscriptions, 1);
	set_ok(o, "max-subscriptions", "1024");
	cr_assert_eq(o->max_subscriptions, 1024);
	set_bad(
	    o, "max-subscriptions", "0", "'0' is not a number from 1 to 1024");
	set_bad(o, "max-subscriptions", "1025",
	    "'1025' is not a number from 1 to 1024");
}

/* The loader's limits in o: time, memory, what a model may declare. */
static void
expect_loader_limits(struct options *o)
{
	cr_assert_eq(o->load_timeout, 60);
	cr_assert_eq(o->load_memory, 4096);
	cr_assert_eq(o->model_max_keys, 1000);
	set_ok(o, "load-timeout", "0.5");
	cr_assert_eq(o->load_timeout, 0.5);
	set_bad(
	    o, "load-timeout", "0", "'0' is not a number from 0.1 to 86400");
	set_ok(o, "load-memory", "64");
	cr_assert_eq(o->load_memory, 64);
	set_bad(
	    o, "load-memory", "63", "'63' is not a number from 64 to 1048576");
	set_ok(o, "model-max-keys", "0");
	cr_assert_eq(o->model_max_keys, 0);
	set_bad(o, "model-max-keys", "1.5", "'1.5' is not a whole number");
	set_ok(o, "model-max-bodies", "2");
	cr_assert_eq(o->model_max_bodies, 2);
	set_ok(o, "model-max-hfield", "3000000000");
	cr_assert_eq(o->model_max_hfield, 3000000000L);
	set_ok(o, "model-max-texture", "5");
	cr_assert_eq(o->model_max_texture, 5);
	set_ok(o, "model-max-mesh-vertices", "7");
	cr_assert_eq(o->model_max_mesh_vertices, 7);
}

Test(options, numbers_and_their_ranges)
{
	struct options o;

	build_ok(&o, "none", NULL);
	expect_speed_range(&o);

	set_ok(&o, "api-rate", "0");
	cr_assert_eq(o.api_rate, 0.0);
	set_ok(&o, "api-rate", "1e6");
	set_bad(&o, "api-rate", "-1", "'-1' is not a number from 0 to 1000000");

	set_ok(&o, "perturb-timeout", "10");
	cr_assert_float_eq(o.perturb_timeout, 0.01, 1e-12);
	set_ok(&o, "perturb-timeout", "60000");
	cr_assert_eq(o.perturb_timeout, 60.0);
	set_bad(&o, "perturb-timeout", "9.99",
	    "'9.99' is not a number from 10 to 60000");
	set_bad(&o, "perturb-timeout", "60001",
	    "'60001' is not a number from 10 to 60000");

	expect_session_limits(&o);

	expect_loader_limits(&o);

	set_ok(&o, "verbose", "3");
	cr_assert_eq(o.verbosity, 3);
	set_ok(&o, "verbose", "0");
	cr_assert_eq(o.verbosity, 0);
	set_bad(&o, "verbose", "4", "'4' is not a number from 0 to 3");
	set_bad(&o, "verbose", "-1", "'-1' is not a number from 0 to 3");
	options_free(&o);
}

Test(options, sizes_and_their_ranges)
{
	struct options o;

	build_ok(&o, "none", NULL);
	set_ok(&o, "max-frame", "1024");
	cr_assert_eq(o.max_frame, 1024);
	set_ok(&o, "max-frame", "4294967295");
	cr_assert_eq(o.max_frame, 4294967295u, "the largest a header holds");
	set_bad(&o, "max-frame", "1023",
	    "'1023' is not a number from 1024 to 4294967295");
	set_bad(&o, "max-frame", "4294967296",
	    "'4294967296' is not a number from 1024 to 4294967295");

	set_ok(&o, "max-queued", "65536");
	cr_assert_eq(o.max_queued, 65536);
	set_ok(&o, "max-queued", "1e12");
	cr_assert_eq(o.max_queued, 1000000000000u);
	set_bad(&o, "max-queued", "65535",
	    "'65535' is not a number from 65536 to 9.22337203685478e+18");
	cr_assert_eq(o.max_queued, 1000000000000u);

	cr_assert_eq(o.record_quota, 4ull << 30, "the default quota");
	set_ok(&o, "record-quota", "65536");
	cr_assert_eq(o.record_quota, 65536);
	set_ok(&o, "record-quota", "512M");
	cr_assert_eq(o.record_quota, 512ull << 20);
	set_ok(&o, "record-quota", "1.5g");
	cr_assert_eq(o.record_quota, 3ull << 29);
	set_ok(&o, "record-quota", "2T");
	cr_assert_eq(o.record_quota, 2ull << 40);
	set_ok(&o, "record-quota", "0");
	cr_assert_eq(o.record_quota, 0, "0: no quota");
	set_bad(&o, "record-quota", "65535",
	    "'65535' is not a size from 64K to 4194304T (bytes, or with K, "
	    "M, G or T), or 0 for none");
	set_bad(&o, "record-quota", "12Q",
	    "'12Q' is not a size from 64K to 4194304T (bytes, or with K, "
	    "M, G or T), or 0 for none");
	set_bad(&o, "record-quota", "-1G",
	    "'-1G' is not a size from 64K to 4194304T (bytes, or with K, "
	    "M, G or T), or 0 for none");
	cr_assert_eq(o.record_quota, 0);
	options_free(&o);
}

Test(options, speed_max_and_back)
{
	struct options o;

	build_ok(&o, "none", NULL);
	set_ok(&o, "speed", "3");
	set_ok(&o, "speed", "max");
	cr_assert_eq(o.speed_max, 1);
	cr_assert_eq(o.speed, 3.0, "the factor is kept for later");
	set_ok(&o, "speed", "0.25");
	cr_assert_eq(o.speed_max, 0);
	cr_assert_eq(o.speed, 0.25);
	set_bad(
	    &o, "speed", "MAX", "'MAX' is not a number from 1e-06 to 1000000");
	options_free(&o);
}

Test(options, booleans)
{
	static const char *const yes[] = { "yes", "true", "on", "1", "YES",
		"True", "On" };
	static const char *const no[] = { "no", "false", "off", "0", "NO",
		"False", "oFF" };
	static const char *const keys[] = { "paused", "legacy", "no-model" };
	struct options o;
	size_t i, k;
	int *field[] = { &o.paused, &o.legacy, &o.no_model };

	build_ok(&o, "none", NULL);
	for (k = 0; k < 3; k++) {
		for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
			*field[k] = 0;
			set_ok(&o, keys[k], yes[i]);
			cr_assert_eq(*field[k], 1, "%s = %s", keys[k], yes[i]);
			set_ok(&o, keys[k], no[i]);
			cr_assert_eq(*field[k], 0, "%s = %s", keys[k], no[i]);
		}
		set_bad(&o, keys[k], "2", "'2' is not yes or no");
		set_bad(&o, keys[k], "y", "'y' is not yes or no");
		set_bad(&o, keys[k], "yess", "'yess' is not yes or no");
	}
	options_free(&o);
}

Test(options, quiet_and_verbose)
{
	struct options o;

	build_ok(&o, "none", NULL);
	set_ok(&o, "quiet", "yes");
	cr_assert_eq(o.verbosity, -1);
	set_ok(&o, "quiet", "no");
	cr_assert_eq(o.verbosity, 0, "no longer quiet");
	set_ok(&o, "verbose", "2");
	set_ok(&o, "quiet", "no");
	cr_assert_eq(o.verbosity, 2, "quiet = no keeps verbose");
	set_bad(&o, "quiet", "maybe", "'maybe' is not yes or no");
	options_free(&o);
}

Test(options, lease_loss)
{
	static const struct {
		const char *name;
		int loss;
	} cases[] = { { "keep", LEASE_LOSS_KEEP }, { "hold", LEASE_LOSS_HOLD },
		{ "zero", LEASE_LOSS_ZERO }, { "pause", LEASE_LOSS_PAUSE } };
	struct options o;
	size_t i;

	build_ok(&o, "none", NULL);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		set_ok(&o, "lease-loss", cases[i].name);
		cr_assert_eq(o.lease_loss, cases[i].loss, "%s", cases[i].name);
	}
	set_ok(&o, "lease-loss", "zero");
	set_bad(&o, "lease-loss", "Pause",
	    "'Pause' is not pause, keep, hold or zero");
	set_bad(&o, "lease-loss", "stop",
	    "'stop' is not pause, keep, hold or zero");
	cr_assert_eq(o.lease_loss, LEASE_LOSS_ZERO);
	options_free(&o);
}

Test(options, listeners)
{
	struct options o;
	char path[200], want[300];

	build_ok(&o, "none", NULL);
	set_ok(&o, "unix", "none");
	cr_assert_null(o.unix_path);
	cr_assert_eq(o.unix_set, 1);
	memset(path, 'a', 107);
	path[0] = '/';
	path[107] = '\0';
	set_ok(&o, "unix", path);
	cr_assert_str_eq(o.unix_path, path, "107 bytes fit sun_path");
	path[107] = 'a';
	path[108] = '\0';
	snprintf(want, sizeof(want),
	    "'%s' is not a Unix socket path (1 to 107 bytes)", path);
	set_bad(&o, "unix", path, want);
	set_bad(
	    &o, "unix", "", "'' is not a Unix socket path (1 to 107 bytes)");

	set_ok(&o, "tcp", "6000");
	cr_assert_str_eq(o.tcp, "6000", "kept as written");
	cr_assert_eq(o.tcp_set, 1);
	set_ok(&o, "tcp", "[::1]:6001");
	cr_assert_str_eq(o.tcp, "[::1]:6001");
	set_ok(&o, "tcp", "none");
	cr_assert_null(o.tcp);
	set_bad(&o, "tcp", "host:", "bad port '' in host:");
	set_bad(&o, "tcp", "host:70000", "bad port '70000' in host:70000");
	set_bad(&o, "tcp", "[::1", "missing ']' in [::1");
	cr_assert_null(o.tcp, "a refused address changes nothing");

	set_ok(&o, "token-file", "/etc/haptixd/token");
	cr_assert_str_eq(o.token_file, "/etc/haptixd/token");
	set_ok(&o, "token-file", "none");
	cr_assert_null(o.token_file);
	options_free(&o);
}

Test(options, model_and_no_model)
{
	struct options o;

	build_ok(&o, "none", NULL);
	set_ok(&o, "model", "arm.xml");
	set_ok(&o, "no-model", "yes");
	cr_assert_null(o.model, "no-model forgets the model");
	cr_assert_eq(o.no_model, 1);
	set_ok(&o, "model", "hand.xml");
	cr_assert_str_eq(o.model, "hand.xml");
	cr_assert_eq(o.no_model, 0, "a model undoes no-model");
	set_ok(&o, "no-model", "no");
	cr_assert_str_eq(o.model, "hand.xml", "no-model = no keeps it");
	options_free(&o);
}

Test(options, names)
{
	struct options o;
	char err[600] = "";

	build_ok(&o, "none", NULL);
	cr_assert_eq(options_set(&o, "bogus", "1", err, sizeof(err)),
	    OPTIONS_SET_UNKNOWN);
	cr_assert_eq(options_set(&o, "Speed", "1", err, sizeof(err)),
	    OPTIONS_SET_UNKNOWN, "names are case-sensitive");
	cr_assert_eq(options_set(&o, "s", "1", err, sizeof(err)),
	    OPTIONS_SET_UNKNOWN, "short options are not names");
	cr_assert_eq(options_set(&o, "config", "x", err, sizeof(err)),
	    OPTIONS_SET_UNKNOWN, "the file cannot name another file");
	cr_assert_eq(options_repeatable("model-dir"), 1);
	cr_assert_eq(options_repeatable("model"), 0);
	cr_assert_eq(options_repeatable("verbose"), 0);
	cr_assert_eq(options_repeatable("bogus"), 0);
	options_free(&o);
}

Test(options, model_dirs_repeat_up_to_the_limit)
{
	struct options o;
	char dir[32];
	int i;

	build_ok(&o, "none", NULL);
	for (i = 0; i < OPTIONS_MAX_MODEL_DIRS; i++) {
		snprintf(dir, sizeof(dir), "/m%d", i);
		set_ok(&o, "model-dir", dir);
	}
	cr_assert_eq(o.nmodel_dirs, OPTIONS_MAX_MODEL_DIRS);
	cr_assert_str_eq(
	    o.model_dirs[0], "/m0", "in one layer, each adds to the last");
	cr_assert_str_eq(o.model_dirs[OPTIONS_MAX_MODEL_DIRS - 1], "/m15");
	set_bad(&o, "model-dir", "/one-more", "at most 16 model directories");
	cr_assert_eq(o.nmodel_dirs, OPTIONS_MAX_MODEL_DIRS);
	options_free(&o);
}

Test(options, file_comments_blanks_and_spacing)
{
	struct options o;
	const char *path = conf_write("spacing.conf",
	    "# a comment\n"
	    "\n"
	    "   \t\n"
	    "   # an indented comment = with an equals sign\n"
	    "\tspeed\t=\t2.5  \n"
	    "state-dir = /var/lib/a dir # with a hash = and equals\r\n"
	    "max-clients=9\r\n"
	    "paused = yes"); /* no newline at the end */

	build_ok(&o, path, NULL);
	cr_assert_eq(o.speed, 2.5);
	cr_assert_str_eq(o.state_dir,
	    "/var/lib/a dir # with a hash = and equals",
	    "the value is the rest of the line");
	cr_assert_eq(o.max_clients, 9);
	cr_assert_eq(o.paused, 1);
	options_free(&o);
}

Test(options, empty_file)
{
	struct options o;
	const char *path = conf_write("empty.conf", "");

	build_ok(&o, path, NULL);
	cr_assert_str_eq(o.config, path, "an empty file was still read");
	cr_assert_eq(o.speed, 1.0);
	options_free(&o);
}

Test(options, file_errors_name_the_line)
{
	file_fails("speed = 2\n\n# x\nbogus = 1\n",
	    "4: unknown setting 'bogus' (the names are haptixd's long options, "
	    "see haptixd --help)");
	file_fails("# x\nspeed = 0\n",
	    "2: speed: '0' is not a number from 1e-06 to 1000000");
	file_fails("\nspeed = 2 # fast\n",
	    "2: speed: '2 # fast' is not a number from 1e-06 to 1000000");
	file_fails("paused = yes\nspeed = 2\n\nspeed = 3\n",
	    "4: speed is set twice (first on line 2)");
	file_fails("paused\n", "1: expected \"name = value\", not 'paused'");
	file_fails("\n = 3\n", "2: a setting has no name");
	file_fails("speed =  \t\n", "1: speed has no value");
	file_fails("lease-loss = never\n",
	    "1: lease-loss: 'never' is not pause, keep, hold or zero");
	file_fails("tcp = host:0x\n", "1: tcp: bad port '0x' in host:0x");
	file_fails("max-frame = 512\n",
	    "1: max-frame: '512' is not a number from 1024 to 4294967295");
}

Test(options, repeatable_settings_in_the_file)
{
	struct options o;
	const char *path = conf_write("dirs.conf",
	    "model-dir = /a\n"
	    "speed = 2\n"
	    "model-dir = /b\n"
	    "model-dir = /c\n");

	build_ok(&o, path, NULL);
	cr_assert_eq(o.nmodel_dirs, 3);
	cr_assert_str_eq(o.model_dirs[0], "/a");
	cr_assert_str_eq(o.model_dirs[1], "/b");
	cr_assert_str_eq(o.model_dirs[2], "/c");
	options_free(&o);
}

Test(options, long_lines_and_nul_bytes)
{
	struct options_cmdline cl = { 0 };
	struct options o;
	char line[4200], err[4200] = "", want[300];
	size_t n;

	/* 4096 bytes with the newline is the longest line. */
	n = (size_t)snprintf(line, sizeof(line), "state-dir = /");
	memset(line + n, 'd', 4095 - n);
	line[4095] = '\n';
	line[4096] = '\0';
	build_ok(&o, conf_write("long.conf", line), NULL);
	cr_assert_eq(strlen(o.state_dir), 4095 - 12);
	options_free(&o);

	line[4095] = 'd';
	line[4096] = '\n';
	line[4097] = '\0';
	file_fails(line, "1: line longer than 4096 bytes");

	cl.config = hx_scratch("nul.conf");
	hx_write_file(cl.config, "speed = 2\nspeed\0 = 3\n", 21);
	cr_assert_eq(options_build(&o, &cl, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s:2: a NUL byte", cl.config);
	cr_assert_str_eq(err, want);
}

/* A target that takes nothing: only whether the file is read counts. */
static int
set_nothing(
    void *arg, const char *name, const char *value, char *why, size_t len)
{
	return CONFFILE_UNKNOWN;
}

static int
never_repeatable(const char *name)
{
	return 0;
}

static const struct conffile_target nobody = { set_nothing, never_repeatable,
	NULL };

Test(options, missing_and_unreadable_files)
{
	struct options_cmdline cl = { 0 };
	struct options o;
	char err[4200] = "", want[300];

	cl.config = hx_scratch("missing.conf");
	cr_assert_eq(options_build(&o, &cl, err, sizeof(err)), -1,
	    "a file named on the command line must exist");
	snprintf(
	    want, sizeof(want), "%s: No such file or directory", cl.config);
	cr_assert_str_eq(err, want);

	cr_assert_eq(conffile_read(hx_scratch("missing.conf"), 0, &nobody, err,
			 sizeof(err)),
	    0, "the default file may be missing");

	cl.config = hx_scratch("");
	cr_assert_eq(options_build(&o, &cl, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s:1: Is a directory", cl.config);
	cr_assert_str_eq(err, want);
}

Test(options, default_file_may_be_missing)
{
	struct options_cmdline cl = { 0 };
	struct options o;
	char err[4200] = "";

	if (access(HXD_CONFIG, F_OK) == 0)
		cr_skip_test("%s exists here", HXD_CONFIG);
	cr_assert_eq(options_build(&o, &cl, err, sizeof(err)), 0, "%s", err);
	cr_assert_null(o.config, "no file was read");
	cr_assert_eq(o.max_clients, 64);
	options_free(&o);
}

Test(options, command_line_forms)
{
	const char *const argv[] = { "haptixd", "-m", "arm.xml", "--legacy",
		"-M", "/a", "--model-dir=/b", "-u", "none", "-t", "6000",
		"--token-file", "/t", "--state-dir", "/s", "-s", "max", "-p",
		"--api-rate", "30", "--lease-loss", "keep", "--perturb-timeout",
		"500", "--max-clients", "5", "--max-frame", "4096",
		"--max-queued", "70000", "--max-subscriptions", "2", "-vv",
		"--config", "none", NULL };
	struct options_cmdline cl;
	struct options o;
	char err[4200] = "";

	cr_assert_eq(cmdline(&cl, argv), 0);
	cr_assert_str_eq(cl.config, "none");
	cr_assert_eq(cl.check, 0);
	cr_assert_eq(options_build(&o, &cl, err, sizeof(err)), 0, "%s", err);
	cr_assert_str_eq(o.model, "arm.xml");
	cr_assert_eq(o.legacy, 1);
	cr_assert_eq(o.nmodel_dirs, 2);
	cr_assert_str_eq(o.model_dirs[0], "/a");
	cr_assert_str_eq(o.model_dirs[1], "/b");
	cr_assert_null(o.unix_path);
	cr_assert_str_eq(o.tcp, "6000");
	cr_assert_str_eq(o.token_file, "/t");
	cr_assert_str_eq(o.state_dir, "/s");
	cr_assert_eq(o.speed_max, 1);
	cr_assert_eq(o.paused, 1);
	cr_assert_eq(o.api_rate, 30.0);
	cr_assert_eq(o.lease_loss, LEASE_LOSS_KEEP);
	cr_assert_eq(o.perturb_timeout, 0.5);
	cr_assert_eq(o.max_clients, 5);
	cr_assert_eq(o.max_frame, 4096);
	cr_assert_eq(o.max_queued, 70000);
	cr_assert_eq(o.max_subscriptions, 2);
	cr_assert_eq(o.verbosity, 2, "each -v counts");
	options_free(&o);
}

Test(options, command_line_verbosity)
{
	const char *const four[] = { "haptixd", "-vvv", "--verbose", "-c",
		"none", NULL };
	const char *const quiet[] = { "haptixd", "-v", "-q", "-c", "none",
		NULL };
	const char *const loud[] = { "haptixd", "-q", "-v", "-c", "none",
		NULL };
	const char *const check[] = { "haptixd", "--check", NULL };
	struct options_cmdline cl;
	struct options o;

	build_ok(&o, "none", four);
	cr_assert_eq(o.verbosity, 3, "at most three");
	options_free(&o);
	build_ok(&o, "none", quiet);
	cr_assert_eq(o.verbosity, -1, "the last wins");
	options_free(&o);
	build_ok(&o, "none", loud);
	cr_assert_eq(o.verbosity, 1, "the last wins");
	options_free(&o);
	cr_assert_eq(cmdline(&cl, check), 0);
	cr_assert_eq(cl.check, 1);
	cr_assert_null(cl.config, "the default file");
}

Test(options, command_line_errors)
{
	const char *const unknown[] = { "haptixd", "--bogus", NULL };
	const char *const missing[] = { "haptixd", "--speed", NULL };
	const char *const extra[] = { "haptixd", "-p", "scene.xml", NULL };
	const char *const conflict[] = { "haptixd", "--no-model", "-m", "a.xml",
		NULL };
	const char *const badvalue[] = { "haptixd", "--max-clients", "0",
		NULL };
	const char *const badflag[] = { "haptixd", "--paused=yes", NULL };
	const char *const help[] = { "haptixd", "--help", NULL };
	const char *const version[] = { "haptixd", "-V", NULL };
	const char *many[OPTIONS_MAX_ARGS + 3];
	struct options_cmdline cl;
	int i;

	cr_redirect_stdout();
	cr_redirect_stderr();
	cr_assert_eq(cmdline(&cl, unknown), -1);
	cr_assert_eq(cmdline(&cl, missing), -1);
	cr_assert_eq(cmdline(&cl, extra), -1);
	cr_assert_eq(cmdline(&cl, conflict), -1);
	cr_assert_eq(cmdline(&cl, badvalue), -1, "values are checked at once");
	cr_assert_eq(cmdline(&cl, badflag), -1, "a flag takes no value");
	cr_assert_eq(cmdline(&cl, help), 1);
	cr_assert_eq(cmdline(&cl, version), 1);
	many[0] = "haptixd";
	for (i = 1; i <= OPTIONS_MAX_ARGS; i++)
		many[i] = "-p";
	many[i] = NULL;
	cr_assert_eq(
	    cmdline(&cl, many), 0, "%d arguments fit", OPTIONS_MAX_ARGS);
	cr_assert_eq(cl.nargs, OPTIONS_MAX_ARGS);
	many[i++] = "-p";
	many[i] = NULL;
	cr_assert_eq(cmdline(&cl, many), -1, "one more does not");
}

/* A value that went bad after parsing is named by its option. */
Test(options, bad_command_line_value_at_build)
{
	const char *const argv[] = { "haptixd", "--speed", "2", NULL };
	struct options_cmdline cl;
	struct options o;
	char err[4200] = "";

	cr_assert_eq(cmdline(&cl, argv), 0);
	cl.config = "none";
	cl.args[0].value = "0";
	cr_assert_eq(options_build(&o, &cl, err, sizeof(err)), -1);
	cr_assert_str_eq(
	    err, "--speed: '0' is not a number from 1e-06 to 1000000");
	cr_assert_null(o.tcp, "nothing held after a failure");
}

Test(options, command_line_wins_over_the_file)
{
	const char *const argv[] = { "haptixd", "--speed", "3", "-q", "-M",
		"/cmd", "--lease-loss", "zero", NULL };
	struct options o;
	const char *path = conf_write("base.conf",
	    "speed = 2\n"
	    "paused = yes\n"
	    "model = file.xml\n"
	    "lease-loss = hold\n"
	    "verbose = 2\n"
	    "model-dir = /file1\n"
	    "model-dir = /file2\n"
	    "max-clients = 8\n");

	build_ok(&o, path, argv);
	cr_assert_eq(o.speed, 3.0);
	cr_assert_eq(o.verbosity, -1);
	cr_assert_eq(o.lease_loss, LEASE_LOSS_ZERO);
	cr_assert_eq(
	    o.nmodel_dirs, 1, "the command line's dirs replace the file's");
	cr_assert_str_eq(o.model_dirs[0], "/cmd");
	cr_assert_eq(
	    o.paused, 1, "what the command line leaves, the file sets");
	cr_assert_str_eq(o.model, "file.xml");
	cr_assert_eq(o.max_clients, 8);
	options_free(&o);
}

Test(options, command_line_model_over_file_no_model)
{
	const char *const model[] = { "haptixd", "-m", "cmd.xml", NULL };
	const char *const none[] = { "haptixd", "--no-model", NULL };
	struct options o;
	const char *no = conf_write("no.conf", "no-model = yes\n");
	const char *yes = conf_write("yes.conf", "model = file.xml\n");

	build_ok(&o, no, model);
	cr_assert_str_eq(o.model, "cmd.xml");
	cr_assert_eq(o.no_model, 0);
	options_free(&o);
	build_ok(&o, yes, none);
	cr_assert_null(o.model);
	cr_assert_eq(o.no_model, 1);
	options_free(&o);
}

Test(options, reload_reads_the_file_afresh)
{
	const char *const argv[] = { "haptixd", "--max-clients", "5", NULL };
	struct options_cmdline cl;
	struct options first, again;
	char err[4200] = "", want[300];
	const char *path = conf_write("reload.conf",
	    "max-clients = 9\n"
	    "speed = 2\n"
	    "model-dir = /old\n");

	cr_assert_eq(cmdline(&cl, argv), 0);
	cl.config = path;
	cr_assert_eq(
	    options_build(&first, &cl, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(first.max_clients, 5);
	cr_assert_eq(first.speed, 2.0);

	/* SIGHUP: the file changed, the command line is kept. */
	conf_write("reload.conf",
	    "max-clients = 11\n"
	    "paused = yes\n"
	    "model-dir = /new\n");
	cr_assert_eq(
	    options_build(&again, &cl, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(again.max_clients, 5, "the command line still wins");
	cr_assert_eq(again.speed, 1.0, "a setting gone from the file is reset");
	cr_assert_eq(again.paused, 1);
	cr_assert_eq(again.nmodel_dirs, 1);
	cr_assert_str_eq(again.model_dirs[0], "/new");
	cr_assert_eq(first.speed, 2.0, "the running settings are untouched");
	cr_assert_str_eq(first.model_dirs[0], "/old");
	options_free(&first);
	options_free(&again);

	/* The same struct again, after it was freed. */
	cr_assert_eq(
	    options_build(&again, &cl, err, sizeof(err)), 0, "%s", err);
	cr_assert_str_eq(again.model_dirs[0], "/new");
	options_free(&again);

	/* A bad file: the reload fails with the line, and holds nothing. */
	conf_write("reload.conf", "max-clients = 11\nspeed = fast\n");
	cr_assert_eq(options_build(&again, &cl, err, sizeof(err)), -1);
	snprintf(want, sizeof(want),
	    "%s:2: speed: 'fast' is not a number from 1e-06 to 1000000", path);
	cr_assert_str_eq(err, want);
	cr_assert_null(again.config);
	cr_assert_null(again.tcp);
	cr_assert_eq(again.nmodel_dirs, 0);
}

/* The length of the name in "# name = value", a setting commented out, or 0. */
static size_t
example_setting(const char *line)
{
	size_t n;

	if (line[0] != '#' || line[1] != ' ')
		return 0;
	n = strspn(line + 2, "abcdefghijklmnopqrstuvwxyz-");
	return n > 0 && strncmp(line + 2 + n, " = ", 3) == 0 ? n : 0;
}

/*
 * The example settings file: as shipped, all commented out, it parses and
 * changes nothing; with every "# name = value" uncommented it names each
 * setting once and still parses, and what it calls defaults are the
 * defaults.
 */
Test(options, example_settings_file)
{
	static const char *const names[] = { "model", "no-model", "legacy",
		"model-dir", "user-model-dirs", "unix", "tcp", "token-file",
		"tls-cert", "tls-key", "tls-client-ca", "allow-cleartext-token",
		"no-shm", "state-dir", "record-quota", "history",
		"history-memory", "speed", "paused", "api-rate", "lease-loss",
		"perturb-timeout", "max-clients", "max-handshakes", "max-frame",
		"max-queued", "max-subscriptions", "load-timeout",
		"load-memory", "model-max-bodies", "model-max-keys",
		"model-max-hfield", "model-max-texture",
		"model-max-mesh-vertices", "verbose", "quiet" };
	const size_t nnames = sizeof(names) / sizeof(names[0]);
	int seen[sizeof(names) / sizeof(names[0])] = { 0 };
	struct options defaults, o;
	char *text, *line, *next, *out, *p;
	const char *path;
	size_t len, i, n;

	build_ok(&defaults, "none", NULL);
	build_ok(&o, HX_CONF_EXAMPLE, NULL);
	cr_assert_str_eq(o.config, HX_CONF_EXAMPLE);
	cr_assert_null(o.model);
	cr_assert_eq(o.max_clients, defaults.max_clients);
	cr_assert_str_eq(o.tcp, defaults.tcp);
	options_free(&o);

	text = (char *)hx_read_file(HX_CONF_EXAMPLE, &len);
	cr_assert_not_null(out = malloc(len + 1));
	p = out;
	for (line = text; *line != '\0'; line = next) {
		next = strchr(line, '\n');
		next = next != NULL ? next + 1 : line + strlen(line);
		if ((n = example_setting(line)) > 0) {
			for (i = 0; i < nnames; i++) {
				if (strlen(names[i]) == n &&
				    strncmp(line + 2, names[i], n) == 0)
					break;
			}
			cr_assert_lt(i, nnames, "an unknown name: %.*s",
			    (int)(next - line), line);
			seen[i]++;
			line += 2;
		}
		memcpy(p, line, (size_t)(next - line));
		p += next - line;
	}
	*p = '\0';
	for (i = 0; i < nnames; i++)
		cr_assert_eq(seen[i], 1, "%s: %d lines", names[i], seen[i]);
	path = conf_write("example.conf", out);
	build_ok(&o, path, NULL);
	cr_assert_str_eq(o.model, OPTIONS_DEFAULT_MODEL);
	cr_assert_str_eq(o.unix_path, "/run/haptixd/haptixd.sock");
	cr_assert_str_eq(o.tcp, defaults.tcp);
	cr_assert_eq(o.speed, defaults.speed);
	cr_assert_eq(o.paused, defaults.paused);
	cr_assert_eq(o.no_model, defaults.no_model);
	cr_assert_eq(o.legacy, defaults.legacy);
	cr_assert_eq(o.user_model_dirs, defaults.user_model_dirs);
	cr_assert_eq(o.lease_loss, defaults.lease_loss);
	cr_assert_eq(o.perturb_timeout, defaults.perturb_timeout);
	cr_assert_eq(o.max_clients, defaults.max_clients);
	cr_assert_eq(o.max_handshakes, defaults.max_handshakes);
	cr_assert_eq(o.max_frame, defaults.max_frame);
	cr_assert_eq(o.max_queued, defaults.max_queued);
	cr_assert_eq(o.max_subscriptions, defaults.max_subscriptions);
	cr_assert_eq(o.verbosity, defaults.verbosity);
	cr_assert_eq(o.api_rate, 50.0, "an example, not the default");
	options_free(&o);
	options_free(&defaults);
	free(out);
	free(text);
}
