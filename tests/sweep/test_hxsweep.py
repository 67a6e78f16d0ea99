"""hxsweep run through real daemons: the table it writes, results that
do not depend on --jobs, resuming after the runner is killed, Ctrl-C,
failing trials retried, bad sweep files refused by line before anything
starts, a model that does not load, a hanging command killed."""

import json
import os
import signal
import subprocess
import time

import numpy as np

def rows(h, out):
    with open(h.path(out, "results.jsonl")) as f:
        return [json.loads(line) for line in f]


def test_a_small_sweep_writes_the_table(hxsweep):
    hxsweep.copy("gain.toml")
    p = hxsweep("check", "gain.toml")
    assert p.returncode == 0
    assert "12 trials (parameters: kp, target, damping)" in p.stdout
    p = hxsweep("run", "gain.toml", "--jobs", "2")
    assert p.returncode == 0, p.stderr
    assert "12 of 12 trials ok" in p.stderr
    r = rows(hxsweep, "gain.out")
    assert [x["trial"] for x in r] == list(range(12))
    assert all(x["status"] == "ok" and x["attempts"] == 1 for x in r)
    assert r[0]["params"]["kp"] == 5 and r[-1]["params"]["kp"] == 50
    assert {x["params"]["target"] for x in r} == {0.6, 1.2}
    assert all(0 <= x["params"]["damping"] <= 0.5 for x in r)
    assert len({x["seed"] for x in r}) == 12
    for x in r:
        res = x["result"]
        assert res["steps"] == 150
        # The finger got most of the way; a stiffer servo overshoots more.
        assert res["sensor.A_index_MCP_pos"]["last"][0] > \
            0.5 * x["params"]["target"]
    peak = {(x["params"]["kp"], x["params"]["target"]):
            x["result"]["sensor.A_index_MCP_pos"]["max"][0] for x in r
            if x["params"]["damping"] == r[0]["params"]["damping"]}
    assert peak[(50, 1.2)] > peak[(5, 1.2)]
    csv = hxsweep.read("gain.out", "results.csv").decode().splitlines()
    assert csv[0].startswith("trial,repeat,seed,kp,target,damping,status,"
                             "attempts,sensor.A_index_MCP_pos.max[0],")
    assert len(csv) == 13 and csv[1].startswith("0,0,")
    mx = np.load(hxsweep.path("gain.out", "npy",
                              "sensor.A_index_MCP_pos.max.npy"))
    assert mx.shape == (12, 1)
    assert mx[3, 0] == r[3]["result"]["sensor.A_index_MCP_pos"]["max"][0]
    assert np.load(hxsweep.path("gain.out", "npy", "qpos.max.npy")).shape \
        == (12, 50)
    kp = np.load(hxsweep.path("gain.out", "npy", "params", "kp.npy"))
    assert list(kp) == [5] * 4 + [20] * 4 + [50] * 4
    # Integers stay integers (steps.npy was float64).
    steps = np.load(hxsweep.path("gain.out", "npy", "steps.npy"))
    assert kp.dtype == np.int64 and steps.dtype == np.int64
    assert list(steps) == [150] * 12
    assert np.load(hxsweep.path("gain.out", "npy", "params",
                                "target.npy")).dtype == np.float64
    # The results are never written over.
    p = hxsweep("run", "gain.toml")
    assert p.returncode == 2 and "holds results already" in p.stderr


def _children(pid):
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open("/proc/%s/stat" % d) as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        out.append(int(d))
            except (OSError, IndexError, ValueError):
                pass
    return out


def _gone(pids, seconds=20):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if not any(os.path.exists("/proc/%d" % p) and
                   "Z" not in open("/proc/%d/stat" % p).read().rsplit(
                       ")", 1)[1].split()[0] for p in pids):
            return True
        time.sleep(0.05)
    return False


LONG = """model = "mpl_scene.xml"
[grid]
kp = [5, 10, 20, 30, 40, 50, 60, 70, 80, 90]
target = [0.8, 1.0, 1.2, 1.4, 1.6, 0.2, 0.4, 0.6]
[trial]
set = { "actuator_gainprm[A_index_MCP]" = "{kp}", "actuator_biasprm[A_index_MCP, 1]" = "{-kp}" }
ctrl = { A_index_MCP = "{target}" }
steps = 300
record = ["sensor:A_index_MCP_pos"]
keep = "summary"
"""


