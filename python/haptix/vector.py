"""Vectorized environments: many :class:`haptix.Env` stepping in parallel,
one daemon each, with Gymnasium 1.x's vector conventions.

    venv = haptix.VectorEnv("mpl_scene.xml", num_envs=2, frame_skip=10,
                            reward=lambda obs, a, info: ...)
    obs, infos = venv.reset(seed=1)             # obs: (2, dim)
    obs, rewards, terminated, truncated, infos = venv.step(actions)
    venv.close()

Given a model, it starts ``num_envs`` daemons of its own (paused, each on
a Unix socket in a scratch directory, as hxsweep's pool does, so that
libhaptix's shared memory carries the frames) and owns them; given
``servers``, it uses daemons already running (other machines over TCP,
``tls:`` with the TLS settings of $HAPTIX_TLS_*), loading the model into
each when one is given.

Each ``step`` sends every environment's batch request before waiting for
any answer: the daemons step at once, each on its own core.  Autoreset
is Gymnasium's ``NEXT_STEP``: the step after an environment terminated
or was truncated resets it instead (its action ignored, reward 0,
neither flag set).  ``reset(seed=s)`` seeds environment ``i`` with
``s + i`` (or a list gives each its own).  A daemon that dies, or that
answers no step within ``step_timeout`` seconds, is killed and started
again (one of ours) or connected to again (the user's), and its
environment reported truncated with ``infos["restarted"]`` set: a step
never hangs.  ``infos`` is a dict of arrays with a ``"_name"`` mask
beside each, as Gymnasium's vector environments give them.
"""

import os
import shutil
import tempfile
import threading

import numpy as np

from . import address
from .env import Env, Box, _gym
from .errors import CannotRecv, CannotSend, NoConnection, Timeout
from .sim import connect

__all__ = ["VectorEnv", "AUTORESET_NEXT_STEP"]

# A daemon lost or silent: what a step survives by starting it again.
_LOST = (CannotRecv, CannotSend, NoConnection, Timeout, OSError)

if _gym is not None:                    # pragma: no cover - not in Debian 12
    from gymnasium.vector import AutoresetMode as _Mode
    from gymnasium.vector import VectorEnv as _VBase
    from gymnasium.vector.utils import batch_space as _batch_space
    AUTORESET_NEXT_STEP = _Mode.NEXT_STEP
else:
    _VBase = object
    _batch_space = None
    AUTORESET_NEXT_STEP = "next_step"

# Env's own options, passed to each environment.
_ENV_OPTIONS = ("obs", "frame_skip", "reward", "terminated",
                "max_episode_steps", "reset_key", "reset_noise",
                "render_size", "camera", "hxview")


def _batched(space, n):
    """n of a Box, as one Box of shape (n, ...)."""
    if _batch_space is not None:        # pragma: no cover
        return _batch_space(space, n)
    return Box(np.broadcast_to(space.low, (n,) + space.shape).copy(),
               np.broadcast_to(space.high, (n,) + space.shape).copy(),
               space.dtype)


def _add_info(infos, i, info, n):
    """Environment i's info into the batched infos: each key an array
    over the environments, with a mask of those that set it."""
    for k, v in info.items():
        if k not in infos:
            arr = np.asarray(v)
            if arr.ndim == 0 and arr.dtype.kind in "biuf":
                infos[k] = np.zeros(n, dtype=arr.dtype)
            else:
                infos[k] = np.empty(n, dtype=object)
            infos["_" + k] = np.zeros(n, dtype=bool)
        infos[k][i] = v
        infos["_" + k][i] = True


def _placement(cpus, n):
    """The CPUs of each of n daemons (a set, or None: any), from
    VectorEnv's ``cpus``."""
    allowed = sorted(os.sched_getaffinity(0))
    if cpus is None:                    # placed when they fill the CPUs
        cpus = "auto" if n >= len(allowed) else False
    if cpus is False:
        return [None] * n
    if cpus == "auto":
        cpus = allowed
    elif isinstance(cpus, (str, bool)) or not len(cpus):
        raise ValueError("VectorEnv: cpus is None, \"auto\", False or a "
                         "list of CPUs, not %r" % (cpus,))
    return [{c} if isinstance(c, int) else set(c)
            for c in (cpus[i % len(cpus)] for i in range(n))]


class _Slot:
    """One environment and where its daemon comes from."""

    def __init__(self, env, daemon=None, server=None):
        self.env = env
        self.daemon = daemon            # ours: haptix.sweep.daemon.Daemon
        self.server = server            # the user's address


