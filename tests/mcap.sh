#!/bin/sh
# hxplay export --mcap read back by the reference implementation: a
# recording made by a real haptixd (two segments, a reset and an edit
# between, the journal holding the model) exported as MCAP and read by
# @mcap/core with @mcap/support's zstd (tests/mcap/read.mjs) in Node.
# Every message decodes; the counts per topic, the segments' records and
# first and last times are hxplay info's; a joint's position is the
# recorded double (export --csv) and the free box's pose is its qpos.
#
# The Node packages come from npm at the versions of the committed
# package-lock.json (npm ci), installed once into the build tree.  Where
# node or npm is missing or npm cannot be reached this skips (77),
# saying why; under $CI, which installs everything, it fails instead.
# Run by make check.

. "$(dirname "$0")/common.sh" || exit 99
require_env mcap.sh "make check" HAPTIXD HXCTL HXPLAY HX_TEST_MODELS HX_BUILD \
    HX_SRC

node_modules mcap.sh mcap "@mcap/core and @mcap/support"

scratch mcap
hx() { "$HXCTL" -s "unix:$tmp/sock" "$@" >/dev/null; }
"$HAPTIXD" --config none -M "$HX_TEST_MODELS" -m fixture.xml --paused \
    --unix "$tmp/sock" --tcp none --state-dir "$tmp/state" \
    2>"$tmp/haptixd.log" &
daemon=$!
daemon_ready "$tmp/haptixd.log" || exit 99

# Two segments: 20 steps, a reset, an edit (a new model, a third
# segment), 15 steps more; controls that change.
set -e
hx record start --journal --every 2 \
    --fields qpos,qvel,ctrl,mocap,sensordata
