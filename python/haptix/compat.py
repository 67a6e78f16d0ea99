"""The HAPTIX calls with the names of its C and MATLAB API.

One connection per program, as in HAPTIX, and the MATLAB calling
conventions: get calls return structs, set calls take them, errors
raise (a :class:`haptix.Error` named after the result code).  Structs
are :class:`haptix.Struct` records shaped as the manual prints the
MATLAB ones: model-specific sizes, doubles, time in seconds; a vector is
a NumPy array of its length, a per-object table (nbody, 3) and so on.
The manual's examples read the same::

    from haptix.compat import *
    hx_connect()
    info = hx_robot_info()           # motor_count 13, motor_limit [13x2] ...
    sensor = hx_read_sensors()
    command = struct(ref_pos=np.zeros(info.motor_count), ref_pos_enabled=1)
    sensor = hx_update(command)
    hx_close()

``hx_last_result()`` and ``mj_result()`` say how the last call went, as
in C.
"""

import numpy as np

from .errors import Connected, Error, NoConnection, RESULT_NAMES
from .sim import connect as _connect
from .struct import Struct

__all__ = [
    "struct", "hx_connect", "hx_close", "hx_robot_info", "hx_update",
    "hx_read_sensors", "hx_last_result", "hx_double_time", "mj_connect",
    "mj_close", "mj_connected", "mj_result", "mj_info", "mj_get_state",
    "mj_get_control", "mj_get_applied", "mj_get_onebody", "mj_get_mocap",
    "mj_get_dynamics", "mj_get_sensor", "mj_get_body", "mj_get_geom",
    "mj_get_site", "mj_get_tendon", "mj_get_actuator", "mj_get_force",
    "mj_get_contact", "mj_set_state", "mj_set_control", "mj_set_applied",
    "mj_set_onebody", "mj_set_mocap", "mj_set_geomsize", "mj_get_rgba",
    "mj_set_rgba", "mj_step", "mj_update", "mj_reset", "mj_equality",
    "mj_message", "mj_name2id", "mj_id2name",
]

_sim = None
_code = 0
_text = "mjCOM_OK: success"


def struct(**fields):
    """A struct, as MATLAB's ``struct('nq', 7, ...)``: struct(nq=7, ...)."""
    return Struct(fields)


def _done(code=0, detail="success"):
    global _code, _text
    _code = code
    _text = "%s: %s" % (RESULT_NAMES.get(code, "mjCOM_UNKNOWN"), detail)


def _call(fn, *args):
    if _sim is None:
        e = NoConnection("not connected: call hx_connect or mj_connect first")
        _done(e.code, e.message)
        raise e
    try:
        out = fn(_sim, *args)
    except Error as e:
        _done(e.code, str(e))
        raise
    _done()
    return out


def _sized(s, **sizes):
    out = Struct(sizes)
    out.update(s)
    return out


# The simple API.

def hx_connect(host=None, port=0):
    """Connect to the simulator: host "" or None is $HAPTIX_SERVER, else
    the local socket; a host with the port as HOST:PORT (the port
    argument, Gazebo's, is used when host has none)."""
    global _sim
    if _sim is not None:
        e = Connected("already connected: hx_close first")
        _done(e.code, e.message)
        raise e
    server = host or None
    rest = server[4:] if server and server[:4] in ("tcp:", "tls:") else server
    if server and port and ":" not in rest and not server.startswith("/"):
        server = "%s:%d" % (server, port)
    try:
        _sim = _connect(server, name="haptix.compat")
    except Error as e:
        _done(e.code, str(e))
        raise
    _done()


def hx_close():
    """Close the connection."""
    global _sim
    if _sim is not None:
        _sim.close()
    _sim = None
    _done()


def hx_robot_info():
    """The robot: motor_count, joint_count, contact_sensor_count,
    imu_count, motor_limit (motors, 2), joint_limit (joints, 2),
    update_rate."""
    r = _call(lambda s: s.robot_info())
    return Struct(motor_count=int(r.motor_count),
                  joint_count=int(r.joint_count),
                  contact_sensor_count=int(r.contact_sensor_count),
                  imu_count=int(r.imu_count),
                  motor_limit=r.motor_limit.reshape(-1, 2),
                  joint_limit=r.joint_limit.reshape(-1, 2),
                  update_rate=float(r.update_rate))


