#!/bin/sh
# hxsweep on a real Slurm cluster, end to end: a single-node cluster
# (munged, slurmctld, slurmd from Debian) started in a temporary
# directory by tests/slurm_cluster.sh, a sweep of 24 trials submitted
# as a job array of 6 tasks, 3 at a time, waited for with hxsweep
# status, one task's results removed and that task alone resubmitted,
# then hxsweep gather: the same table, byte for byte, as hxsweep run
# gives on a local pool.  Everything is torn down at the end, even on
# failure.  Where Slurm cannot start this fails with the reason; it
# never passes without running.
#
# Run by .ci/run (make check-slurm), as root: it installs slurm-wlm and
# munge when they are missing, as ./quickstart check installs its own.
# Not part of make check: it needs root, and starts system daemons.
set -u

. "$(dirname "$0")/common.sh" || exit 99
require_env slurm.sh "make check-slurm" HAPTIXD HXSWEEP HX_MODELS HX_BUILD HX_SRC
fail()
{
	echo "slurm.sh: FAIL: $*" >&2
	echo "0 passed, 1 failed"
	exit 1
}
[ "$(id -u)" -eq 0 ] || fail "needs root (the test cluster runs as root)"
PATH=$PATH:/usr/sbin:/sbin
missing=
for p in slurm-wlm munge; do
	dpkg-query -W -f '${Status}\n' "$p" 2>/dev/null |
	    grep -q '^install ok installed$' || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "slurm.sh: installing$missing"
	{ apt-get update -qq &&
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    --no-install-recommends $missing; } >&2 ||
	    fail "cannot install$missing"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/hxslurm.XXXXXX") || exit 99