hx step 20 --ctrl 0.3,-0.2
hx reset
hx step 10 --ctrl -0.4,0.5
hx edit add geom ball --in body:link2 type=sphere size=0.04 pos="0 0 -0.3"
hx step 15
hx record stop
set +e
hxr=$(ls "$tmp"/state/*.hxr) || exit 1
"$HXPLAY" info "$hxr" >"$tmp/info" || exit 1
"$HXPLAY" export "$hxr" --csv "$tmp/csv" || exit 1

start=$(date +%s%N)
"$HXPLAY" export "$hxr" --mcap "$tmp/out.mcap" || exit 1
took=$((($(date +%s%N) - start) / 1000000))
# Never over an earlier export, unless --force.
if "$HXPLAY" export "$hxr" --mcap "$tmp/out.mcap" 2>"$tmp/err"; then
	echo "mcap.sh: export wrote over an earlier one" >&2
	exit 1
fi
grep -q 'exists' "$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
"$HXPLAY" export "$hxr" --mcap "$tmp/out.mcap" --force || exit 1

step=$(awk -F, 'NR == 8 { print $1 }' "$tmp/csv/qpos.csv")
(cd "$mods" && node read.mjs "$tmp/out.mcap" "$step" hinge1 box) \
    >"$tmp/read" || { cat "$tmp/read" >&2; exit 1; }
cat "$tmp/read"
echo "export: $took ms"

fails=0
check()
{
	if ! eval "$2"; then
		echo "mcap.sh: FAIL: $1" >&2
		fails=$((fails + 1))
	fi
}
records=$(sed -n 's/^records: //p' "$tmp/info")
nseg=$(sed -n 's/^segments: //p' "$tmp/info")
edits=$(sed -n 's/^edits: //p' "$tmp/info")
for t in /tf /joint_states /controls /sensors /contacts; do
	check "$t has $records messages" \
	    "grep -qx 'topic $t [^ ]* $records' '$tmp/read' &&
	     grep -qx 'decoded $t $records' '$tmp/read'"
done
check "/scene once a segment ($nseg)" \
    "grep -qx 'decoded /scene $nseg' '$tmp/read'"
check "/events: each segment and edit" \
    "grep -qx 'decoded /events $((nseg + edits))' '$tmp/read'"
check "three segments, one edit" "[ '$nseg' = 3 ] && [ '$edits' = 1 ]"
check "an edit marked" "grep -q '^event the model was edited' '$tmp/read'"
check "the stream reader reads every message" \
    "grep -qx 'streamed $((5 * records + 2 * nseg + edits))' '$tmp/read'"
# Each segment's records and first and last times, as hxplay info's.
sed -n 's/^segment \([0-9]*\): \([0-9]*\) records, .*time \(.*\) to \(.*\)$/\1 \2 \3 \4/p' \
    "$tmp/info" >"$tmp/info.seg"
check "the segments of hxplay info" \
    "[ \$(wc -l <'$tmp/info.seg') = $nseg ] &&
     awk 'NR == FNR { s[\$2] = \$0; next }
	  { split(s[\$1], r, \" \")
	    if (r[3] != \$2 || r[4] != \$3 + 0 || r[5] != \$4 + 0) exit 1 }' \
	 '$tmp/read' '$tmp/info.seg'"
# The recorded doubles: hinge1 (qpos[0]) and the box's position
# (qpos[2..4]) at that step, read back as the same numbers.
row=$(awk -F, -v s="$step" '$1 == s' "$tmp/csv/qpos.csv")
check "hinge1 at step $step is the recorded qpos[0]" \
    "echo '$row' | awk -F, -v v=\"\$(sed -n 's/^qpos $step hinge1 //p' '$tmp/read')\" \
	'{ exit !(\$3 + 0 == v + 0 && v != \"\") }'"
check "the box's pose at step $step is its recorded qpos" \
    "echo '$row' | awk -F, -v p=\"\$(sed -n 's/^tf $step box //p' '$tmp/read')\" \
	'{ n = split(p, x, \" \"); exit !(n == 3 && \$5 == x[1] + 0 &&
	   \$6 == x[2] + 0 && \$7 == x[3] + 0) }'"
check "the export took seconds ($took ms)" "[ $took -lt 10000 ]"

# A file cut inside a frame: the whole records exported, the cut said
# on stderr and as an event in the file.
size=$(wc -c <"$hxr")
head -c $((size - 7)) "$hxr" >"$tmp/cut.hxr"
check "a cut file exports its whole records" \
    "'$HXPLAY' export '$tmp/cut.hxr' --mcap '$tmp/cut.mcap' 2>'$tmp/cut.err' &&
     grep -q 'cut inside a frame' '$tmp/cut.err'"
(cd "$mods" && node read.mjs "$tmp/cut.mcap" "$step" hinge1 box) \
    >"$tmp/cut.read" 2>&1
check "the cut is an event of the file" \
    "grep -q '^event the file ends inside a frame' '$tmp/cut.read'"

# Recorded without --journal: no model in the file, so --model names it;
# without it the export is refused, saying so, and writes nothing.  The
# fixture again first (the edit above changed the model).
set -e
hx load fixture.xml
hx record start --every 2 --fields qpos
hx step 10
hx record stop
set +e
bare=$(ls "$tmp"/state/*.hxr | grep -vx "$hxr")
check "without --model, refused and said why" \
    "! '$HXPLAY' export '$bare' --mcap '$tmp/bare.mcap' 2>'$tmp/bare.err' &&
     grep -q 'give --model FILE' '$tmp/bare.err' && [ ! -e '$tmp/bare.mcap' ]"
check "with --model, exported" \
    "'$HXPLAY' export '$bare' --mcap '$tmp/bare.mcap' \
	--model '$HX_TEST_MODELS/fixture.xml' 2>'$tmp/bare.err' &&
     ! grep -q 'not the recorded model' '$tmp/bare.err'"
"$HXPLAY" info "$bare" >"$tmp/bare.info"
brecords=$(sed -n 's/^records: //p' "$tmp/bare.info")
(cd "$mods" && node read.mjs "$tmp/bare.mcap" 0 hinge1 box) \
    >"$tmp/bare.read" 2>&1
check "with --model, every record's poses ($brecords)" \
    "grep -qx 'decoded /tf $brecords' '$tmp/bare.read'"
check "another model's sizes refused" \
    "! '$HXPLAY' export '$bare' --mcap '$tmp/other.mcap' \
	--model '$HX_TEST_MODELS/groups.xml' 2>'$tmp/other.err' &&
     [ ! -e '$tmp/other.mcap' ]"
[ $fails = 0 ]
