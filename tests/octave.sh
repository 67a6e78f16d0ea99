#!/bin/sh
# The MATLAB API (clients/matlab/, docs/matlab.md) in GNU Octave:
# octave-cli runs tests/octave/haptix_tests.m with the build tree's
# clients/matlab/ on its path (the MEX file mjhx and the wrappers, laid
# out as installed) against two real haptixd: A on the MPL scene, B for
# the test that stops and kills it; then a second octave-cli runs
# tests/octave/gazebo_tests.m with clients/matlab/gazebo/ alone on its
# path (hxgz and Gazebo HAPTIX's wrappers) against a third, G, on
# models/test/gazebo_world.xml.  A missing octave-cli, or a MEX file
# not built (configure found no mkoctfile), fails the test with the
# packages to install; it does not skip.  Run by make check.
. "$(dirname "$0")/common.sh" || exit 99
require_env octave.sh "make check" HAPTIXD HXCTL HXPLAY HX_MODELS HX_TEST_MODELS \
    HX_BUILD HX_SRC
octave=${OCTAVE_CLI:-octave-cli}
if ! command -v "$octave" >/dev/null 2>&1; then
	echo "octave.sh: no $octave: install the Debian packages octave and" \
	    "liboctave-dev (./quickstart check does), then run configure" \
	    "again" >&2
	exit 1
fi
mexdir=$HX_BUILD/clients/matlab
if [ ! -f "$mexdir/mjhx.mex" ]; then
	echo "octave.sh: $mexdir/mjhx.mex was not built: configure found no" \
	    "mkoctfile; install liboctave-dev (./quickstart check does) and" \
	    "run configure again" >&2
	exit 1
fi
gzdir=$mexdir/gazebo
if [ ! -f "$gzdir/hxgz.mex" ]; then
	echo "octave.sh: $gzdir/hxgz.mex was not built" >&2
	exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/octave.XXXXXX") || exit 99
pids=
cleanup()
{
	for p in $pids; do
		kill -CONT "$p" 2>/dev/null
		kill "$p" 2>/dev/null && wait "$p" 2>/dev/null
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

# Start a haptixd named $1 with the options that follow, on a socket in
# the scratch directory and an ephemeral TCP port, as tests/harness.c
# does; wait for it to be ready.
start()
{
	name=$1
	shift
	"$HAPTIXD" --config none --state-dir "$tmp" --unix "$tmp/$name.sock" \
	    --tcp 127.0.0.1:0 -M "$HX_TEST_MODELS" -M "$HX_MODELS" -v "$@" \
	    2>"$tmp/$name.log" &
	pid=$!
	pids="$pids $pid"
	i=0
	until grep -q 'ready (' "$tmp/$name.log" 2>/dev/null; do
		i=$((i + 1))
		if [ $i -gt 300 ] || ! kill -0 "$pid" 2>/dev/null; then
			echo "octave.sh: haptixd $name did not become ready:" >&2
			cat "$tmp/$name.log" >&2
			exit 99
		fi
		sleep 0.1
	done
}
start a -m mpl_scene.xml
pid_a=$pid
tcp_a=$(sed -n 's/.*listening on tcp:\([^ ]*\).*/\1/p' "$tmp/a.log" | head -n 1)
start b -m fixture.xml
pid_b=$pid
start g -m gazebo_world.xml
pid_g=$pid
tcp_g=$(sed -n 's/.*listening on tcp:\([^ ]*\).*/\1/p' "$tmp/g.log" | head -n 1)
# T serves TLS with the test CA's certificate (tests/hx_test_certs.c).
"$HX_BUILD/tests/hx-test-certs" "$tmp/certs" || exit 99
start t -m fixture.xml --tcp tls:127.0.0.1:0 \
    --tls-cert "$tmp/certs/server.pem" --tls-key "$tmp/certs/server.key"
pid_t=$pid
tls_t=$(sed -n 's/.*listening on \(tls:[^ ]*\).*/\1/p' "$tmp/t.log" | head -n 1)

# Octave's history and settings go to a home of its own.
mkdir -p "$tmp/home"
cd "$tmp" || exit 99
# In a sanitizer build Octave needs the runtime first (common.sh).
(
	sanitized_env "$mexdir/mjhx.mex"
	HOME=$tmp/home timeout 300 "$octave" --no-init-file --no-history \
	    --quiet --eval "addpath('$mexdir', '$HX_SRC/clients/matlab/examples', \
'$HX_SRC/tests/octave'); \
ctx = struct('server', 'unix:$tmp/a.sock', 'tcp', '$tcp_a', \
'tls', '$tls_t', 'certs', '$tmp/certs', \
'lost', 'unix:$tmp/b.sock', 'lost_pid', $pid_b, 'mexdir', '$mexdir', \
'hxctl', '$HXCTL', 'hxplay', '$HXPLAY', 'statedir', '$tmp'); \
exit(haptix_tests(ctx) > 0);"
)
status=$?
if [ $status -ne 0 ]; then
	echo "octave.sh: octave-cli exited with status $status" >&2
	echo "--- haptixd A's log" >&2
	tail -n 30 "$tmp/a.log" >&2
fi
# A must have come through it all, and stop cleanly.
if ! kill "$pid_a" 2>/dev/null || ! wait "$pid_a"; then
	echo "FAIL: haptixd A did not exit cleanly; its log:" >&2
	tail -n 30 "$tmp/a.log" >&2
	status=1
fi

# Gazebo HAPTIX's MATLAB API in an Octave of its own: its hx_*.m have the
# names of the wrappers above, so its directory is alone on the path.
(
	sanitized_env "$gzdir/hxgz.mex"
	HOME=$tmp/home timeout 300 "$octave" --no-init-file --no-history \
	    --quiet --eval "addpath('$gzdir', \
'$HX_SRC/clients/matlab/gazebo/examples', '$HX_SRC/tests/octave'); \
ctx = struct('server', 'unix:$tmp/g.sock', 'tcp', '$tcp_g', \
'hxctl', '$HXCTL', 'gzdir', '$gzdir'); \
exit(gazebo_tests(ctx) > 0);"
)
gz_status=$?
if [ $gz_status -ne 0 ]; then
	echo "octave.sh: octave-cli (gazebo_tests) exited with status" \
	    "$gz_status" >&2
	echo "--- haptixd G's log" >&2
	tail -n 30 "$tmp/g.log" >&2
	status=1
fi
if ! kill "$pid_g" 2>/dev/null || ! wait "$pid_g"; then
	echo "FAIL: haptixd G did not exit cleanly; its log:" >&2
	tail -n 30 "$tmp/g.log" >&2
	status=1
fi
pids="$pid_b $pid_t"
exit $status