chmod 755 "$tmp"
cleanup()
{
	sh "$HX_SRC/tests/slurm_cluster.sh" stop "$tmp/cluster"
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

out=$(sh "$HX_SRC/tests/slurm_cluster.sh" start "$tmp/cluster") ||
    fail "the Slurm cluster did not start (above)"
eval "$out"
export SLURM_CONF
PYTHONPATH="$HX_SRC/python:$HX_BUILD/python${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONPATH

cd "$tmp" || exit 99
cat >sweep.toml <<TOML
# 24 trials: the index finger's servo on the MPL scene.
model = "mpl_scene.xml"
model_dirs = ["$HX_MODELS"]
seed = 21
[grid]
kp = [5, 20, 50]
target = [0.4, 0.8, 1.2, 1.6]
[random]
samples = 2
damping = { uniform = [0.0, 0.3] }
[trial]
set = { "actuator_gainprm[A_index_MCP]" = "{kp}", "actuator_biasprm[A_index_MCP, 1]" = "{-kp}", "dof_damping[index_MCP]" = "{damping}" }
ctrl = { A_index_MCP = "{target}" }
steps = 200
record = ["sensor:A_index_MCP_pos", "qpos"]
keep = "summary"
TOML

"$HXSWEEP" run sweep.toml -j 2 -o local -q || fail "the local run failed"

"$HXSWEEP" submit sweep.toml --slurm -o slurm --tasks 6 --array-max 3 \
    --time 10 || fail "hxsweep submit failed"
grep -q '^#SBATCH --array=0-5%3$' slurm/job.sh ||
    fail "job.sh does not ask for the array 0-5%3"

# Wait until every trial of OUT (default slurm) is ok (hxsweep status
# exits 0), 5 minutes at most; a task that failed would never get there.
wait_done()
{
	i=0
	until "$HXSWEEP" status "${1:-slurm}" >"$tmp/status" 2>&1; do
		i=$((i + 1))
		if [ $i -gt 600 ]; then
			cat "$tmp/status" >&2
			squeue >&2
			tail -n 20 slurm/logs/*.log >&2
			fail "the sweep did not finish on Slurm within 300 s"
		fi
		sleep 0.5
	done
	cat "$tmp/status"
}
wait_done
grep -q '^sweep sweep: 24 trials in 6 tasks (job [0-9]*): 24 ok, 0 failed, 0 to run$' \
    "$tmp/status" || fail "hxsweep status did not say 24 ok"
for i in 0 1 2 3 4 5; do
	[ "$(wc -l <slurm/tasks/task_$i.jsonl)" -eq 4 ] ||
	    fail "task $i did not write its 4 trials"
	grep -q "hxsweep: task $i: 4 trials, 0 ok before, 4 ok, 0 failed" \
	    slurm/logs/task_$i.log || fail "task $i's log says otherwise"
done

# A task lost (its results gone): status names it, resubmit runs it
# alone, and only it.
rm slurm/tasks/task_4.jsonl
"$HXSWEEP" status slurm >"$tmp/status" && fail "status said done"
grep -q "^task 4: 0/4 ok, " "$tmp/status" &&
    grep -q "(tasks 4)$" "$tmp/status" ||
    { cat "$tmp/status" >&2; fail "status did not name task 4"; }
rm slurm/logs/task_*.log
"$HXSWEEP" resubmit slurm || fail "hxsweep resubmit failed"
wait_done
[ "$(ls slurm/logs)" = "task_4.log" ] ||
    fail "resubmit ran other tasks than 4: $(ls slurm/logs)"

"$HXSWEEP" gather slurm || fail "hxsweep gather failed"
for f in results.jsonl results.csv npy/trial.npy npy/ok.npy \
    npy/params/damping.npy npy/qpos.max.npy \
    npy/sensor.A_index_MCP_pos.mean.npy; do
	cmp "local/$f" "slurm/$f" ||
	    fail "$f differs between the local run and Slurm's"
done
[ "$(wc -l <slurm/results.jsonl)" -eq 24 ] || fail "not 24 rows"

# A learned policy evaluated over many seeded starts on the cluster:
# learn_grasp.py trains it (3 iterations of random search over two
# daemons), learn_grasp_eval.py writes its sweep (a command trial per
# seed), which runs on the local pool and as a job array: every episode
# ok, and the same returns, bit for bit.
ex=$HX_SRC/python/examples
py=${HX_PYTHON:-/usr/bin/python3}
"$py" "$ex/learn_grasp.py" --iterations 3 -M "$HX_MODELS" \
    --save policy.npz >learn.log 2>&1 ||
    { cat learn.log >&2; fail "learn_grasp.py failed"; }
"$py" "$ex/learn_grasp_eval.py" policy.npz --seeds 12 -M "$HX_MODELS" \
    --write-sweep eval.toml || fail "learn_grasp_eval.py --write-sweep failed"
"$HXSWEEP" run eval.toml -j 2 -o evallocal -q || fail "the local evaluation failed"
"$HXSWEEP" submit eval.toml --slurm -o evalslurm --tasks 3 --time 10 ||
    fail "hxsweep submit of the evaluation failed"
wait_done evalslurm
"$HXSWEEP" gather evalslurm || fail "hxsweep gather (evaluation) failed"
[ "$(grep -c '"status": "ok"' evalslurm/results.jsonl)" -eq 12 ] ||
    fail "not 12 episodes ok on Slurm"
cmp evallocal/npy/return.npy evalslurm/npy/return.npy ||
    fail "the policy's returns differ between the local pool and Slurm"

# Hostile words in everything that reaches the batch script or sbatch:
# the sweep's name, OUT (a blank, quotes, $(...), Slurm's %), and an
# sbatch argument.  They reach Slurm whole, and no shell runs them.
# (A newline in any of them is refused: tests/sweep/test_hxsweep.py.)
pwned=$tmp/PWNED
bad="q'\"\$(touch $pwned)\`touch $pwned\` %x"
hostile="$tmp/out $bad"
sed -e "1i name = \"x\$(touch $pwned) 'q' %j\"" \
    sweep.toml >hostile.toml
"$HXSWEEP" check hostile.toml --slurm -o "$hostile" --tasks 1 --time 10 \
    --sbatch-arg="--comment=$bad" -M "$HX_MODELS" >"$tmp/check" ||
    fail "hxsweep check --slurm failed"
grep -q "^#SBATCH --array=0-0$" "$tmp/check" ||
    { cat "$tmp/check" >&2; fail "check --slurm did not show job.sh"; }
[ ! -e "$hostile" ] || fail "check --slurm wrote $hostile"
"$HXSWEEP" submit hostile.toml --slurm -o "$hostile" --tasks 1 --time 10 \
    --sbatch-arg="--comment=$bad" || fail "hxsweep submit (hostile) failed"
i=0
until "$HXSWEEP" status "$hostile" >"$tmp/status" 2>&1; do
	i=$((i + 1))
	[ $i -le 600 ] || { cat "$tmp/status" >&2; squeue >&2;
	    fail "the hostile sweep did not finish within 300 s"; }
	sleep 0.5
done
[ ! -e "$pwned" ] || fail "a value in the batch script ran as a command"
[ -s "$hostile/logs/task_0.log" ] ||
    fail "the task's log is not at OUT/logs/task_0.log: $(ls "$hostile/logs")"
job=$(sed -n 's/.*"jobs": \["\([0-9]*\)"\].*/\1/p' "$hostile/slurm.json")
[ -z "$job" ] && job=$(grep -A1 '"jobs"' "$hostile/slurm.json" | tr -dc 0-9)
scontrol show job "$job" >"$tmp/job" 2>&1
grep -qF "JobName=hxsweep-x\$(touch $pwned) 'q' %j" "$tmp/job" &&
    grep -qF "Comment=$bad" "$tmp/job" ||
    { cat "$tmp/job" >&2; fail "Slurm did not get the name and comment whole"; }
echo "slurm.sh: 24 trials on a Slurm job array, gathered: identical to" \
    "the local run's table; a learned policy's 12 episodes the same on" \
    "Slurm as locally; hostile names and paths reach Slurm whole"
echo "1 passed, 0 failed"
