#!/bin/sh
# proto/fields.awk, which turns haptix.proto into the X-macro list of
# each message's fields that the daemon, libhaptix, hxctl and the MEX file
# expand: what it writes for sized, fixed and nested arrays and for enums
# declared after their use, and that it refuses, naming the line, a size
# it cannot read and a message that sizes some arrays but not all.  Run
# by make check.
. "$(dirname "$0")/common.sh" || exit 99
require_env fields.sh "make check" HX_SRC
awk_script=$HX_SRC/proto/fields.awk
scratch fields
fail=0

gen() { # FILE: generate, stdout to $tmp/out, stderr to $tmp/err
	awk -f "$awk_script" "$1" >"$tmp/out" 2>"$tmp/err"
}
has() { # TEXT: the output has the line
	grep -qF -- "$1" "$tmp/out" || {
		echo "FAIL: no line '$1' in:"; cat "$tmp/out"; fail=1; }
}
refused() { # FILE WORDS: generation fails, the error says WORDS
	if gen "$1"; then
		echo "FAIL: $1 was accepted"; fail=1
	elif ! grep -qF -- "$2" "$tmp/err"; then
		echo "FAIL: $1: the error does not say '$2':"; cat "$tmp/err"
		fail=1
	fi
}

cat >"$tmp/good.proto" <<'P'
message Sizes {
  uint32 n = 1;
}
message A {
  Sizes sizes = 1;
  uint32 n = 2;
  Kind k = 3;                           // declared below
  repeated double x = 4;                // [n x 3] xyz
  repeated Kind ks = 5;                 // [2]
  repeated string names = 6;            // [sizes.n]
  oneof pick {
    double one = 7;
  }
}
message Plain {
  repeated string words = 1;
}
enum Kind {
  K0 = 0;
}
P
if gen "$tmp/good.proto"; then
	has '#define HX_FIELDS_A(S, A, F, N, ctx) \'
	has 'S(ctx, A, n, uint32) \'
	has 'S(ctx, A, k, enum) \'
	has 'A(ctx, A, x, double, n, 3) \'
	has 'F(ctx, A, ks, enum, 2) \'
	has 'N(ctx, A, names, string, sizes, Sizes, n, 1)'
	has '#define HX_FIELDS_PARTIAL_Plain 1'
	if grep -q 'one' "$tmp/out"; then
		echo "FAIL: a oneof's member is listed"; fail=1
	fi
else
	echo "FAIL: good.proto refused:"; cat "$tmp/err"; fail=1
fi

printf 'message A {\n  uint32 n = 1;\n  repeated double x = 2; // [n x]\n}\n' \
    >"$tmp/badsize.proto"
refused "$tmp/badsize.proto" "badsize.proto:3: field x: size [n x]"
printf 'message A {\n  uint32 n = 1;\n  repeated double x = 2; // [n]\n  repeated double y = 3;\n}\n' \
    >"$tmp/unsized.proto"
refused "$tmp/unsized.proto" "repeated field y has no [size]"
printf 'message A {\n  repeated double x = 1; // [m.n]\n}\n' \
    >"$tmp/nosub.proto"
refused "$tmp/nosub.proto" "m is not a message field"

# The real one is read whole, every message listed.
gen "$HX_SRC/proto/haptix.proto" || { cat "$tmp/err"; fail=1; }
has 'A(ctx, State, qpos, double, nq, 1) \'
has 'N(ctx, Info, jnt_range, double, model, ModelSummary, njnt, 2) \'
exit $fail
