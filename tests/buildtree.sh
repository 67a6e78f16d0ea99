#!/bin/sh
# The build tree works as an install does.  In a directory outside the
# clone, after the README's eval "$(./quickstart env)" and nothing else:
# haptixd alone starts on the bundled scene (its model directory is the
# source tree's models/), hxsweep runs a trial of a model named as the
# model directories know it, and the README's first C program builds
# with its pkg-config line against build/ and runs from there.  Each
# failed before: "model mpl_scene.xml not found (model directories:
# (none))", and no haptix.pc for pkg-config.  Run by make check.

. "$(dirname "$0")/common.sh" || exit 99
require_env buildtree.sh "make check" HAPTIXD HX_MODELS HX_CC
top=$(cd "$HX_MODELS/.." && pwd) || exit 99
builddir=$(cd "$(dirname "$HAPTIXD")/.." && pwd) || exit 99

scratch buildtree

# A clone, and a new user's shell in a directory outside it (common.sh).
clone=$tmp/clone
new_user_shell "$top" "$builddir" "$tmp"
unset HAPTIXD
mkdir -p "$tmp/elsewhere" || exit 99
eval "$("$clone/quickstart" env)" || exit 99
cd "$tmp/elsewhere" || exit 99

status=0
fail()
{
	echo "FAIL: $*" >&2
	status=1
}

# haptixd with no -M and no -m: the default scene from the default model
# directory (TCP off: its fixed port is shared here).
haptixd --config none --tcp none 2>"$tmp/haptixd.log" &
daemon=$!
if ! daemon_ready "$tmp/haptixd.log"; then
	fail "haptixd from the build tree did not start on the bundled scene"
	exit 1
fi
grep -q "from $top/models/mpl_scene.xml" "$tmp/haptixd.log" ||
    fail "haptixd did not load $top/models/mpl_scene.xml"
echo "haptixd from the build tree: $(grep 'ready (' "$tmp/haptixd.log")"

# The README's first C program, built with its pkg-config line (the
# configured compiler: a sanitizer build's needs its flags) and run.
awk '/^```c$/ { on = 1; next } /^```$/ && on { exit } on' "$top/README.md" \
    >prog.c
if ! grep -q 'hx_connect' prog.c; then
	fail "no C program in README.md"
elif ! $HX_CC prog.c $(pkg-config --cflags --libs haptix) -o prog; then
	fail "cc prog.c \$(pkg-config --cflags --libs haptix) failed"
elif ! ./prog; then
	fail "./prog, built against build/, failed (status $?)"
else
	echo "README's C program: built with pkg-config and run from build/"
fi
kill "$daemon" && wait "$daemon"
daemon=

# hxsweep: one trial of the bundled scene named as the model directories
# know it, on a daemon hxsweep starts with no -M.
cat >one.toml <<'EOF'
model = "mpl_scene.xml"
[trial]
steps = 10
record = ["qpos"]
EOF
if hxsweep run one.toml --jobs 1 -q >"$tmp/sweep.log" 2>&1 &&
    grep -q ',ok,' one.out/results.csv; then
	echo "hxsweep: mpl_scene.xml found in the model directory"
else
	cat "$tmp/sweep.log" >&2
	fail "hxsweep could not run a trial of mpl_scene.xml"
fi
exit $status
