#!/bin/sh
# Every program and every subcommand: --help prints its usage on
# standard output and exits 0, --version prints "PROG (haptixd) VERSION"
# (configure's version: the Python package's too, through hxsweep), and
# an unknown option is named in the program's own words, exit 2, never
# with libtool's .libs path.  The lists of subcommands are read from the
# programs' own --help, so a new command is walked too.  Run by make check.

. "$(dirname "$0")/common.sh" || exit 99
require_env help.sh "make check" HAPTIXD HXCTL HXVIEW HXPLAY HX_MOCAP \
    HX_SPACENAV HX_FOXGLOVE HX_VERSION HX_SRC HX_BUILD
# hxsweep is the Python package's (configure --disable-python: none).
if [ -n "${HXSWEEP:-}" ]; then
	PYTHONPATH=$HX_SRC/python:$HX_BUILD/python
	export PYTHONPATH
else
	echo "help.sh: no hxsweep (configured --disable-python)"
fi

out=$(mktemp "${TMPDIR:-/tmp}/help.XXXXXX") || exit 99
err=$out.err
trap 'rm -f "$out" "$err"' EXIT
status=0
checked=0
fail()
{
	echo "FAIL: $*" >&2
	status=1
}

# run NAME ARGS...: run the program NAME (its path in $PROG) with ARGS.
run()
{
	_exe=$1
	shift
	"$_exe" "$@" >"$out" 2>"$err" </dev/null
}

# helps LABEL EXE ARGS...: ARGS ask for help: usage on stdout, exit 0.
helps()
{
	_label=$1
	shift
	checked=$((checked + 1))
	if ! run "$@"; then
		fail "$_label: exit $? ($(head -c 300 "$err"))"
	elif ! grep -q '^usage:' "$out"; then
		fail "$_label: no usage on stdout: $(head -c 300 "$out")"
	fi
}

# prog NAME EXE: --help, --version and an unknown option.
prog()
{
	helps "$1 --help" "$2" --help
	checked=$((checked + 1))
	if ! run "$2" --version; then
		fail "$1 --version: exit $? ($(head -c 300 "$err"))"
	elif [ "$(cat "$out")" != "$1 (haptixd) $HX_VERSION" ]; then
		fail "$1 --version: '$(cat "$out")', not '$1 (haptixd) $HX_VERSION'"
	fi
	checked=$((checked + 1))
	run "$2" --no-such-option
	_rc=$?
	if [ $_rc -ne 2 ]; then
		fail "$1 --no-such-option: exit $_rc, not 2"
	elif ! grep -q "^$1: unknown option --no-such-option" "$err"; then
		fail "$1 --no-such-option: $(head -c 300 "$err")"
	elif grep -q '\.libs' "$err"; then
		fail "$1 --no-such-option names libtool's path: $(cat "$err")"
	fi
}

prog haptixd "$HAPTIXD"
prog hxctl "$HXCTL"
prog hxview "$HXVIEW"
prog hxplay "$HXPLAY"
prog hx-mocap "$HX_MOCAP"
prog hx-spacenav "$HX_SPACENAV"
prog hx-foxglove "$HX_FOXGLOVE"
[ -z "${HXSWEEP:-}" ] || prog hxsweep "$HXSWEEP"

# hxctl: every command of its --help, "CMD --help", and its usage line.
cmds=$("$HXCTL" --help | sed -n '/^Options/,/^Arguments:/p' |
    grep -E '^  [a-z]' | awk '{ print $1 }')
[ "$(echo "$cmds" | wc -w)" -gt 40 ] ||
    fail "hxctl --help lists few commands: $cmds"
for c in $cmds; do
	helps "hxctl $c --help" "$HXCTL" "$c" --help
	grep -q "^usage: hxctl \[options\] $c" "$out" ||
	    fail "hxctl $c --help: $(head -n 1 "$out")"
done

# hxview, hxplay: the commands their usage names.
for c in $("$HXVIEW" --help | sed -n 's/^ *\(usage: \)\{0,1\}hxview \[options\] \([a-z]*\).*/\2/p'); do
	helps "hxview $c --help" "$HXVIEW" "$c" --help
done
for c in info export; do
	helps "hxplay $c --help" "$HXPLAY" "$c" --help
done
helps "hxplay --verify --help" "$HXPLAY" --verify --help

# hxsweep: each command's --help names every option its line of the
# overview does (--retries, --trial-timeout, -M, --resume, ...).
for c in $([ -z "${HXSWEEP:-}" ] || "$HXSWEEP" --help | sed -n 's/^ *\(usage: \)\{0,1\}hxsweep \([a-z]*\) .*/\2/p'); do
	helps "hxsweep $c --help" "$HXSWEEP" "$c" --help
	cp "$out" "$out.cmd"
	for o in $("$HXSWEEP" --help | awk -v c="$c" '
	    /^ *(usage: )?hxsweep / { on = ($0 ~ ("hxsweep " c " ")) }
	    on { print }' | grep -o -- '-[-a-zA-Z]*' | sort -u); do
		grep -q -- "$o" "$out.cmd" ||
		    fail "hxsweep $c --help does not list $o"
	done
	rm -f "$out.cmd"
done

echo "$checked checks of --help, --version and bad options"
exit $status
