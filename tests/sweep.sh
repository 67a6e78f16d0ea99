#!/bin/sh
# hxsweep's tests (tests/sweep) through the hxsweep of the build tree and
# the real haptixd daemons it starts; see pytest.sh.  Run by make check.
exec "$(dirname "$0")/pytest.sh" sweep.sh tests/sweep HXSWEEP
