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