def _hx_sensor(r):
    n = int(r.imu_count)
    orient = np.zeros((n, 4))
    orient[:, 0] = 1    # reserved by HAPTIX: always (1, 0, 0, 0)
    return Struct(time_stamp=float(r.time), motor_pos=r.motor_pos,
                  motor_vel=r.motor_vel, motor_torque=r.motor_torque,
                  joint_pos=r.joint_pos, joint_vel=r.joint_vel,
                  contact=r.contact, imu_linear_acc=r.imu_linear_acc,
                  imu_angular_vel=r.imu_angular_vel, imu_orientation=orient)


def hx_update(command):
    """Send a command struct (ref_pos, ref_vel_max, gain_pos, gain_vel
    and their _enabled flags; ref_vel too) and return the sensor struct,
    after 1/update_rate while running."""
    args = {}
    for k in ("ref_pos", "ref_vel", "gain_pos", "gain_vel", "ref_vel_max"):
        if command.get(k + "_enabled", 0) > 0:
            args[k] = command[k]
    return _hx_sensor(_call(lambda s: s.robot_update(**args)))


def hx_read_sensors():
    """The sensors, without a command (hx_update with nothing enabled)."""
    return _hx_sensor(_call(lambda s: s.robot_update()))


def hx_last_result():
    """The last call's result in words: "mjCOM_BADSIZE: nq is 7 ..."."""
    return _text


def hx_double_time(time):
    """Time in seconds (the Python structs hold seconds already)."""
    if isinstance(time, dict):
        return time["sec"] + time["nsec"] * 1e-9
    return float(time)


# The native API.

def mj_connect(host=None):
    """Connect to the simulator (hx_connect without the port)."""
    hx_connect(host, 0)


def mj_close():
    """Close the connection."""
    hx_close()


def mj_connected():
    """1 if connected, else 0."""
    return int(_sim is not None and _sim.connected)


def mj_result():
    """The last call's result code (0: mjCOM_OK)."""
    return _code


def mj_info():
    """The model: sizes, timestep, apirate and the descriptors (with
    ranges (0, 0) where not limited, as HAPTIX had them), and names."""
    def get(s):
        i = s.info()
        m = i.model
        out = Struct((k, int(m[k])) for k in (
            "nq", "nv", "na", "njnt", "nbody", "ngeom", "nsite", "ntendon",
            "nu", "neq", "nkey", "nmocap", "nsensor", "nsensordata", "nmat"))
        out.timestep = m.timestep
        out.apirate = m.apirate
        for k, v in i.items():
            if k != "model":
                out[k] = v
        out.jnt_range = np.where(i.jnt_limited[:, None], i.jnt_range, 0.0)
        out.actuator_ctrlrange = np.where(i.actuator_ctrllimited[:, None],
                                          i.actuator_ctrlrange, 0.0)
        return out
    return _call(get)


def mj_get_state():
    """The state: nq, nv, na, time, qpos, qvel, act."""
    return _call(lambda s: s.get_state())


def mj_get_control():
    """The controls: nu, time, ctrl."""
    return _call(lambda s: s.get_control())


def mj_get_applied():
    """Applied forces: nv, nbody, time, qfrc_applied, xfrc_applied
    (nbody, 6)."""
    return _call(lambda s: s.get_applied())


def mj_get_onebody(bodyid):
    """One body by id (MATLAB's convention: the id is the argument)."""
    def get(s):
        b = s.get_onebody(bodyid)
        out = Struct(bodyid=b.body_id, isfloating=int(b.is_floating))
        out.update((k, v) for k, v in b.items()
                   if k not in ("body_id", "is_floating"))
        return out
    return _call(get)


def mj_get_mocap():
    """Mocap bodies: nmocap, time, pos (nmocap, 3), quat (nmocap, 4)."""
    return _call(lambda s: s.get_mocap())


def mj_get_dynamics():
    """nv, na, time, qacc, actdot."""
    def get(s):
        d = s.get_dynamics()
        return Struct(nv=d.nv, na=d.na, time=d.time, qacc=d.qacc,
                      actdot=d.act_dot)
    return _call(get)


def mj_get_sensor():
    """nsensordata, time, sensordata."""
    return _call(lambda s: s.get_sensor())


def _poses(count):
    def get(s):
        p = getattr(s, "get_" + count[1:])()
        return Struct([(count, p["count"]), ("time", p.time),
                       ("pos", p.pos), ("mat", p.mat.reshape(-1, 9))])
    return get


def mj_get_body():
    """nbody, time, pos (nbody, 3), mat (nbody, 9) row-major."""
    return _call(_poses("nbody"))


def mj_get_geom():
    """ngeom, time, pos (ngeom, 3), mat (ngeom, 9)."""
    return _call(_poses("ngeom"))


