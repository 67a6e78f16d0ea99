"""Sim's writing calls (the set area): the state, controls, applied
forces, one body, the mocap bodies and joints; what is not given keeps
its value."""

import numpy as np

from .proto import pb
from .sim_args import f64, obj_id


class SimSet:
    """Writing the simulation (the set area).

    Mixed into :class:`haptix.Sim`, whose ``_call`` it uses, and its
    ``model`` for objects by name.
    """

    def set_state(self, state=None, qpos=None, qvel=None, act=None):
        """Set the state: a Struct from get_state, or any of ``qpos``,
        ``qvel``, ``act`` (what is not given keeps its value)."""
        if state is not None:
            qpos = state["qpos"] if qpos is None else qpos
            qvel = state["qvel"] if qvel is None else qvel
            act = state["act"] if act is None else act
            nq, nv, na = (int(state.get("nq", np.size(qpos))),
                          int(state.get("nv", np.size(qvel))),
                          int(state.get("na", np.size(act))))
        else:
            if qpos is None or qvel is None or act is None:
                now = self.get_state()
                qpos = now.qpos if qpos is None else qpos
                qvel = now.qvel if qvel is None else qvel
                act = now.act if act is None else act
            nq, nv, na = np.size(qpos), np.size(qvel), np.size(act)
        msg = pb.State(nq=nq, nv=nv, na=na, qpos=f64(qpos, "qpos"),
                       qvel=f64(qvel, "qvel"), act=f64(act, "act"))
        self._call("set_state", msg)

    def set_control(self, ctrl):
        """Set every control: ``ctrl`` (nu values), or a Struct with it."""
        if isinstance(ctrl, dict):
            ctrl = ctrl["ctrl"]
        c = f64(ctrl, "ctrl")
        self._call("set_control", pb.Control(nu=c.size, ctrl=c))

    def set_ctrl(self, values=None, **by_name):
        """Set controls by actuator name (``set_ctrl(A_index_MCP=1.2)``),
        from a dict of names, or all of them from an array; the others
        keep their values."""
        if values is not None and not isinstance(values, dict):
            return self.set_control(values)
        names = dict(values or {}, **by_name)
        ctrl = np.array(self._call("get_control", None, "control").ctrl)
        for n, v in names.items():
            ctrl[self.model.id("actuator", n)] = v
        self.set_control(ctrl)

    def set_applied(self, qfrc_applied=None, xfrc_applied=None):
        """Set applied forces: ``qfrc_applied`` (nv), ``xfrc_applied``
        (nbody, 6); what is not given keeps its value."""
        if qfrc_applied is None or xfrc_applied is None:
            now = self.get_applied()
            qfrc_applied = now.qfrc_applied if qfrc_applied is None \
                else qfrc_applied
            xfrc_applied = now.xfrc_applied if xfrc_applied is None \
                else xfrc_applied
        q = f64(qfrc_applied, "qfrc_applied")
        x = f64(xfrc_applied, "xfrc_applied")
        self._call("set_applied", pb.Applied(nv=q.size, nbody=x.size // 6,
                                             qfrc_applied=q, xfrc_applied=x))

    def set_onebody(self, body, pos=None, quat=None, linvel=None,
                    angvel=None, force=None, torque=None):
        """Set one body's pose and velocities (floating bodies only) and
        its applied force and torque (any body); None leaves a part."""
        msg = pb.OneBody(body_id=obj_id(self, "body", body))
        for k, v in (("pos", pos), ("quat", quat), ("linvel", linvel),
                     ("angvel", angvel), ("force", force),
                     ("torque", torque)):
            if v is not None:
                getattr(msg, k).extend(f64(v, k))
        self._call("set_onebody", msg)

    def set_mocap(self, pos=None, quat=None):
        """Set the mocap bodies: ``pos`` (nmocap, 3), ``quat`` (nmocap,
        4); what is not given keeps its value."""
        if pos is None or quat is None:
            now = self.get_mocap()
            pos = now.pos if pos is None else pos
            quat = now.quat if quat is None else quat
        p, q = f64(pos, "pos"), f64(quat, "quat")
        self._call("set_mocap", pb.Mocap(nmocap=p.size // 3, pos=p, quat=q))

    def set_joint(self, name, qpos=None, qvel=None):
        """Set one joint's position and/or velocity by name."""
        msg = pb.JointSet(name=name)
        if qpos is not None:
            msg.qpos.extend(f64(qpos, "qpos"))
        if qvel is not None:
            msg.qvel.extend(f64(qvel, "qvel"))
        self._call("set_joint", msg)
