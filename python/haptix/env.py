"""An environment for learning, with Gymnasium's conventions.

    env = haptix.Env(server, obs=("qpos", "qvel"), frame_skip=10,
                     reward=lambda obs, action, info: -abs(obs[0] - 0.5))
    obs, info = env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(env.action_space.sample())

It needs no Gymnasium: when Gymnasium is importable the class is a true
``gymnasium.Env`` and its spaces ``gymnasium.spaces.Box``; else the
spaces are :class:`Box`, which has the same ``shape``, ``low``, ``high``,
``dtype``, ``sample()`` and ``contains()``.  Each ``step`` is one batch
request of ``frame_skip`` steps (the controls applied first), so the
simulation is paused and stepped in lock-step; reward and termination are
the user's functions.  The only randomness is the reset's noise, drawn
from the seeded generator, and MuJoCo is deterministic: the same seed
and actions give the same observations, bit for bit.
"""

import numpy as np

from . import address
from . import batch as _batch
from .stream import frame_keys
from .render import Frames, Viewer
from .sim import Sim, connect

try:                                    # pragma: no cover - not in Debian 12
    import gymnasium as _gym
    _Base = _gym.Env
except ImportError:
    _gym = None
    _Base = object

# The fields an observation may hold (batch records, in frame_keys'
# members: mocap is mocap_pos then mocap_quat).
_OBS = ("qpos", "qvel", "act", "ctrl", "sensordata", "mocap",
        "qfrc_applied", "xfrc_applied")


class Box:
    """A box in R^n, as gymnasium.spaces.Box: ``low``, ``high``,
    ``shape``, ``dtype``, ``sample()``, ``contains(x)``, ``seed(n)``."""

    def __init__(self, low, high, dtype=np.float64):
        self.low = np.asarray(low, dtype=dtype)
        self.high = np.asarray(high, dtype=dtype)
        self.shape = self.low.shape
        self.dtype = np.dtype(dtype)
        self._rng = np.random.default_rng()

    def seed(self, seed=None):
        """Seed sample()'s generator."""
        self._rng = np.random.default_rng(seed)
        return [seed]

    def sample(self):
        """A point: uniform where bounded, normal where not."""
        lo = np.where(np.isfinite(self.low), self.low, -1.0)
        hi = np.where(np.isfinite(self.high), self.high, 1.0)
        x = self._rng.uniform(lo, hi)
        free = ~np.isfinite(self.low) & ~np.isfinite(self.high)
        x[free] = self._rng.normal(size=int(free.sum()))
        return x.astype(self.dtype)

    def contains(self, x):
        """True if x has the box's shape and lies within its bounds."""
        x = np.asarray(x)
        return x.shape == self.shape and bool(np.all(x >= self.low) and
                                              np.all(x <= self.high))

    def __repr__(self):
        return "Box(%s, %s)" % (self.shape, self.dtype)


def _box(low, high):
    if _gym is not None:                # pragma: no cover
        return _gym.spaces.Box(low, high, dtype=np.float64)
    return Box(low, high)