def mj_get_site():
    """nsite, time, pos (nsite, 3), mat (nsite, 9)."""
    return _call(_poses("nsite"))


def mj_get_tendon():
    """ntendon, time, length, velocity."""
    return _call(lambda s: s.get_tendon())


def mj_get_actuator():
    """nu, time, length, velocity, force."""
    return _call(lambda s: s.get_actuator())


def mj_get_force():
    """nv, time, applied, passive, bias, actuator, constraint."""
    def get(s):
        f = s.get_force()
        del f["nonconstraint"]
        return f
    return _call(get)


def mj_get_contact():
    """ncon, time, pos (ncon, 3), frame (ncon, 9), dist, force (ncon,
    3), geom1, geom2."""
    def get(s):
        c = s.get_contact()
        return Struct(ncon=c.ncon, time=c.time, pos=c.pos,
                      frame=c.frame.reshape(-1, 9), dist=c.dist,
                      force=c.force, geom1=c.geom1, geom2=c.geom2)
    return _call(get)


def mj_set_state(state):
    """Set the state from a struct with nq, nv, na, qpos, qvel, act (the
    sizes must be the model's: mjCOM_BADSIZE)."""
    _call(lambda s: s.set_state(state))


def mj_set_control(control):
    """Set the controls from a struct with nu and ctrl."""
    def put(s):
        from .proto import pb
        c = np.ascontiguousarray(control["ctrl"], dtype=float).ravel()
        s._call("set_control", pb.Control(nu=int(control.get("nu", c.size)),
                                          ctrl=c))
    _call(put)


def mj_set_applied(applied):
    """Set applied forces from a struct with nv, nbody, qfrc_applied,
    xfrc_applied."""
    def put(s):
        from .proto import pb
        q = np.ascontiguousarray(applied["qfrc_applied"], float).ravel()
        x = np.ascontiguousarray(applied["xfrc_applied"], float).ravel()
        s._call("set_applied", pb.Applied(
            nv=int(applied.get("nv", q.size)),
            nbody=int(applied.get("nbody", x.size // 6)),
            qfrc_applied=q, xfrc_applied=x))
    _call(put)


def mj_set_onebody(onebody):
    """Set one body (bodyid) from a struct as mj_get_onebody gives it."""
    _call(lambda s: s.set_onebody(
        onebody["bodyid"], **{k: onebody[k] for k in (
            "pos", "quat", "linvel", "angvel", "force", "torque")
            if k in onebody}))


def mj_set_mocap(mocap):
    """Set the mocap bodies from a struct with nmocap, pos, quat."""
    def put(s):
        from .proto import pb
        p = np.ascontiguousarray(mocap["pos"], float).ravel()
        q = np.ascontiguousarray(mocap["quat"], float).ravel()
        s._call("set_mocap", pb.Mocap(nmocap=int(mocap.get("nmocap",
                                                            p.size // 3)),
                                      pos=p, quat=q))
    _call(put)


def mj_set_geomsize(geomid, geomsize):
    """Set a geom's size (3 numbers)."""
    _call(lambda s: s.set_geomsize(int(geomid), geomsize))


def mj_get_rgba(type, id):
    """The rgba (4,) of a "geom", "site", "tendon" or "material"."""
    return _call(lambda s: s.get_rgba(type, int(id)))


def mj_set_rgba(type, id, rgba):
    """Set the rgba of a "geom", "site", "tendon" or "material"."""
    _call(lambda s: s.set_rgba(type, int(id), rgba))


def mj_step():
    """One step while paused; nothing while running."""
    _call(lambda s: s.step(1))


def mj_update(control):
    """Set the controls (a struct with ctrl) and return the sensor
    struct: one step while paused, the next API tick while running."""
    return _call(lambda s: s.update(control))


def mj_reset(keyframe=-1):
    """Reset to a keyframe, or (negative, or omitted) the reference
    configuration."""
    _call(lambda s: s.reset(None if keyframe < 0 else keyframe))


def mj_equality(eqid, state):
    """Enable (1) or disable (0) an equality constraint."""
    _call(lambda s: s.equality(int(eqid), state))


def mj_message(message=None):
    """Show a message on the viewers; omitted clears it."""
    _call(lambda s: s.message(message or ""))


def mj_name2id(type, name):
    """An object's id by type and name; -1 when none has that name."""
    return _call(lambda s: s.name2id(type, name))


def mj_id2name(type, id):
    """An object's name by type and id."""
    return _call(lambda s: s.id2name(type, int(id)))
