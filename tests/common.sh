# Sourced by the shell tests: what they share.

# require_env WHO RUNNER VAR...: exit 99 (a hard error), naming the first
# VAR unset or empty and what runs WHO (RUNNER, "make check").
require_env()
{
	_who=$1 _runner=$2
	shift 2
	for _v in "$@"; do
		eval "_x=\${$_v:-}"
		if [ -z "$_x" ]; then
			echo "$_who: $_v is not set: run by $_runner" >&2
			exit 99
		fi
	done
}

# A program not built by us (Octave) with a module of ours loaded into
# it: a sanitizer build's module needs AddressSanitizer's runtime loaded
# first, and the host program's own leaks are not ours.

# The runtime MODULE needs loaded first; nothing in a plain build.
sanitizer_runtime()
{
	ldd "$1" 2>/dev/null |
	    sed -n 's/^[[:space:]]*libasan[^ ]* => \([^ ]*\) .*/\1/p'
}

# Set LD_PRELOAD and ASAN_OPTIONS for a host of MODULE; in a plain build
# leave both as they are.
sanitized_env()
{
	_asan=$(sanitizer_runtime "$1")
	[ -n "$_asan" ] || return 0
	LD_PRELOAD="$_asan${LD_PRELOAD:+ $LD_PRELOAD}"
	ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
	export LD_PRELOAD ASAN_OPTIONS
}

# new_user_shell TOP BUILDDIR DIR: DIR/clone laid out as a clone (the
# source tree's quickstart, python and models, the build tree as build/),
# and the environment of a new user's shell in DIR: HOME, XDG_RUNTIME_DIR
# (the default socket) and XDG_STATE_HOME (the recordings) there, a plain
# PATH, none of the variables that point at a server or a build.
new_user_shell()
{
	mkdir -p "$3/clone" "$3/home" "$3/run" "$3/state" || exit 99
	chmod 700 "$3/run"
	for _f in quickstart python models; do
		ln -s "$1/$_f" "$3/clone/$_f" || exit 99
	done
	ln -s "$2" "$3/clone/build" || exit 99
	unset HAPTIX_SERVER HAPTIX_TOKEN_FILE HAPTIX_LEASE STATE_DIRECTORY \
	    PYTHONPATH PKG_CONFIG_PATH
	HOME=$3/home XDG_RUNTIME_DIR=$3/run XDG_STATE_HOME=$3/state
	PATH=/usr/local/bin:/usr/bin:/bin
	export HOME XDG_RUNTIME_DIR XDG_STATE_HOME PATH
}

# scratch NAME: a new temporary directory in $tmp, removed at exit with
# the daemon whose pid the caller keeps in $daemon, if any.
scratch()
{
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || exit 99
	daemon=
	trap '[ -n "$daemon" ] && kill "$daemon" 2>/dev/null && wait "$daemon"; rm -rf "$tmp"' EXIT
	trap 'exit 1' HUP INT TERM
}

# daemon_ready LOG: 0 once the haptixd of pid $daemon wrote "ready (" in
# LOG; 1, with LOG on stderr, if it ended or took 30 s.
daemon_ready()
{
	_i=0
	until grep -q 'ready (' "$1" 2>/dev/null; do
		_i=$((_i + 1))
		if [ $_i -gt 300 ] || ! kill -0 "$daemon" 2>/dev/null; then
			cat "$1" >&2
			return 1
		fi
		sleep 0.1
	done
}

# node_skip TEST WHY: 77 with WHY, or (under $CI, which installs
# everything) a failure of TEST.
node_skip()
{
	case ${CI:-} in
	'' | false) echo "SKIP: $2" >&2; exit 77 ;;
	*) echo "$1: FAIL: \$CI is set, and $2" >&2; exit 1 ;;
	esac
}

# node_modules TEST DIR WHAT: the Node packages of tests/DIR/package.json
# at the versions of its committed package-lock.json (npm ci), installed
# once into $HX_BUILD/tests/DIR-node with tests/DIR's scripts, whose
# path it sets in $mods.  Without node or npm, or when npm cannot
# install WHAT, node_skip says why.
node_modules()
{
	command -v node >/dev/null 2>&1 || node_skip "$1" "no node (Debian: nodejs)"
	command -v npm >/dev/null 2>&1 || node_skip "$1" "no npm (Debian: npm)"
	mods=$HX_BUILD/tests/$2-node
	if ! cmp -s "$HX_SRC/tests/$2/package-lock.json" \
	    "$mods/package-lock.json" 2>/dev/null; then
		rm -rf "$mods" && mkdir -p "$mods" || exit 99
		cp "$HX_SRC/tests/$2/package.json" \
		    "$HX_SRC/tests/$2/package-lock.json" "$mods/" || exit 99
		if ! (cd "$mods" && npm ci --ignore-scripts --no-audit \
		    --no-fund --loglevel=error) >"$mods/npm.log" 2>&1; then
			cat "$mods/npm.log" >&2
			rm -f "$mods/package-lock.json"
			node_skip "$1" "npm ci could not install $3"
		fi
	fi
	cp "$HX_SRC/tests/$2/"*.mjs "$mods/" || exit 99
}