def test_jobs_1_and_2_give_identical_results(hxsweep):
    # With --jobs 1 one daemon runs every trial after another; with 2,
    # each takes the next trial when it is free, in an order left to
    # chance (both start at once: trial 1 is the second daemon's first).
    # Each trial's start must not depend on the one before it: the same
    # bytes.
    hxsweep.write("long.toml", LONG)
    assert hxsweep("run", "long.toml", "-j", "1", "-o", "one").returncode \
        == 0
    assert hxsweep("run", "long.toml", "-j", "2", "-o", "two").returncode \
        == 0
    for name in ("results.jsonl", "results.csv", "npy/trial.npy",
                 "npy/sensor.A_index_MCP_pos.max.npy",
                 "npy/sensor.A_index_MCP_pos.last.npy", "npy/steps.npy"):
        assert hxsweep.read("one", name) == hxsweep.read("two", name), name


def _start_and_stop(h, out, sig, lines=3):
    """hxsweep run stopped by a signal once some trials are written."""
    p = subprocess.Popen(h.argv("run", "long.toml", "-j", "2", "-o", out,
                                *h.models_args()), cwd=h.dir,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    path = h.path(out, "results.jsonl")
    end = time.monotonic() + 60
    while time.monotonic() < end and p.poll() is None:
        if os.path.exists(path) and open(path).read().count("\n") >= lines:
            break
        time.sleep(0.005)
    assert p.poll() is None, "the sweep ended before it could be stopped"
    kids = _children(p.pid)
    p.send_signal(sig)
    err = p.communicate(timeout=60)[1]
    return p.returncode, kids, err


def test_resume_after_the_runner_is_killed(hxsweep):
    hxsweep.write("long.toml", LONG)
    status, kids, _ = _start_and_stop(hxsweep, "cut", signal.SIGKILL)
    assert status == -signal.SIGKILL
    assert len(kids) == 2
    assert _gone(kids), "a daemon outlived the killed runner"
    before = rows(hxsweep, "cut")
    assert 3 <= len(before) < 80
    assert all(x["status"] == "ok" for x in before)
    p = hxsweep("run", "long.toml", "-j", "2", "-o", "cut")
    assert p.returncode == 2 and "--resume" in p.stderr
    p = hxsweep("run", "long.toml", "-j", "2", "-o", "cut", "--resume")
    assert p.returncode == 0, p.stderr
    assert "80 of 80 trials ok" in p.stderr
    assert "this run: %d in" % (80 - len(before)) in p.stderr
    # Resumed, the table is the one an uninterrupted run writes.
    assert hxsweep("run", "long.toml", "-j", "1", "-o", "whole").returncode \
        == 0
    for name in ("results.jsonl", "results.csv",
                 "npy/sensor.A_index_MCP_pos.max.npy"):
        assert hxsweep.read("cut", name) == hxsweep.read("whole", name)


def test_ctrl_c_keeps_what_finished(hxsweep):
    hxsweep.write("long.toml", LONG)
    status, kids, err = _start_and_stop(hxsweep, "int", signal.SIGINT)
    assert status == 130, err
    assert "interrupted; hxsweep run --resume long.toml -o int" in err
    assert _gone(kids)
    r = rows(hxsweep, "int")
    assert len(r) >= 3
    assert [x["trial"] for x in r] == sorted(x["trial"] for x in r)
    csv = hxsweep.read("int", "results.csv").decode().splitlines()
    assert len(csv) == len(r) + 1


COMMAND = """model = "mpl_scene.xml"
[grid]
kp = [5, 20, 50]
target = [1.2]
[trial]
set = { "actuator_gainprm[A_index_MCP]" = "{kp}", "actuator_biasprm[A_index_MCP, 1]" = "{-kp}" }
command = '"$HX_PYTHON" trial.py %s'
"""


def test_a_command_trial_gets_its_daemon_and_parameters(hxsweep):
    hxsweep.copy("trial.py")
    hxsweep.write("cmd.toml", COMMAND % "")
    p = hxsweep("run", "cmd.toml", "-j", "2")
    assert p.returncode == 0, p.stderr
    r = rows(hxsweep, "cmd.out")
    assert [x["result"]["gain"] for x in r] == [5, 20, 50]
    assert [x["result"]["params"] for x in r] == [x["params"] for x in r]
    assert r[2]["result"]["max"] > r[0]["result"]["max"]


def test_a_failing_trial_is_reported_and_retried(hxsweep):
    hxsweep.copy("trial.py")
    os.mkdir(hxsweep.path("marks"))
    hxsweep.write("cmd.toml", COMMAND % "--fail-once marks --fail-if-kp 20")
    p = hxsweep("run", "cmd.toml", "-j", "2", "--retries", "1")
    assert p.returncode == 1
    assert "trial 0 failed (attempt 1 of 2): the command failed (exit " \
        "status 3): trial 0: failing once on purpose" in p.stderr
    assert "trial 1 failed (attempt 2 of 2): the command failed (exit " \
        "status 4): this gain always fails" in p.stderr
    assert "2 of 3 trials ok, 1 failed" in p.stderr
    r = rows(hxsweep, "cmd.out")
    assert [(x["status"], x["attempts"]) for x in r] == [
        ("ok", 2), ("failed", 2), ("ok", 2)]
    assert r[0]["errors"] == ["the command failed (exit status 3): "
                              "trial 0: failing once on purpose"]
    assert "result" not in r[1] and len(r[1]["errors"]) == 2
    csv = hxsweep.read("cmd.out", "results.csv").decode().splitlines()
    assert csv[2].endswith(",failed,2,,,,this gain always fails") or \
        "this gain always fails" in csv[2]
    # Without retries the first failure is final; --resume runs again
    # only what did not succeed.
    p = hxsweep("run", "cmd.toml", "--resume")
    assert p.returncode == 1 and "this run: 1 in" in p.stderr


def test_a_hanging_command_is_killed_after_the_trial_timeout(hxsweep):
    hxsweep.write("hang.toml", """model = "mpl_scene.xml"
[grid]
n = [1, 2]
[trial]
command = ["sleep", "{n * 1000 + 17}"]
""")
    t0 = time.monotonic()
    p = hxsweep("run", "hang.toml", "-j", "2", "--trial-timeout", "1")
    assert time.monotonic() - t0 < 60
    assert p.returncode == 1
    r = rows(hxsweep, "hang.out")
    assert [x["status"] for x in r] == ["failed", "failed"]
    assert r[0]["errors"] == ["the command did not finish within 1 s "
                              "(--trial-timeout): killed"]
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                cmd = open("/proc/%s/cmdline" % pid, "rb").read()
            except OSError:
                continue
            assert cmd not in (b"sleep\x001017\x00", b"sleep\x002017\x00")


def test_a_declared_trial_past_the_timeout_restarts_its_daemon(hxsweep):
    # 20000 s of the MPL scene take hours: the daemon is killed at the
    # timeout and started again for the next attempt and the next trial.
    hxsweep.write("slow.toml", """model = "mpl_scene.xml"
[grid]
n = [1, 2]
[trial]
time = 20000
""")
    t0 = time.monotonic()
    p = hxsweep("run", "slow.toml", "-j", "1", "--trial-timeout", "1",
                "--retries", "1")
    assert time.monotonic() - t0 < 60
    assert p.returncode == 1
    reason = ("did not finish within 1 s (--trial-timeout): its daemon was "
              "killed and started again")
    assert [(x["status"], x["errors"]) for x in rows(hxsweep, "slow.out")] \
        == [("failed", [reason] * 2)] * 2


def test_a_model_that_does_not_load_stops_the_sweep(hxsweep):
    hxsweep.write("broken.toml", """model = "broken.xml"
[grid]
kp = [1, 2, 3]
[trial]
steps = 10
""")
    p = hxsweep("run", "broken.toml", "-j", "2")
    assert p.returncode == 1
    assert "the model broken.xml did not load:" in p.stderr
    assert "unrecognized attribute: 'stiffnes'" in p.stderr
    assert rows(hxsweep, "broken.out") == []
    # A model the model directories do not have: where it looked, and
    # what to do.
    hxsweep.write("nosuch.toml", 'model = "nosuch.xml"\n[trial]\n'
                  'steps = 10\n')
    p = hxsweep("run", "nosuch.toml", models=False)
    assert p.returncode == 1
    assert "no model nosuch.xml in the model directories (" in p.stderr
    assert "hxsweep -M DIR or model_dirs = [DIR]" in p.stderr
    # A run that produced nothing blocks no next run, of this sweep
    # file mended: "broken.out holds results already" it said.
    hxsweep.write("broken.toml", """model = "mpl_scene.xml"
[grid]
kp = [1, 2, 3]
[trial]
steps = 10
""")
    p = hxsweep("run", "broken.toml", "-j", "2")
    assert p.returncode == 0, p.stderr
    assert [r["status"] for r in rows(hxsweep, "broken.out")] == ["ok"] * 3


BAD = [
    ('model = "m.xml"\n[trial]\nsteps = 10\nstpes = 3\n', 4,
     "unknown key 'stpes' in [trial] (did you mean 'steps'?)"),
    ('model = "m.xml"\n\n[trial]\nsteps = "500"\n', 4,
     '[trial] steps: must be a positive integer, not "500"'),
    ('model = "m.xml"\n[grid]\nkp = [1, 2]\nkd = []\n[trial]\nsteps = 1\n',
     4, "[grid] kd: an empty grid"),
    ('model = "m.xml"\nseed = 1.5\n[trial]\nsteps = 1\n', 2,
     "seed: must be a non-negative integer, not 1.5"),
    ('model = "m.xml"\n[grid]\nkp = [1]\n[trial]\nsteps = 1\n'
     'ctrl = { a = "{kq * 2}" }\n', 6, "unknown name 'kq'"),
    ('model = "m.xml"\n[trial]\nsteps = 1\n[[trial.schedule]]\ntime = 1\n'
     '[[trial.schedule]]\nstep = 2\nctl = {}\n', 8,
     "unknown key 'ctl' in [trial.schedule] item 2"),
    ('model = "m.xml"\n[trial]\nsteps = 1\nrecord = ["qpos", "qpso"]\n', 4,
     "unknown field 'qpso' (did you mean 'qpos'?)"),
    ('model = "m.xml"\n[trial]\nsteps = 1\nkeep = "all"\n', 4,
     '[trial] keep: "last", "series" or "summary", not "all"'),
    ('model = "m.xml"\n[trial\nsteps = 1\n', 2, "Expected ']'"),
    ('model = "m.xml"\n[grid]\nk = [1]\n\n[trial]\nkeyframe = "a"\n', 5,
     "[trial]: give steps or time, or a command"),
    ('model = "m.xml"\nfoo = 1\n[trial]\nsteps = 1\n', 2,
     "unknown key 'foo' in the top level"),
]


def test_bad_sweep_files_are_refused_by_line_before_anything_starts(
        hxsweep):
    # A haptixd that leaves a mark: nothing may start it.
    mark = hxsweep.path("started")
    fake = hxsweep.write("fake-haptixd", "#!/bin/sh\ntouch %s\n" % mark)
    os.chmod(hxsweep.path(fake), 0o755)
    for i, (text, line, words) in enumerate(BAD):
        name = hxsweep.write("bad%d.toml" % i, text)
        for cmd in ("run", "check"):
            p = hxsweep(cmd, name, "--haptixd", hxsweep.path(fake))
            assert p.returncode == 2, (name, p.stderr)
            assert p.stderr.startswith("hxsweep: %s:%d: " % (name, line)), \
                (text, p.stderr)
            assert words in p.stderr, (text, p.stderr)
    assert not os.path.exists(mark)
    assert not os.path.exists(hxsweep.path("bad0.out"))


NAMES = """model = "mpl_scene.xml"
[grid]
kp = [5, 20]
[trial]
set = { %s }
ctrl = { %s }
steps = 10
record = [%s]
%s
"""
GOOD = ('"actuator_gainprm[A_index_MCP]" = "{kp}"', 'A_index_MCP = 1.0',
        '"sensor:A_index_MCP_pos", "joint:index_MCP"', "")
# One wrong name or index at a time, and the words that must say so.
WRONG = [
    (1, 'A_indx_MCP = 1.0', "[trial] ctrl: no actuator named 'A_indx_MCP'"
     '; did you mean "A_index_MCP"?'),
    (0, '"actuator_gainprm[A_indx_MCP]" = 1',
     "[trial.set] actuator_gainprm[A_indx_MCP]: no actuator named "
     "'A_indx_MCP'; did you mean \"A_index_MCP\"?"),
    (0, '"actuator_gainpr[A_index_MCP]" = 1',
     'did you mean "actuator_gainprm"?'),
    (0, '"actuator_gainprm[A_index_MCP, 12]" = 1',
     "column 12 but actuator_gainprm has 10 columns"),
    (0, '"actuator_gainprm[99]" = 1',
     "row 99 but actuator_gainprm has 13 rows"),
    (2, '"sensor:A_index_MCP_pso"', "[trial] record: no sensor named "
     "'A_index_MCP_pso'; did you mean \"A_index_MCP_pos\"?"),
    (2, '"joint:index_MPC"', "[trial] record: no joint named 'index_MPC'"
     '; did you mean "index_MCP"?'),
    (3, 'keyframe = "hom"', "[trial] keyframe: no keyframe named 'hom'"),
    (3, '[[trial.schedule]]\nstep = 5\nctrl = { A_index_MPC = 0 }',
     '[trial.schedule] item 1 ctrl: no actuator named \'A_index_MPC\'; '
     'did you mean "A_index_MCP"?'),
]


def test_check_compiles_the_model_and_checks_every_name(hxsweep):
    # It accepted ctrl = { A_indx_MCP = ... }, and every trial then failed.
    hxsweep.write("good.toml", NAMES % GOOD)
    p = hxsweep("check", "good.toml")
    assert p.returncode == 0, p.stderr
    assert "good.toml: 2 trials" in p.stdout
    for i, (slot, text, words) in enumerate(WRONG):
        parts = list(GOOD)
        parts[slot] = text
        name = hxsweep.write("wrong%d.toml" % i, NAMES % tuple(parts))
        p = hxsweep("check", name)
        assert p.returncode == 2, (text, p.stdout, p.stderr)
        assert words in p.stderr, (text, p.stderr)
    # An edit is compiled, and the names it adds count.
    hxsweep.write("edit.toml", (NAMES % GOOD) + 'edit = [{ op = "add", '
                  'type = "site", name = "tip", parent = "worldbody" }]\n')
    p = hxsweep("check", "edit.toml")
    assert p.returncode == 0, p.stderr


FIXTURE = """model = "fixture.xml"
[grid]
size = [0.05, 0.1]
[trial]
keyframe = "raised"
edit = [{ op = "set", type = "geom", name = "link2", attrs = { size = "{size}" } }]
ctrl = { servo1 = -0.5 }
steps = 200
record = ["ctrl", "joint:hinge1", "geom"]
keep = "series"
every = 20
[[trial.schedule]]
step = 100
ctrl = { servo1 = 0.8 }
"""


def test_keyframes_edits_schedules_and_series(hxsweep):
    hxsweep.write("fix.toml", FIXTURE)
    p = hxsweep("run", "fix.toml", "-j", "1")
    assert p.returncode == 0, p.stderr
    r = rows(hxsweep, "fix.out")
    for x in r:
        res = x["result"]
        assert len(res["time"]) == 10
        assert np.allclose(np.diff(res["time"]), 20 * 0.002)
        ctrl = np.array(res["ctrl"])
        # servo2 from the keyframe; servo1 from [trial.ctrl], then the
        # schedule's at step 100 (rows after steps 20, 40, ... 200).
        assert (ctrl[:, 1] == -0.5).all()
        assert (ctrl[:5, 0] == -0.5).all() and (ctrl[5:, 0] == 0.8).all()
        assert np.array(res["joint.hinge1"]).shape == (10, 1)
        assert np.array(res["geom_pos"]).shape[0] == 10
    # The edit reached the model, and each trial started from the model
    # as loaded (a reload undid the last trial's edit).
    q = [np.array(x["result"]["joint.hinge1"])[:, 0] for x in r]
    assert not np.array_equal(q[0], q[1])
    p = hxsweep("run", "fix.toml", "-j", "2", "-o", "two")
    assert p.returncode == 0
    assert hxsweep.read("fix.out", "results.jsonl") == \
        hxsweep.read("two", "results.jsonl")


def test_hostile_values_never_reach_the_batch_script_as_lines(hxsweep):
    # A name holding a newline broke out of job.sh's comment and its
    # #SBATCH --job-name line, and running the script ran what followed.
    hxsweep.copy("gain.toml")
    with open(hxsweep.path("gain.toml")) as f:
        text = f.read()
    hxsweep.write("nl.toml", 'name = "x\\ntouch pwned"\n' + text)
    cases = [
        (["nl.toml"], "the sweep's name holds the control character '\\n'"),
        (["gain.toml", "--partition", "batch\ntouch pwned"],
         "--partition holds the control character '\\n'"),
        (["gain.toml", "--time", "10\rx"],
         "--time holds the control character '\\r'"),
        (["gain.toml", "--sbatch-arg=--mem=1G\x1b[2J"],
         "--sbatch-arg holds the control character '\\x1b'"),
        (["gain.toml", "-o", "out\nx"], "OUT holds the control character"),
        (["gain.toml", "-o", "out\\x"], "holds a backslash"),
    ]
    for args, words in cases:
        for cmd in (["submit", args[0], "--slurm", "--dry-run"],
                    ["check", args[0], "--slurm"]):
            p = hxsweep(*(cmd + args[1:]))
            assert p.returncode == 2, (cmd, args, p.stdout)
            assert words in p.stderr, (cmd, args, p.stderr)
            assert "#!/bin/sh" not in p.stdout
    # Nothing was written, and no line ran.
    assert sorted(os.listdir(hxsweep.dir)) == ["gain.toml", "nl.toml"]


def test_slurm_values_go_to_sbatch_as_words_and_percent_is_kept(hxsweep):
    hxsweep.copy("gain.toml")
    out = "run %x $(touch pwned) 'q'"
    p = hxsweep("submit", "gain.toml", "--slurm", "--dry-run", "-o", out,
                "--partition", "$(touch pwned)", "--time", "10",
                "--sbatch-arg=--comment=a b 'c'", "--tasks", "2")
    assert p.returncode == 0, p.stderr
    with open(hxsweep.path(out, "job.sh")) as f:
        script = f.read()
    lines = script.split("\n")
    # Only numbers in the #SBATCH lines; every user value in one quoted
    # comment line or a quoted shell word.
    assert [x for x in lines if x.startswith("#SBATCH")] == [
        "#SBATCH --array=0-1", "#SBATCH --ntasks=1",
        "#SBATCH --cpus-per-task=1"]
    shell = [x for x in lines if x and not x.startswith("#")]
    assert len(shell) == 3 and shell[2].startswith("exec ")
    assert "pwned" not in "\n".join(shell[:2])
    # The script itself runs no user word: sh -n parses, and the command
    # line sbatch would get is exact, OUT's % doubled for --output.
    assert subprocess.run(["sh", "-n", hxsweep.path(out, "job.sh")]).returncode == 0
    with open(hxsweep.path(out, "slurm.json")) as f:
        s = json.load(f)
    import haptix.sweep.slurm as slurm
    argv = slurm.sbatch_command(s)
    o = os.path.abspath(hxsweep.path(out))
    assert argv == ["sbatch", "--parsable", "--job-name=hxsweep-gain",
                    "--output=" + o.replace("%", "%%") + "/logs/task_%a.log",
                    "--partition=$(touch pwned)", "--time=10",
                    "--comment=a b 'c'", o + "/job.sh"]
    p = hxsweep("check", "gain.toml", "--slurm", "-o", out, "--partition",
                "$(touch pwned)", "--time", "10",
                "--sbatch-arg=--comment=a b 'c'", "--tasks", "2")
    assert p.returncode == 0, p.stderr
    assert script in p.stdout
    assert not os.path.exists(hxsweep.path("pwned"))
