"""Tasks for learning on the bundled MPL scene (models/mpl_scene.xml):
the observations, the reward and the episode, the same for
:class:`haptix.Env`, :class:`haptix.VectorEnv` and ``gymnasium.make``.

**MPL grasp** (``haptix/MPLGrasp-v0``): the hand holds still over the
cube; the actions are its 13 motors' controls; an episode is
``max_episode_steps`` (50) steps of ``frame_skip`` (10) physics steps,
one second of simulated time.  The reward of a step is how many of the
fingers' and thumb's touch sensors press on something, each counted up
to 1 N (so grasping pays, crushing does not), less 0.01 per unit of the
controls' squared size.  The zero policy (the hand open) earns 0.
"""

import numpy as np

from .env import Env, _gym

__all__ = ["MPL_GRASP_TOUCH", "mpl_grasp_reward", "mpl_grasp",
           "mpl_grasp_vector", "register_gymnasium"]

MPL_MODEL = "mpl_scene.xml"
# The touch sensors that count: the thumb's and fingers' segments.
MPL_GRASP_TOUCH = tuple("%s_%s" % (f, s)
                        for f in ("thumb", "index", "middle", "ring", "pinky")
                        for s in ("proximal", "medial", "distal"))
MPL_GRASP_OPTIONS = {"obs": ("qpos", "qvel"), "frame_skip": 10,
                     "max_episode_steps": 50}
_EFFORT = 0.01


def mpl_grasp_reward(model):
    """The grasp's reward function for a model with the MPL's sensors:
    ``reward(obs, action, info)``."""
    idx = np.array([model.sensor_index(n) for n in MPL_GRASP_TOUCH])

    def reward(obs, action, info):
        touch = np.asarray(info["sensordata"])[idx]
        return float(np.minimum(touch, 1.0).sum()
                     - _EFFORT * np.dot(action, action))
    return reward


def mpl_grasp(sim=None, **kw):
    """The grasp as one :class:`haptix.Env` on ``sim`` (a Sim or an
    address; its model must be the MPL scene); ``kw`` overrides
    :data:`MPL_GRASP_OPTIONS` and passes Env's own options."""
    env = Env(sim, **dict(MPL_GRASP_OPTIONS, **kw))
    env.reward_fn = mpl_grasp_reward(env.sim.model)
    return env


def mpl_grasp_vector(num_envs=None, **kw):
    """The grasp as a :class:`haptix.VectorEnv` of ``num_envs`` daemons
    of its own loading the MPL scene (or over ``servers=[...]``)."""
    from .vector import VectorEnv
    kw = dict(MPL_GRASP_OPTIONS, **kw)
    kw.setdefault("model", None if "servers" in kw else MPL_MODEL)
    return VectorEnv(num_envs=num_envs, make_env=mpl_grasp, **kw)


def register_gymnasium(gym=None):
    """Where Gymnasium is installed: ``gymnasium.make("haptix/Env-v0",
    sim=...)`` (any model, Env's options) and
    ``gymnasium.make("haptix/MPLGrasp-v0")``, with ``make_vec``'s
    vector entry points to :class:`haptix.VectorEnv`.  Called by
    ``import haptix``; ``gym`` stands in for the module in tests."""
    gym = gym if gym is not None else _gym
    if gym is None:
        return False
    if "haptix/Env-v0" not in gym.registry:
        gym.register(id="haptix/Env-v0", entry_point="haptix.env:Env",
                     vector_entry_point="haptix.vector:VectorEnv")
    if "haptix/MPLGrasp-v0" not in gym.registry:
        gym.register(id="haptix/MPLGrasp-v0",
                     entry_point="haptix.tasks:mpl_grasp",
                     vector_entry_point="haptix.tasks:mpl_grasp_vector",
                     max_episode_steps=None)
    return True
