/*
 * Integration tests of hxctl (clients/hxctl.c) against a real haptixd on
 * models/test/fixture.xml, over the Unix socket and TCP: the World API:
 * world-force, camera, collide-mode, colours, sizes and equalities, with
 * --json and their refusals.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pty.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <criterion/criterion.h>

#include "frame.h"
#include "haptix.pb-c.h"
#include "check.h"
#include "harness.h"
#include "haptixd.h"
#include "hxctl_run.h"

TestSuite(hxctl, .timeout = 60, .fini = cleanup);

/* The World API's calls: world-force, camera and collide-mode. */
Test(hxctl, world_forces_camera_and_collide_modes)
{
	struct hx_run r = { 0 };
	const char *a;

	a = start(fixture_args);
	hxctl(&r, a, "world-force", NULL);
	expect_ok(&r);
	cr_assert_str_eq(r.out, "gravity off: none\nwrenches: 0\n");
	hxctl(&r, a, "world-force", "box", "--gravity", "off", "--force",
	    "0,0,1", "--duration", "0.5", NULL);
	expect_ok(&r);
	cr_assert_str_eq(r.out, "gravity off: box\nwrenches: 1\n");
	hxctl_json(&r, a, "world-force", "--clear", NULL);
	cr_assert_not_null(strstr(r.out, "\"name\":\"box\""), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "\"wrenches\":0"), "%s", r.out);
	hxctl(&r, a, "world-force", "box", "--gravity", "on", NULL);
	cr_assert_str_eq(r.out, "gravity off: none\nwrenches: 0\n");
	hxctl(&r, a, "world-force", "box", NULL);
	expect_usage(&r, "nothing to apply");
	hxctl(&r, a, "world-force", "box", "--gravity", "maybe", NULL);
	expect_usage(&r, "on or off");
	hxctl(&r, a, "world-force", "0", "--gravity", "off", NULL);
	expect_fail(&r, "world-force", "mjCOM_BADINDEX", "world body");
	hxctl(&r, a, "world-force", "nobody", "--gravity", "off", NULL);
	expect_fail(&r, "world-force", "mjCOM_BADINDEX", "nobody");

	hxctl_json(&r, a, "camera", NULL);
	cr_assert_not_null(strstr(r.out, "\"default\":true"), "%s", r.out);
	hxctl(&r, a, "camera", "--pos", "1,2,3", "--quat", "0,0,0,2", NULL);
	expect_ok(&r);
	cr_assert_str_eq(r.out, "pos 1 2 3\nquat 0 0 0 1\nset by a client\n");
	hxctl_json(&r, a, "camera", NULL);
	expect_nums(r.out, "pos", (const double[]){ 1, 2, 3 }, 3);
	cr_assert_not_null(strstr(r.out, "\"default\":false"), "%s", r.out);
	hxctl(&r, a, "camera", "--pos", "1,2,3", NULL);
	expect_usage(&r, "both");
	hxctl(&r, a, "camera", "--pos", "1,2,3", "--quat", "0,0,0,0", NULL);
	expect_fail(&r, "camera", "mjCOM_BADVALUE", NULL);

	hxctl(&r, a, "collide-mode", "box", NULL);
	expect_ok(&r);
	cr_assert_str_eq(r.out, "collide\n");
	hxctl(&r, a, "collide-mode", "box", "detect", NULL);
	cr_assert_str_eq(r.out, "detect\n");
	hxctl_json(&r, a, "collide-mode", "box", "none", NULL);
	cr_assert_not_null(strstr(r.out, "\"mode\":\"none\""), "%s", r.out);
	hxctl(&r, a, "collide-mode", "box", "sometimes", NULL);
	expect_usage(&r, "none, detect or collide");
	hxctl(&r, a, "collide-mode", "0", NULL);
	expect_fail(&r, "collide-mode", "mjCOM_BADINDEX", NULL);
	hx_run_free(&r);
}

Test(hxctl, colours_sizes_and_equalities)
{
	struct hx_run r = { 0 };
	const char *a;

	a = start(fixture_args);
	hxctl(&r, a, "rgba", "geom", "box", NULL);
	expect_ok(&r);
	cr_assert_str_eq(r.out, "0.2 0.5 0.9 1\n");
	hxctl(&r, a, "rgba", "geom", "box", "1", "0", "0", "0.5", NULL);
	expect_ok(&r);
	cr_assert_str_empty(r.out);
	hxctl(&r, a, "rgba", "geom", "5", NULL);
	cr_assert_str_eq(r.out, "1 0 0 0.5\n");
	hxctl(&r, a, "rgba", "material", "green", "2", "-1", "0", "1", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "rgba", "material", "green", NULL);
	expect_nums(r.out, "rgba", (const double[]){ 1, 0, 0, 1 }, 4);
	hxctl(&r, a, "rgba", "body", "1", NULL);
	expect_fail(&r, "rgba", "mjCOM_BADTYPE", NULL);
	hxctl(&r, a, "rgba", "geom", "99", NULL);
	expect_fail(&r, "rgba", "mjCOM_BADINDEX", NULL);

	hxctl(&r, a, "geomsize", "box", "0.2", "0.2", "0.2", NULL);
	expect_ok(&r);
	hxctl(&r, a, "geomsize", "tetra", "1", "1", "1", NULL);
	expect_fail(&r, "geomsize", "mjCOM_BADTYPE", "mesh");
	hxctl(&r, a, "geomsize", "box", "0", "1", "1", NULL);
	expect_fail(&r, "geomsize", "mjCOM_BADVALUE", NULL);

	hxctl(&r, a, "equality", "couple", "on", NULL);
	expect_ok(&r);
	hxctl(&r, a, "equality", "0", "off", NULL);
	expect_ok(&r);
	hxctl(&r, a, "equality", "5", "on", NULL);
	expect_fail(&r, "equality", "mjCOM_BADINDEX", NULL);
	hx_run_free(&r);
}
