"""The loaded model as the ``info`` call describes it: sizes, names, the
layout of the state and sensor arrays, as NumPy arrays.

``sim.model`` is one of these, fetched when it is first needed and again
after a load or an edit made through the same connection.
"""

import numpy as np

from .errors import BadIndex, BadType
from .suggest import did_you_mean

# Object types by name, numbered as the protocol's ObjType (MuJoCo's mjtObj).
OBJ_TYPES = {
    "unknown": 0, "body": 1, "xbody": 2, "joint": 3, "dof": 4, "geom": 5,
    "site": 6, "camera": 7, "light": 8, "mesh": 9, "skin": 10, "hfield": 11,
    "texture": 12, "material": 13, "pair": 14, "exclude": 15,
    "equality": 16, "tendon": 17, "actuator": 18, "sensor": 19,
    "numeric": 20, "text": 21, "tuple": 22, "key": 23,
}
OBJ_NAMES = {v: k for k, v in OBJ_TYPES.items()}
JOINT_TYPES = {0: "free", 1: "ball", 2: "slide", 3: "hinge"}
# qpos and qvel widths of each joint type.
_JOINT_NQ = {0: 7, 1: 4, 2: 1, 3: 1}
_JOINT_NV = {0: 6, 1: 3, 2: 1, 3: 1}


def obj_type(t):
    """An object type from its name ("geom", "keyframe") or number."""
    if isinstance(t, str):
        key = "key" if t == "keyframe" else t
        if key not in OBJ_TYPES:
            raise BadType("unknown object type '%s'" % t)
        return OBJ_TYPES[key]
    return int(t)


class Model:
    """Sizes, names and array layout of a model (from ``info``).

    Attributes: the sizes (``nq``, ``nv``, ``na``, ``nu``, ``nbody``,
    ``njnt``, ``ngeom``, ``nsite``, ``ntendon``, ``neq``, ``nkey``,
    ``nmocap``, ``nsensor``, ``nsensordata``, ``nmat``), ``timestep``,
    ``apirate``, ``name``, ``path``; ``names[type]``, the names of each
    kind of object in id order ("" for an unnamed one); and the
    descriptor arrays of ``info`` as NumPy arrays (``sensor_adr``,
    ``jnt_qposadr``, ``actuator_ctrlrange`` of shape (nu, 2), ...).
    """

    _SIZES = ("nq", "nv", "na", "nu", "nbody", "njnt", "ngeom", "nsite",
              "ntendon", "neq", "nkey", "nmocap", "nsensor", "nsensordata",
              "nmat")
    _NAMES = {"body": "body_name", "joint": "jnt_name", "geom": "geom_name",
              "site": "site_name", "tendon": "tendon_name",
              "actuator": "actuator_name", "sensor": "sensor_name",
              "equality": "eq_name", "key": "key_name",
              "material": "mat_name"}

    def __init__(self, info):
        s = info.model
        self.info = info
        self.name = s.name
        self.path = s.path
        for k in self._SIZES:
            setattr(self, k, int(getattr(s, k)))
        self.timestep = s.timestep
        self.apirate = s.apirate
        self.names = {t: list(getattr(info, f)) for t, f in self._NAMES.items()}
        self._ids = {t: {n: i for i, n in enumerate(v) if n}
                     for t, v in self.names.items()}
        i32 = np.int32
        for f in ("sensor_type", "sensor_datatype", "sensor_objtype",
                  "sensor_objid", "sensor_dim", "sensor_adr", "jnt_type",
                  "jnt_bodyid", "jnt_qposadr", "jnt_dofadr", "geom_type",
                  "geom_bodyid", "eq_type", "eq_obj1id", "eq_obj2id",
                  "actuator_trntype", "body_parentid", "body_mocapid"):
            setattr(self, f, np.array(getattr(info, f), dtype=i32))
        self.sensor_noise = np.array(info.sensor_noise, dtype=float)
        self.jnt_limited = np.array(info.jnt_limited, dtype=bool)
        self.jnt_range = np.array(info.jnt_range, dtype=float).reshape(-1, 2)
        self.actuator_trnid = np.array(info.actuator_trnid,
                                       dtype=i32).reshape(-1, 2)
        self.actuator_ctrllimited = np.array(info.actuator_ctrllimited,
                                             dtype=bool)
        self.actuator_ctrlrange = np.array(info.actuator_ctrlrange,
                                           dtype=float).reshape(-1, 2)

    def __repr__(self):
        return "<haptix.Model %r nq=%d nv=%d nu=%d nsensordata=%d>" % (
            self.name, self.nq, self.nv, self.nu, self.nsensordata)

    def id(self, type, name):
        """The id of the object of that type and name; BadIndex if none."""
        if isinstance(name, (int, np.integer)):
            return int(name)
        t = "key" if type == "keyframe" else type
        if t not in self._ids:
            raise BadType("no names of type '%s' here: one of %s"
                          % (type, ", ".join(sorted(self._ids))))
        try:
            return self._ids[t][name]
        except KeyError:
            raise BadIndex("no %s named '%s'%s" % (
                type, name, did_you_mean(name, self._ids[t]))) from None

    def sensor_index(self, name):
        """The indices in ``sensordata`` of a sensor by name.

        A name that is no sensor's but begins some sensors' names and an
        underscore (the MPL's ``A_index_MCP`` for ``A_index_MCP_pos``,
        ``_vel`` and ``_frc``) gives all of theirs, in model order.
        """
        ids = self.sensor_ids(name)
        return np.concatenate([np.arange(self.sensor_adr[i],
                                         self.sensor_adr[i] +
                                         self.sensor_dim[i]) for i in ids])

    def sensor_ids(self, name):
        """The sensor ids a name stands for (see sensor_index)."""
        if isinstance(name, (int, np.integer)):
            return [int(name)]
        if name in self._ids["sensor"]:
            return [self._ids["sensor"][name]]
        ids = [i for i, n in enumerate(self.names["sensor"])
               if n.startswith(name + "_")]
        if not ids:
            raise BadIndex("no sensor named '%s'%s" % (
                name, did_you_mean(name, self._ids["sensor"])))
        return ids

    def joint_qpos(self, name):
        """The slice of qpos that a joint (by name or id) occupies."""
        j = self.id("joint", name)
        a = int(self.jnt_qposadr[j])
        return slice(a, a + _JOINT_NQ[int(self.jnt_type[j])])

    def joint_qvel(self, name):
        """The slice of qvel that a joint (by name or id) occupies."""
        j = self.id("joint", name)
        a = int(self.jnt_dofadr[j])
        return slice(a, a + _JOINT_NV[int(self.jnt_type[j])])

    def ctrl_bounds(self):
        """Lower and upper control bounds (nu,): ±inf where not limited."""
        lo = np.where(self.actuator_ctrllimited, self.actuator_ctrlrange[:, 0],
                      -np.inf) if self.nu else np.zeros(0)
        hi = np.where(self.actuator_ctrllimited, self.actuator_ctrlrange[:, 1],
                      np.inf) if self.nu else np.zeros(0)
        return lo, hi
