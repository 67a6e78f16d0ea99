"""Sim's reading calls (the view area): the state, controls, forces,
frames, sensors and joints as NumPy arrays, objects by name."""

import numpy as np

from .proto import pb
from .sim_args import obj_id
from .struct import Struct


class SimView:
    """Reading the simulation (the view area).

    Mixed into :class:`haptix.Sim`, whose ``_call`` it uses, and its
    ``model`` for objects by name.
    """

    def get_state(self):
        """``qpos`` (nq,), ``qvel`` (nv,), ``act`` (na,) and ``time``."""
        return self._get("get_state", None, "state")

    def get_control(self):
        """``ctrl`` (nu,) and ``time``."""
        return self._get("get_control", None, "control")

    def get_applied(self):
        """``qfrc_applied`` (nv,), ``xfrc_applied`` (nbody, 6), ``time``."""
        return self._get("get_applied", None, "applied")

    def get_onebody(self, body):
        """One body (by name or id): pos, quat, velocities, accelerations
        as an accelerometer reads them, contact force, applied force."""
        ref = pb.ObjectRef(type=pb.OBJ_BODY, id=obj_id(self, "body", body))
        return self._get("get_onebody", ref, "onebody")

    body = get_onebody

    def get_mocap(self):
        """Mocap bodies: ``pos`` (nmocap, 3), ``quat`` (nmocap, 4)."""
        return self._get("get_mocap", None, "mocap")

    def get_dynamics(self):
        """``qacc`` (nv,) and ``act_dot`` (na,)."""
        return self._get("get_dynamics", None, "dynamics")

    def get_sensor(self):
        """``sensordata`` (nsensordata,) and ``time``."""
        return self._get("get_sensor", None, "sensor")

    def get_body(self):
        """Every body's frame: ``pos`` (nbody, 3), ``mat`` (nbody, 3, 3)."""
        return self._get("get_body", None, "poses")

    def get_geom(self):
        """Every geom's frame: ``pos`` (ngeom, 3), ``mat`` (ngeom, 3, 3)."""
        return self._get("get_geom", None, "poses")

    def get_site(self):
        """Every site's frame: ``pos`` (nsite, 3), ``mat`` (nsite, 3, 3)."""
        return self._get("get_site", None, "poses")

    def get_tendon(self):
        """Tendon ``length`` and ``velocity`` (ntendon,)."""
        return self._get("get_tendon", None, "tendon")

    def get_actuator(self):
        """Actuator ``length``, ``velocity`` and ``force`` (nu,)."""
        return self._get("get_actuator", None, "actuator")

    def get_force(self):
        """Generalised forces (nv,): applied, passive, bias, actuator,
        constraint, nonconstraint."""
        return self._get("get_force", None, "force")

    def get_contact(self):
        """Active contacts: ``dist`` (ncon,), ``pos`` (ncon, 3), ``frame``
        (ncon, 3, 3), ``force`` (ncon, 3), ``geom1``, ``geom2``."""
        return self._get("get_contact", None, "contacts")

    def sensor(self, name):
        """One sensor by name, as MuJoCo's ``data.sensor(name)``: ``data``
        holds its values, with ``name``, ``id`` and ``time``.

        A name that is no sensor's but prefixes some (``A_index_MCP`` for
        the MPL's ``A_index_MCP_pos``, ``_vel`` and ``_frc``) gives their
        values together, ``names`` saying whose.
        """
        m = self.model
        ids = m.sensor_ids(name)
        s = self._call("get_sensor", None, "sensor")
        data = np.array(s.sensordata)[m.sensor_index(name)]
        return Struct(name=name, id=ids[0] if len(ids) == 1 else ids,
                      names=[m.names["sensor"][i] for i in ids],
                      data=data, time=s.time)

    def sensors(self):
        """Every sensor's values by name: a dict of arrays (and ``time``)."""
        m = self.model
        s = self._call("get_sensor", None, "sensor")
        d = np.array(s.sensordata)
        out = {n or "sensor%d" % i: d[m.sensor_adr[i]:m.sensor_adr[i] +
                                      m.sensor_dim[i]]
               for i, n in enumerate(m.names["sensor"])}
        out["time"] = s.time
        return out

    def joint(self, name):
        """One joint by name (or id): ``type`` ("hinge", "slide", "ball",
        "free"), ``body``, ``axis``, ``limited``, ``range``, and its
        ``qpos`` and ``qvel`` (1 and 1, 4 and 3, 7 and 6 values)."""
        ref = pb.ObjectRef(type=pb.OBJ_JOINT)
        if isinstance(name, str):
            ref.name = name
        else:
            ref.id = int(name)
        j = self._get("get_joint", ref, "joint")
        j["type"] = {0: "free", 1: "ball", 2: "slide", 3: "hinge"}[j.type]
        return j

    get_joint = joint