class Env(_Base):
    """A haptixd simulation as an environment.

    ``sim``: a :class:`haptix.Sim` or a server address (None: the
    default one).  ``obs``: the fields observed, concatenated (qpos,
    qvel, act, ctrl, sensordata, mocap, qfrc_applied, xfrc_applied).
    ``frame_skip``: steps per ``step()``.  ``reward(obs, action, info)``
    and ``terminated(obs, info)``: the user's functions (default: 0 and
    never).  ``max_episode_steps``: truncation.  ``reset_key``: the
    keyframe (number or name) a reset goes to (None: the reference
    configuration); ``reset_noise``: half-width of the uniform noise
    added to qpos and qvel at a reset.  ``options`` of ``reset`` may
    give ``key`` and ``noise`` for one reset.

    The action space is the actuators' control ranges (±inf where not
    limited); actions are clipped to it.  ``info`` holds ``time``,
    ``steps`` (of this episode), ``resets`` (MuJoCo's, for instability)
    and ``sensordata``.

    ``render_mode``: ``"rgb_array"``, and ``render()`` returns a picture
    of the state after the last step, (height, width, 3) uint8, drawn by
    MuJoCo's renderer through an ``hxview frames`` the environment owns,
    at ``render_size`` (width, height) through ``camera`` (a camera of
    the model; None: the free camera); ``"human"``, and the workbench
    (``hxview serve``, read-only) watches the simulation at
    ``render_url``; ``hxview`` names the program (None: ``$HXVIEW``, the
    PATH, the system's).
    """

    metadata = {"render_modes": ["rgb_array", "human"]}

    def __init__(self, sim=None, obs=("qpos", "qvel"), frame_skip=1,
                 reward=None, terminated=None, max_episode_steps=None,
                 reset_key=None, reset_noise=0.0, render_mode=None,
                 render_size=(640, 480), camera=None, hxview=None):
        if render_mode not in (None,) + tuple(self.metadata["render_modes"]):
            raise ValueError("render_mode %r: one of None, %s" % (
                render_mode, ", ".join(self.metadata["render_modes"])))
        self.render_mode = render_mode
        self.render_size = tuple(render_size)
        self.camera = camera
        self.hxview = hxview
        self.render_url = None
        self._frames = self._viewer = None
        self._request = None
        self._own = not isinstance(sim, Sim)
        self.sim = connect(sim, name="haptix.Env") if self._own else sim
        if isinstance(obs, str):
            obs = [obs]
        for f in obs:
            if f not in _OBS:
                raise ValueError("unknown observation field '%s': one of %s"
                                 % (f, ", ".join(_OBS)))
        self.obs_fields = list(obs)
        self.frame_skip = int(frame_skip)
        self.reward_fn = reward
        self.terminated_fn = terminated
        self.max_episode_steps = max_episode_steps
        self.reset_key = reset_key
        self.reset_noise = reset_noise
        self.np_random = np.random.default_rng()
        self._steps = 0
        m = self.sim.model
        lo, hi = m.ctrl_bounds()
        self.action_space = _box(lo, hi)
        n = len(self._observe_now())
        self.observation_space = _box(np.full(n, -np.inf),
                                      np.full(n, np.inf))
        self.metadata = dict(self.metadata, render_fps=max(1, round(
            1 / (m.timestep * self.frame_skip))) if m.timestep > 0 else 30)
        if render_mode == "human":
            self._viewer = Viewer(self._server(), hxview)
            self.render_url = self._viewer.url

    def _concat(self, parts):
        return np.concatenate([np.ravel(p) for p in parts]) if parts \
            else np.zeros(0)

    def _observe_now(self):
        """The observation of the state as it is, without stepping."""
        s = self.sim
        got, parts = {}, []
        for f in self.obs_fields:
            if f in ("qpos", "qvel", "act"):
                got.setdefault("state", s.get_state())
                parts.append(got["state"][f])
            elif f == "ctrl":
                parts.append(s.get_control().ctrl)
            elif f == "sensordata":
                parts.append(s.get_sensor().sensordata)
            elif f == "mocap":
                m = s.get_mocap()
                parts += [m.pos, m.quat]
            else:
                got.setdefault("applied", s.get_applied())
                parts.append(got["applied"][f])
        return self._concat(parts)

    def reset(self, seed=None, options=None):
        """Reset the simulation (paused) to the reset keyframe, with the
        seeded noise; returns ``(obs, info)``."""
        if seed is not None:
            self.np_random = np.random.default_rng(seed)
            self.action_space.seed(seed)
        options = options or {}
        key = options.get("key", self.reset_key)
        noise = options.get("noise", self.reset_noise)
        s = self.sim
        s.pause()
        s.reset(key)
        if noise:
            st = s.get_state()
            s.set_state(st, qpos=st.qpos + self.np_random.uniform(
                -noise, noise, st.qpos.size), qvel=st.qvel +
                self.np_random.uniform(-noise, noise, st.qvel.size))
        self._steps = 0
        sensor = s.get_sensor()
        info = {"time": sensor.time, "steps": 0, "resets": 0,
                "sensordata": sensor.sensordata}
        return self._observe_now(), info

    def step(self, action):
        """Apply the action (clipped to the control ranges) for
        frame_skip steps; returns ``(obs, reward, terminated, truncated,
        info)``."""
        return self.step_wait(self.step_send(action))

    def step_send(self, action):
        """The first half of :meth:`step`: the request sent, not waited
        for (:class:`haptix.VectorEnv` sends every environment's before
        waiting for any).  Returns what :meth:`step_wait` takes."""
        if self._request is None:
            self._make_request()
        ctrl = self._ctrl
        np.maximum(np.asarray(action, dtype=np.float64).ravel(),
                   self.action_space.low, out=ctrl)
        np.minimum(ctrl, self.action_space.high, out=ctrl)
        return ctrl.copy(), self.sim.conn.send("batch", self._request)

    def _make_request(self):
        """A step's request, as bytes made once: each step writes its
        controls into them (``_ctrl``, a view of their place), since a
        step's Python time is what a vector of them waits for."""
        nu = self.action_space.shape[0]
        mark = np.arange(nu) + np.pi    # values to find the place by
        msg, _ = _batch.request(self.frame_skip, None, mark,
                                self.obs_fields, self.frame_skip)
        self._request = bytearray(msg.SerializeToString())
        at = self._request.find(mark.tobytes())
        if at < 0:                      # pragma: no cover
            raise AssertionError("the controls are not packed doubles")
        self._ctrl = np.frombuffer(self._request, np.float64, nu, at)
        self._members = _batch.frame_numbers(frame_keys(self.obs_fields))

    def step_wait(self, sent, timeout=None):
        """The second half of :meth:`step`: its answer, waited for at
        most ``timeout`` seconds (None: as long as it takes), its arrays
        read straight from the answer's bytes."""
        a, rid = sent
        body, top = self.sim.conn.wait(rid, "batch", timeout, raw=True)
        time, resets, sensordata, obs = _batch.step_answer(
            body, self._members, top)
        if obs is None:                 # no frame: the state as it is
            obs = self._observe_now()
        self._steps += 1
        info = {"time": time, "steps": self._steps, "resets": resets,
                "sensordata": sensordata}
        reward = float(self.reward_fn(obs, a, info)) if self.reward_fn \
            else 0.0
        terminated = bool(self.terminated_fn(obs, info)) \
            if self.terminated_fn else False
        truncated = self.max_episode_steps is not None and \
            self._steps >= self.max_episode_steps
        return obs, reward, terminated, truncated, info

    def _server(self):
        """The daemon's address, for the hxview of this environment."""
        return address.format(self.sim.conn.address)

    def render(self):
        """``rgb_array``: the picture of the state now; ``human``: None
        (the workbench at ``render_url`` follows the simulation by
        itself); no render_mode: None."""
        if self.render_mode != "rgb_array":
            return None
        return self.frames().grab()

    def frames(self):
        """The :class:`haptix.render.Frames` that draws this
        environment's pictures, started on first use."""
        if self._frames is None:
            self._frames = Frames(self._server(), self.render_size,
                                  self.camera, self.hxview)
        return self._frames

    def close(self):
        """End the renderer, and close the connection if the
        environment opened it."""
        for r in (self._frames, self._viewer):
            if r is not None:
                r.close()
        self._frames = self._viewer = None
        if self._own:
            self.sim.close()
