#!/bin/sh
# Every shell block of README.md, run in order in one bash, as a new user
# pastes them, against a real haptixd started as ./quickstart run starts
# it.  A block runs with set -e: the first command that fails fails the
# test, naming its block.  A block whose first line is
# "# not run by tests/readme.sh: WHY" is skipped, and the skip is said.
# Then what the README promises is checked: the files its commands write,
# and the cube held up by the grasp reflex.  Run by make check.
#
# The blocks run in a directory laid out as a clone (quickstart, and the
# build tree as build/), with HOME, XDG_RUNTIME_DIR (the default socket)
# and XDG_STATE_HOME (the recordings) in it and a plain PATH: the
# README's own eval "$(./quickstart env)" puts the clients on it.

. "$(dirname "$0")/common.sh" || exit 99
require_env readme.sh "make check" HAPTIXD HX_MODELS
top=$(cd "$HX_MODELS/.." && pwd) || exit 99
builddir=$(cd "$(dirname "$HAPTIXD")/.." && pwd) || exit 99
readme=$top/README.md

scratch readme

# A clone, and the environment of a new user's shell (common.sh).
clone=$tmp/clone
new_user_shell "$top" "$builddir" "$tmp"

# In a sanitizer build the README's octave-cli needs AddressSanitizer's
# runtime first (common.sh): a wrapper that loads it comes first on
# the PATH.  A plain build runs Debian's octave-cli as a user does.
if [ -n "$(sanitizer_runtime "$builddir/clients/matlab/mjhx.mex")" ]; then
	mkdir -p "$tmp/sanitized" || exit 99
	{
		echo '#!/bin/sh'
		echo ". '$top/tests/common.sh'"
		echo "sanitized_env '$builddir/clients/matlab/mjhx.mex'"
		echo 'exec /usr/bin/octave-cli "$@"'
	} >"$tmp/sanitized/octave-cli" && chmod +x "$tmp/sanitized/octave-cli" ||
	    exit 99
	PATH=$tmp/sanitized:$PATH
fi

# ./quickstart run, without its build: haptixd -M ../models from build/,
# its own settings file left out, TCP off (the port is shared here).
(cd "$clone/build" &&
    exec "$HAPTIXD" --config none -M "$top/models" --tcp none) \
    2>"$tmp/haptixd.log" &
daemon=$!
if ! daemon_ready "$tmp/haptixd.log"; then
	echo "readme.sh: haptixd did not become ready (its log above)" >&2
	exit 99
fi

# The blocks: indented ones after a blank line, and fenced sh, shell or
# bash ones; each becomes "readme_block LINE" and its lines, or a note.
awk -v skipped="$tmp/skipped" '
function flush(   k) {
	if (n == 0)
		return
	if (body[1] ~ /^# not run by tests\/readme\.sh:/) {
		sub(/^# not run by tests\/readme\.sh: */, "", body[1])
		printf "README.md:%d: skipped: %s\n", start, body[1] >> skipped
	} else {
		printf "readme_block %d\n", start
		for (k = 1; k <= n; k++)
			print body[k]
	}
	n = 0
}
fence != "" {
	if ($0 ~ /^```/) {
		fence = ""
		flush()
	} else if (keep)
		body[++n] = $0
	next
}
/^```/ {
	flush()
	indented = 0
	fence = $0
	keep = ($0 ~ /^```(sh|shell|bash)[ \t]*$/)
	start = NR + 1
	blank = 0
	next
}
indented && /^    / {
	body[++n] = substr($0, 5)
	next
}
indented && /^[ \t]*$/ {
	body[++n] = ""
	next
}
{
	if (indented) {
		indented = 0
		flush()
	}
	if (blank && /^    /) {
		indented = 1
		start = NR
		body[++n] = substr($0, 5)
		next
	}
	blank = ($0 ~ /^[ \t]*$/)
}
END { flush() }
' "$readme" >"$tmp/blocks.sh" || exit 99
if ! grep -q '^readme_block ' "$tmp/blocks.sh"; then
	echo "readme.sh: no shell block found in $readme" >&2
	exit 99
fi
[ -f "$tmp/skipped" ] && cat "$tmp/skipped"

# One bash runs them all; the last lines stop what they left running.
cat >"$tmp/run.sh" <<'EOF'
# Not a new user's: make check's own.
unset HAPTIXD HXCTL HXVIEW HXPLAY HX_MOCAP HX_SPACENAV HX_MODELS \
    HX_TEST_MODELS HX_PROGS HX_EXAMPLES
set -e -o pipefail
readme_at=0
trap 'echo "readme.sh: README.md:$readme_at: failed (status $?): $BASH_COMMAND" >&2' ERR
readme_block()
{
	readme_at=$1
	echo "== README.md:$1" >&2
}
EOF
cat "$tmp/blocks.sh" >>"$tmp/run.sh"
cat >>"$tmp/run.sh" <<'EOF'
readme_at=end
jobs=$(jobs -p)
[ -z "$jobs" ] || kill $jobs 2>/dev/null || true
wait || true
EOF

status=0
fail()
{
	echo "FAIL: $*" >&2
	status=1
}
if ! (cd "$clone" && timeout 900 bash "$tmp/run.sh"); then
	fail "a README block failed (above)"
else
	# What the README says its commands make.
	(cd "$clone" &&
	    grep -q '"qpos"' trajectory.jsonl &&
	    [ -s scene.png ] && [ -s world.png ] && [ -s out.y4m ] && [ -s out/qpos.npy ] &&
	    grep -q '^(100, 50) ' python.txt) ||
	    fail "trajectory.jsonl, scene.png, world.png, out.y4m, out/qpos.npy or" \
		"python.txt is missing or wrong"
	(cd "$clone" && [ "$(grep -c ',ok,1,' gain.out/results.csv)" -eq 6 ] &&
	    [ -s gain.out/npy/sensor.A_index_MCP_pos.max.npy ]) ||
	    fail "hxsweep's gain.out/results.csv does not hold 6 trials ok"
	ls "$tmp/state/haptixd/MPL_table_1.hxr" >/dev/null ||
	    fail "no recording MPL_table_1.hxr in the state directory"
	# The grasp reflex lifted the cube (it rests at 0.79 m) and holds it.
	z=$(PATH=$builddir/clients:$PATH hxctl --json body cube |
	    sed -n 's/.*"pos":\[[^,]*,[^,]*,\([^]]*\)\].*/\1/p')
	echo "cube at z = $z m"
	awk -v z="$z" 'BEGIN { exit !(z > 0.85) }' ||
	    fail "the cube is at z = '$z' m: the grasp did not lift it"
fi
if [ $status -ne 0 ]; then
	echo "--- haptixd's log" >&2
	tail -n 40 "$tmp/haptixd.log" >&2
fi
exit $status
