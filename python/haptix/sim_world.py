"""Sim's World API calls (haptix_sim.h's forces, camera, collide
modes)."""

from .errors import BadValue
from .proto import pb
from .sim_args import f64, obj_id


class SimWorld:
    """The World API's calls (haptix_sim.h's forces, camera, collide modes).

    Mixed into :class:`haptix.Sim`, whose ``_call`` it uses, and its
    ``model`` for bodies by name.
    """

    def world_force(self, body=None, force=None, torque=None, duration=0.0,
                    gravity=None, clear=False):
        """Put a wrench on ``body`` (world axes, at its centre of mass) for
        ``duration`` seconds of simulated time (0: until a reset), turn its
        gravity off (``gravity=False``: its weight cancelled) or on
        (``True``); ``clear`` ends every wrench first.  With no body only
        lists.  Returns ``gravity_off`` (body ids) and ``wrenches`` (how
        many are in effect)."""
        msg = pb.WorldForce(body=-1 if body is None
                            else obj_id(self, "body", body),
                            duration=float(duration), clear_all=bool(clear))
        if force is not None or torque is not None:
            msg.force.extend(f64(force if force is not None else [0] * 3,
                                 "force", 3))
            msg.torque.extend(f64(torque if torque is not None
                                  else [0] * 3, "torque", 3))
        if gravity is not None:
            msg.gravity = 1 if gravity else 2
        return self._get("world_force", msg, "world_forces")

    def camera(self, pos=None, quat=None):
        """The view camera the viewers share (hxview, the workbench):
        ``pos``, ``quat`` (w x y z; it looks along its x axis, z up) and
        ``is_default`` (the model's own view).  Given ``pos`` and ``quat``,
        set it first."""
        msg = pb.Camera()
        if pos is not None or quat is not None:
            if pos is None or quat is None:
                raise BadValue("camera: give both pos and quat")
            msg = pb.Camera(set=True, pos=f64(pos, "pos", 3),
                            quat=f64(quat, "quat", 4))
        return self._get("camera", msg, "camera")

    COLLIDE_MODES = ("none", "detect", "collide")

    def collide_mode(self, body, mode=None):
        """The collide mode of the geoms of ``body``'s subtree, after
        setting it to ``mode`` if given: "none" (no contacts), "detect"
        (contacts found, no force) or "collide" (as loaded)."""
        if mode is None:
            m = -1
        elif mode in self.COLLIDE_MODES:
            m = self.COLLIDE_MODES.index(mode)
        else:
            raise BadValue("collide mode %r is not one of %s"
                           % (mode, ", ".join(self.COLLIDE_MODES)))
        r = self._call("collide_mode",
                       pb.CollideMode(body=obj_id(self, "body", body), mode=m),
                       "collide_mode")
        return self.COLLIDE_MODES[r.mode]