class VectorEnv(_VBase):
    """``num_envs`` environments over a pool of daemons.

    ``model``: a model file (a path, or a name in ``model_dirs`` or the
    daemon's model directories) for daemons of our own, or to load into
    the user's.  ``num_envs``: how many daemons to start (default: the
    CPUs this process may use).  ``servers``: addresses of daemons
    already running, one environment each, in place of ours.
    ``haptixd``: the daemon to start (None: ``$HAPTIXD``, the PATH, the
    system's).  ``cpus``: where our daemons run: ``"auto"``,
    environment ``i``'s daemon on the ``i``-th of the CPUs this process
    may use (wrapping round), which keeps the daemons from waking onto
    each other's CPU; False, where the kernel puts them; a list,
    environment ``i``'s on ``cpus[i % len(cpus)]`` (a CPU number, or a
    set of them); None (default), ``"auto"`` when the daemons are at
    least as many as those CPUs (the vector fills them: a machine or a
    Slurm allocation of its own), else False (docs/rl.md).  ``step_timeout``: seconds a step may take before its
    daemon is taken for hung.  ``render_mode``: ``"rgb_array"`` (each
    environment's picture, a tuple) or ``"human"`` (the workbench watches
    the first environment at ``render_url``).  ``make_env(sim, **kw)``
    makes each environment on its daemon's Sim (default
    :class:`haptix.Env`; a task's own, such as
    :func:`haptix.tasks.mpl_grasp`, whose reward needs the model).  The
    rest are
    :class:`haptix.Env`'s: ``obs``, ``frame_skip``, ``reward``,
    ``terminated``, ``max_episode_steps``, ``reset_key``,
    ``reset_noise``, ``render_size``, ``camera``, ``hxview``.
    """

    metadata = {"render_modes": ["rgb_array", "human"],
                "autoreset_mode": AUTORESET_NEXT_STEP}

    def __init__(self, model=None, num_envs=None, servers=None,
                 haptixd=None, model_dirs=(), step_timeout=60.0,
                 render_mode=None, make_env=None, cpus=None, **kw):
        unknown = set(kw) - set(_ENV_OPTIONS)
        if unknown:
            raise TypeError("VectorEnv: unknown option %s"
                            % ", ".join(sorted(unknown)))
        if servers is None and model is None:
            raise ValueError("VectorEnv: give a model (daemons of its "
                             "own) or servers (daemons running)")
        if servers is not None and cpus not in (None, False):
            raise ValueError("VectorEnv: cpus places daemons of its own, "
                             "not the servers given")
        if render_mode not in (None, "rgb_array", "human"):
            raise ValueError("render_mode %r: one of None, rgb_array, "
                             "human" % (render_mode,))
        self.model = model
        self.model_dirs = list(model_dirs)
        self.step_timeout = step_timeout
        self.render_mode = render_mode
        self.render_url = None
        self._kw = kw
        self._make_env = make_env or Env
        self._haptixd = haptixd
        self._cpus = cpus
        self._scratch = None
        self._slots = []
        self.closed = False
        try:
            if servers is None:
                n = num_envs or len(os.sched_getaffinity(0))
                self._start_own(int(n))
            else:
                self._connect_given(list(servers))
        except BaseException:
            self.close()
            raise
        self.num_envs = len(self._slots)
        first = self._slots[0].env
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = _batched(first.observation_space,
                                          self.num_envs)
        self.action_space = _batched(first.action_space, self.num_envs)
        self.metadata = dict(self.metadata,
                             render_fps=first.metadata["render_fps"])
        self.render_url = first.render_url
        self._autoreset = np.zeros(self.num_envs, dtype=bool)

    # The pool.

    def _env(self, sim, i):
        mode = self.render_mode
        if mode == "human" and i > 0:
            mode = None
        return self._make_env(sim, render_mode=mode, **self._kw)

    def _start_own(self, n):
        from .sweep.daemon import Daemon, find_haptixd
        haptixd = find_haptixd(self._haptixd)
        self._scratch = tempfile.mkdtemp(prefix="haptix-vector-")
        dirs = list(self.model_dirs)
        if os.path.isabs(self.model):
            dirs.append(os.path.dirname(self.model))
        cpus = _placement(self._cpus, n)
        daemons = [Daemon(haptixd, os.path.join(self._scratch, "e%d" % i),
                          self.model, dirs, name="haptix.VectorEnv",
                          cpus=cpus[i])
                   for i in range(n)]
        # Started here (a daemon ends with the thread that started it),
        # then waited for side by side: each loads the model on its own
        # core.
        self._slots = [_Slot(None, d) for d in daemons]
        for d in daemons:
            d.spawn()
        errors = [None] * n

        def attach(i):
            try:
                daemons[i].attach()
            except BaseException as e:  # raised below, in this thread
                errors[i] = e
        threads = [threading.Thread(target=attach, args=(i,))
                   for i in range(n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for e in errors:
            if e is not None:
                raise e
        for i, s in enumerate(self._slots):
            s.env = self._env(s.daemon.sim, i)

    def _connect_given(self, servers):
        for i, server in enumerate(servers):
            sim = connect(server, name="haptix.VectorEnv")
            try:
                if self.model is not None:
                    sim.load(path=self.model)
                env = self._env(sim, i)
            except BaseException:
                sim.close()
                raise
            env._own = True             # its connection, closed with it
            self._slots.append(_Slot(env, server=server))

    def _revive(self, i):
        """Environment i's daemon again: ours started anew, the user's
        connected to anew; a fresh environment on it."""
        s = self._slots[i]
        old = s.env
        seed = int(old.np_random.integers(2 ** 31))
        try:
            old.close()
        except Exception:               # its connection is gone anyway
            pass
        if s.daemon is not None:
            s.daemon.kill()
            sim = s.daemon.start()
        else:
            sim = connect(s.server, name="haptix.VectorEnv")
            if self.model is not None:
                sim.load(path=self.model)
        s.env = self._env(sim, i)
        s.env._own = s.daemon is None
        return s.env.reset(seed=seed)

    # Gymnasium's vector API.

    def reset(self, seed=None, options=None):
        """Reset every environment; returns ``(obs, infos)``, obs of shape
        (num_envs, dim).  ``seed``: an int (environment i gets seed + i),
        a list of one per environment, or None."""
        n = self.num_envs
        if seed is None:
            seeds = [None] * n
        elif isinstance(seed, (list, tuple, np.ndarray)):
            if len(seed) != n:
                raise ValueError("reset: %d seeds for %d environments"
                                 % (len(seed), n))
            seeds = [None if x is None else int(x) for x in seed]
        else:
            seeds = [int(seed) + i for i in range(n)]
        obs = np.zeros(self.observation_space.shape)
        infos = {}
        for i, s in enumerate(self._slots):
            try:
                obs[i], info = s.env.reset(seed=seeds[i], options=options)
            except _LOST:
                obs[i], info = self._revive(i)
                info["restarted"] = True
            _add_info(infos, i, info, n)
        self._autoreset[:] = False
        return obs, infos

    def step(self, actions):
        """One step of every environment (NEXT_STEP autoreset); returns
        ``(obs, rewards, terminated, truncated, infos)``, batched."""
        n = self.num_envs
        actions = np.asarray(actions, dtype=np.float64).reshape(
            (n,) + self.single_action_space.shape)
        obs = np.zeros(self.observation_space.shape)
        rewards = np.zeros(n)
        terminated = np.zeros(n, dtype=bool)
        truncated = np.zeros(n, dtype=bool)
        infos = {}
        sent = [None] * n
        # Every request out before any answer is waited for.
        for i, s in enumerate(self._slots):
            if not self._autoreset[i]:
                try:
                    sent[i] = s.env.step_send(actions[i])
                except _LOST as e:
                    sent[i] = e
        for i, s in enumerate(self._slots):
            if self._autoreset[i]:
                try:
                    obs[i], info = s.env.reset()
                except _LOST:
                    obs[i], info = self._revive(i)
                    info["restarted"] = True
                _add_info(infos, i, info, n)
                continue
            try:
                if isinstance(sent[i], Exception):
                    raise sent[i]
                (obs[i], rewards[i], terminated[i], truncated[i],
                 info) = s.env.step_wait(sent[i], self.step_timeout)
            except _LOST:
                obs[i], info = self._revive(i)
                truncated[i] = True
                info["restarted"] = True
            _add_info(infos, i, info, n)
        self._autoreset = terminated | truncated
        return obs, rewards, terminated, truncated, infos

    def render(self):
        """``rgb_array``: each environment's picture of its state now, a
        tuple (each asked for before any is read: the hxviews draw at
        once); ``human``: None."""
        if self.render_mode != "rgb_array":
            return None
        frames = [s.env.frames() for s in self._slots]
        for f in frames:
            f.ask()
        return tuple(f.read() for f in frames)

    def close(self, **kwargs):
        """Close every environment, stop our daemons, remove their
        scratch directory."""
        if self.closed:
            return
        self.closed = True
        for s in self._slots:
            if s.env is not None:
                try:
                    s.env.close()
                except Exception:
                    pass
            if s.daemon is not None:
                s.daemon.stop()
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)

    @property
    def envs(self):
        """The environments, each a :class:`haptix.Env`."""
        return [s.env for s in self._slots]

    def servers(self):
        """Each environment's daemon, as an address."""
        return [address.format(s.env.sim.conn.address) for s in self._slots]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass
