#!/bin/sh
# The floors of docs/architecture.md kept: no circle among the C files of
# daemon/, clients/ and lib/, read from their includes, nor from their
# calls.  A file X.c that includes Y.h, where Y.c stands beside it,
# depends on Y.c; a header with no .c of its own (sim_internal.h, api.h)
# passes on what it includes.  Through such a shared header files call
# each other unseen by their includes, so the built objects are read too
# (nm): X.o depends on Y.o when it uses a name Y.o alone defines.  First
# a small tree with a circle of each kind must be caught, then the
# project's tree must have none (each circle found is printed).  Run by
# make check; by hand: HX_SRC=. HX_BUILD=build sh tests/floors.sh
. "$(dirname "$0")/common.sh" || exit 99
require_env floors.sh "make check" HX_SRC HX_BUILD
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

# OBJECT...: "X Y" for each name X uses that Y alone defines; a file's
# name is its object's without the target's prefix (libhaptixd_la-sim.o
# is sim), so that one source built for two programs is one file.
call_edges() {
	for o in "$@"; do
		n=${o##*/}
		n=${n%.o}
		n=${n#*-}
		nm "$o" | awk -v n="$n" '
		    NF == 3 && $2 ~ /^[TDBR]$/ { print "D", n, $3 }
		    $1 == "U" { print "U", n, $2 }'
	done | sort -u | awk '
	    $1 == "D" {
		if (($3 in def) && def[$3] != $2) twice[$3] = 1
		def[$3] = $2
		next
	    }
	    { used[++n] = $2 " " $3 }
	    END {
		for (i = 1; i <= n; i++) {
			split(used[i], u, " ")
			if ((u[2] in def) && !(u[2] in twice) && def[u[2]] != u[1])
				print u[1], def[u[2]]
		}
	    }' | sort -u
}

# The words of tsort on each circle of the edges in FILE, or nothing.
loops() {
	tsort "$1" 2>&1 >/dev/null |
	    sed -n '/input contains a loop/d; s/^tsort: /  /p'
}

# DIR...: tsort's words on each circle, or nothing.
circles() {
	edges "$@" >"$tmp/edges"
	loops "$tmp/edges"
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

# The calls' check catches a circle through a shared header.
printf 'void b(void);\nvoid a(void) { b(); }\n' >"$tmp/t/ca.c"
printf 'void a(void);\nvoid b(void) { a(); }\n' >"$tmp/t/cb.c"
${HX_CC:-cc} -c -o "$tmp/t/prog-ca.o" "$tmp/t/ca.c" &&
    ${HX_CC:-cc} -c -o "$tmp/t/cb.o" "$tmp/t/cb.c" || exit 99
call_edges "$tmp/t/prog-ca.o" "$tmp/t/cb.o" >"$tmp/calls"
found=$(loops "$tmp/calls")
case $found in
*ca*cb* | *cb*ca*) ;;
*)
	echo "FAIL: ca.o -> cb.o -> ca.o not found as a circle of calls: '$found'"
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

# The workbench's modules, from their import lines.
for f in clients/workbench/*.js; do
	sed -n "s#^\(import .*\|[[:space:]]*\)from '\./\([^']*\)';#\2#p" "$f" |
	    while read -r m; do echo "${f##*/} $m"; done
done >"$tmp/modules"
found=$(loops "$tmp/modules")
if [ -n "$found" ]; then
	echo "FAIL: the workbench's modules import each other in a circle:"
	printf '%s\n' "$found"
	exit 1
fi
echo "PASS: $(wc -l <"$tmp/modules") imports among the workbench's modules, no circle"

# The calls, one program or library at a time; tests and examples are no
# floors of the house.
status=0
for d in daemon lib clients; do
	objs=$(find "$HX_BUILD/$d" -name '*.o' ! -name 'tests_*' ! -path '*/examples/*' | sort)
	[ -n "$objs" ] || { echo "floors.sh: no objects in $HX_BUILD/$d" >&2; exit 99; }
	call_edges $objs >"$tmp/calls"
	found=$(loops "$tmp/calls")
	if [ -n "$found" ]; then
		echo "FAIL: the calls of $d/ make a circle (each file calls the next, the last the first):"
		printf '%s\n' "$found"
		status=1
	else
		echo "PASS: $(wc -l <"$tmp/calls") calls between the files of $d/, no circle"
	fi
done
exit $status
