#!/bin/sh
# The floors of docs/architecture.md kept: no circle among the C files of
# daemon/, clients/ and lib/, read from their includes.  A file X.c that
# includes Y.h, where Y.c stands beside it, depends on Y.c; a header
# with no .c of its own (sim_internal.h, api.h) passes on what it
# includes.  First a small tree with a circle must be caught, then the
# project's tree must have none (each circle found is printed).  Run by
# make check; by hand: HX_SRC=. sh tests/floors.sh
. "$(dirname "$0")/common.sh" || exit 99
require_env floors.sh "make check" HX_SRC
scratch floors

includes() { # FILE: the quoted includes
	sed -n 's/^#include "\([^"]*\)".*/\1/p' "$1"
}

# DIR...: print "X.c Y.c" for each dependency of the C files in DIRs.
edges() {
	for f in $(for d in "$@"; do ls "$d"/*.c; done); do
		dir=${f%/*}
		seen=""
		todo=$(includes "$f")
		while set -- $todo && [ $# -gt 0 ]; do
			h=$1
			shift
			todo=$*
			case " $seen " in *" $h "*) continue ;; esac
			seen="$seen $h"
			[ -f "$dir/$h" ] || continue
			c="$dir/${h%.h}.c"
			if [ -f "$c" ]; then
				if [ "$c" != "$f" ]; then echo "$f $c"; fi
			else
				todo="$todo $(includes "$dir/$h")"
			fi
		done
	done
}

# DIR...: tsort's words on each circle, or nothing.
circles() {
	edges "$@" >"$tmp/edges"
	tsort "$tmp/edges" 2>&1 >/dev/null |
	    sed -n '/input contains a loop/d; s/^tsort: /  /p'
}

# The check catches a circle through a header with no .c of its own.
mkdir "$tmp/t"
printf '#include "a.h"\n#include "glue.h"\n' >"$tmp/t/a.c"
printf '#include "b.h"\n' >"$tmp/t/glue.h"
printf '#include "b.h"\n#include "a.h"\n' >"$tmp/t/b.c"
: >"$tmp/t/a.h"
: >"$tmp/t/b.h"
found=$(circles "$tmp/t")
case $found in
*a.c*b.c* | *b.c*a.c*) ;;
*)
	echo "FAIL: a.c -> glue.h -> b.c -> a.c not found as a circle: '$found'"
	exit 1
	;;
esac

cd "$HX_SRC" || exit 99
for d in daemon clients lib; do
	[ -d "$d" ] || { echo "floors.sh: no $d/ in $HX_SRC" >&2; exit 99; }
done
found=$(circles daemon clients lib)
if [ -n "$found" ]; then
	echo "FAIL: the includes make a circle (each file below depends on the next, the last on the first):"
	printf '%s\n' "$found"
	exit 1
fi
echo "PASS: $(wc -l <"$tmp/edges") dependencies among daemon/, clients/ and lib/, no circle"
