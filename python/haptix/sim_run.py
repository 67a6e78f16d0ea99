"""Sim's run control: step, update, reset, keyframes, pause, run,
batch runs, speed and status."""

from . import batch as _batch
from .errors import BadValue
from .proto import pb
from .sim_args import f64


class SimRun:
    """Running: step, update, reset, keyframes, pause, run, speed.

    Mixed into :class:`haptix.Sim`, whose ``_call`` it uses.
    """

    def step(self, count=1):
        """Take count steps while paused (none while running); returns
        the steps taken."""
        return self._call("step", pb.Step(count=count), "step_done",
                          timeout=None).steps

    def update(self, ctrl=None):
        """HAPTIX's mj_update: set the controls (if given), then one step
        while paused, or wait for the next API tick while running; the
        sensors after it."""
        msg = pb.Update()
        if ctrl is not None:
            c = f64(ctrl["ctrl"] if isinstance(ctrl, dict) else ctrl, "ctrl")
            msg.control.CopyFrom(pb.Control(nu=c.size, ctrl=c))
        return self._get("update", msg, "sensor", timeout=None)

    def reset(self, key=None, keep_params=False):
        """Reset: to the model's reference configuration (None), a keyframe
        by number, or by name (a keyframe, or a state captured with
        capture_key).  The model parameters clients changed go back to
        the model's unless keep_params."""
        msg = pb.Reset(keep_params=keep_params)
        if isinstance(key, str):
            msg.name = key
        else:
            msg.keyframe = -1 if key is None else int(key)
        self._call("reset", msg)

    def capture_key(self, name=None, keyframe=0):
        """Save the state (HAPTIX's Sim=>Key): under name (a keyframe of
        that name, else kept by the server until the next load), or into
        keyframe number ``keyframe``."""
        self._call("capture_key", pb.KeyCapture(name=name or "",
                                                keyframe=keyframe))

    def pause(self):
        """Pause the simulation."""
        self._call("pause")

    def run(self, steps=None, until=None, ctrl=None, record=None, every=1):
        """Without arguments: let the simulation run.

        With ``steps`` or ``until`` (simulated seconds): a batch run in
        one request while paused (see :meth:`batch`).
        """
        if steps is None and until is None:
            if ctrl is not None or record is not None:
                raise BadValue("a batch run needs steps or until")
            self._call("run")
            return None
        return self.batch(steps=steps, until=until, ctrl=ctrl,
                          record=record, every=every)

    def batch(self, steps=None, until=None, ctrl=None, record=None,
              every=1):
        """Lock-step: set ``ctrl`` (if given), then take ``steps`` steps,
        or step to the simulated time ``until``, in one request.

        Returns a dict of arrays: with ``record`` (field names: qpos,
        qvel, act, ctrl, mocap, sensordata, body, geom, site,
        qfrc_applied, xfrc_applied, contacts, status), a row after every
        ``every``-th step in ``"step"``, ``"time"`` and each field's array
        (``"qpos"`` (rows, nq), ``"mocap_pos"`` (rows, nmocap, 3),
        ``"body_pos"`` (rows, nbody, 3), ...); and always the
        ``"sensordata"`` after the last step as ``result.sensor``, with
        ``result.steps``, ``result.time``, ``result.resets``.
        """
        return _batch.run(self, steps, until, ctrl, record, every)

    def set_speed(self, factor=1.0):
        """Set the speed: a factor of real time, or "max"."""
        if factor == "max":
            self._call("set_speed", pb.Speed(max=True))
        else:
            self._call("set_speed", pb.Speed(factor=float(factor)))

    def status(self):
        """The server's status: time, steps, paused, speed, counters,
        limits, the recording, the lease holder... as a Struct."""
        return self._get("status", None, "status")
