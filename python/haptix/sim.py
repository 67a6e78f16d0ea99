"""The simulation a connection reaches: every call of the extension API,
with NumPy arrays in the model's shapes and objects by name.

``haptix.connect()`` returns one.  Names follow the protocol's calls
(docs/protocol.md) and libhaptix's ``hxd_`` functions without the prefix
(``get_state``, ``set_control``, ``capture_key``); shortcuts by name sit
beside them (``sensor("A_index_MCP_pos")``, ``joint("wrist_PRO")``,
``set_ctrl(A_index_MCP=1.2)``).
"""

import contextlib

import numpy as np

from . import batch as _batch
from . import edit as _edit
from . import stream as _stream
from . import zstd
from .connection import Connection
from .errors import BadSize, BadValue
from .model import Model, obj_type
from .proto import pb
from .struct import Struct, to_struct

_LEASE_OPS = {"query": pb.Lease.QUERY, "take": pb.Lease.TAKE,
              "release": pb.Lease.RELEASE}
_FORMATS = {"auto": pb.MODEL_FORMAT_AUTO, "mjcf": pb.MODEL_FORMAT_MJCF,
            "urdf": pb.MODEL_FORMAT_URDF, "mjb": pb.MODEL_FORMAT_MJB}


def connect(server=None, token=None, name="python", timeout=10.0,
            lease_token=None):
    """Connect to haptixd and say Hello; return a :class:`Sim`.

    ``server``: ``"unix:PATH"``, ``"HOST"``, ``"HOST:PORT"``,
    ``"[V6ADDR]:PORT"``; None means ``$HAPTIX_SERVER``, else the default
    Unix socket (``$XDG_RUNTIME_DIR/haptixd.sock``, else
    ``/run/haptixd/haptixd.sock``).  ``token`` (bytes or str) is what a
    TCP server with ``--token-file`` wants; None reads the file named by
    ``$HAPTIX_TOKEN_FILE``.  ``lease_token`` shares a lease (None:
    ``$HAPTIX_LEASE``).  ``timeout`` bounds each call's wait, in seconds
    (None: no bound).  Use it as a context manager to close it.
    """
    return Sim(Connection(server, name, token, timeout, lease_token))


def _f64(values, what, n=None):
    a = np.ascontiguousarray(values, dtype=np.float64).ravel()
    if n is not None and a.size != n:
        raise BadSize("%s has %d values but the model has %d"
                      % (what, a.size, n))
    return a


def _obj(sim, type, which):
    """An object's id from its name or id."""
    if isinstance(which, str):
        return sim.model.id(type, which)
    return int(which)


class Sim:
    """A connection to one simulation.  See :func:`connect`."""

    def __init__(self, conn):
        self.conn = conn
        self._model = None

    # The connection.

    def close(self):
        """Close the connection (the server ends its lease and streams)."""
        self.conn.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @property
    def connected(self):
        """True while the connection is up."""
        return self.conn.connected

    @property
    def session_id(self):
        """This connection's session id on the server."""
        return self.conn.welcome.session_id

    @property
    def server_version(self):
        """The server's version, from its Welcome."""
        return self.conn.welcome.server_version

    def _call(self, call, msg=None, payload=None, timeout=-1):
        r = self.conn.call(call, msg, timeout)
        return getattr(r, payload) if payload else r

    # The model.

    @property
    def model(self):
        """The model's sizes, names and layout (:class:`haptix.Model`).

        Fetched once, and again after a load or an edit through this
        connection, or when a model event reached it.
        """
        if self._model is None or self.conn.model_changed:
            self.conn.model_changed = False
            self._model = Model(self._call("info", None, "info"))
        return self._model

    def refresh(self):
        """Fetch the model's description again (after another client
        loaded or edited the model); returns it."""
        self._model = None
        return self.model

    def info(self):
        """The ``info`` call: the model's descriptors, as a Struct."""
        return to_struct(self._call("info", None, "info"))

    # Reading the simulation (the view area).

    def get_state(self):
        """``qpos`` (nq,), ``qvel`` (nv,), ``act`` (na,) and ``time``."""
        return to_struct(self._call("get_state", None, "state"))

    def get_control(self):
        """``ctrl`` (nu,) and ``time``."""
        return to_struct(self._call("get_control", None, "control"))

    def get_applied(self):
        """``qfrc_applied`` (nv,), ``xfrc_applied`` (nbody, 6), ``time``."""
        return to_struct(self._call("get_applied", None, "applied"))

    def get_onebody(self, body):
        """One body (by name or id): pos, quat, velocities, accelerations
        as an accelerometer reads them, contact force, applied force."""
        ref = pb.ObjectRef(type=pb.OBJ_BODY, id=_obj(self, "body", body))
        return to_struct(self._call("get_onebody", ref, "onebody"))

    body = get_onebody

    def get_mocap(self):
        """Mocap bodies: ``pos`` (nmocap, 3), ``quat`` (nmocap, 4)."""
        return to_struct(self._call("get_mocap", None, "mocap"))

    def get_dynamics(self):
        """``qacc`` (nv,) and ``act_dot`` (na,)."""
        return to_struct(self._call("get_dynamics", None, "dynamics"))

    def get_sensor(self):
        """``sensordata`` (nsensordata,) and ``time``."""
        return to_struct(self._call("get_sensor", None, "sensor"))

    def get_body(self):
        """Every body's frame: ``pos`` (nbody, 3), ``mat`` (nbody, 3, 3)."""
        return to_struct(self._call("get_body", None, "poses"))

    def get_geom(self):
        """Every geom's frame: ``pos`` (ngeom, 3), ``mat`` (ngeom, 3, 3)."""
        return to_struct(self._call("get_geom", None, "poses"))

    def get_site(self):
        """Every site's frame: ``pos`` (nsite, 3), ``mat`` (nsite, 3, 3)."""
        return to_struct(self._call("get_site", None, "poses"))

    def get_tendon(self):
        """Tendon ``length`` and ``velocity`` (ntendon,)."""
        return to_struct(self._call("get_tendon", None, "tendon"))

    def get_actuator(self):
        """Actuator ``length``, ``velocity`` and ``force`` (nu,)."""
        return to_struct(self._call("get_actuator", None, "actuator"))

    def get_force(self):
        """Generalised forces (nv,): applied, passive, bias, actuator,
        constraint, nonconstraint."""
        return to_struct(self._call("get_force", None, "force"))

    def get_contact(self):
        """Active contacts: ``dist`` (ncon,), ``pos`` (ncon, 3), ``frame``
        (ncon, 3, 3), ``force`` (ncon, 3), ``geom1``, ``geom2``."""
        return to_struct(self._call("get_contact", None, "contacts"))

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
        j = to_struct(self._call("get_joint", ref, "joint"))
        j["type"] = {0: "free", 1: "ball", 2: "slide", 3: "hinge"}[j.type]
        return j

    get_joint = joint

    # Writing the simulation (the set area).

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
        msg = pb.State(nq=nq, nv=nv, na=na, qpos=_f64(qpos, "qpos"),
                       qvel=_f64(qvel, "qvel"), act=_f64(act, "act"))
        self._call("set_state", msg)

    def set_control(self, ctrl):
        """Set every control: ``ctrl`` (nu values), or a Struct with it."""
        if isinstance(ctrl, dict):
            ctrl = ctrl["ctrl"]
        c = _f64(ctrl, "ctrl")
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
        q, x = _f64(qfrc_applied, "qfrc_applied"), _f64(xfrc_applied,
                                                        "xfrc_applied")
        self._call("set_applied", pb.Applied(nv=q.size, nbody=x.size // 6,
                                             qfrc_applied=q, xfrc_applied=x))

    def set_onebody(self, body, pos=None, quat=None, linvel=None,
                    angvel=None, force=None, torque=None):
        """Set one body's pose and velocities (floating bodies only) and
        its applied force and torque (any body); None leaves a part."""
        msg = pb.OneBody(body_id=_obj(self, "body", body))
        for k, v in (("pos", pos), ("quat", quat), ("linvel", linvel),
                     ("angvel", angvel), ("force", force),
                     ("torque", torque)):
            if v is not None:
                getattr(msg, k).extend(_f64(v, k))
        self._call("set_onebody", msg)

    def set_mocap(self, pos=None, quat=None):
        """Set the mocap bodies: ``pos`` (nmocap, 3), ``quat`` (nmocap,
        4); what is not given keeps its value."""
        if pos is None or quat is None:
            now = self.get_mocap()
            pos = now.pos if pos is None else pos
            quat = now.quat if quat is None else quat
        p, q = _f64(pos, "pos"), _f64(quat, "quat")
        self._call("set_mocap", pb.Mocap(nmocap=p.size // 3, pos=p, quat=q))

    def set_joint(self, name, qpos=None, qvel=None):
        """Set one joint's position and/or velocity by name."""
        msg = pb.JointSet(name=name)
        if qpos is not None:
            msg.qpos.extend(_f64(qpos, "qpos"))
        if qvel is not None:
            msg.qvel.extend(_f64(qvel, "qvel"))
        self._call("set_joint", msg)

    # Objects: sizes, colours, equalities, names.

    def set_geomsize(self, geom, size):
        """Set a geom's size (3 numbers); by name or id."""
        self._call("set_geomsize", pb.GeomSize(id=_obj(self, "geom", geom),
                                               size=_f64(size, "size")))

    def get_rgba(self, type, obj):
        """The colour (4,) of a geom, site, tendon or material."""
        t = obj_type(type)
        ref = pb.ObjectRef(type=t, id=_obj(self, type, obj))
        return np.array(self._call("get_rgba", ref, "rgba").rgba)

    def set_rgba(self, type, obj, rgba):
        """Set the colour of a geom, site, tendon or material."""
        self._call("set_rgba", pb.Rgba(type=obj_type(type),
                                       id=_obj(self, type, obj),
                                       rgba=_f64(rgba, "rgba")))

    def equality(self, eq, state):
        """Enable (1, True) or disable (0, False) an equality constraint."""
        self._call("equality", pb.Equality(id=_obj(self, "equality", eq),
                                           state=int(state)))

    def message(self, text=""):
        """Show a message on viewers ("" clears it)."""
        self._call("message", pb.Message(text=text or ""))

    def name2id(self, type, name):
        """An object's id by type and name, -1 when there is none."""
        r = self._call("name2id", pb.ObjectRef(type=obj_type(type),
                                               name=name), "object")
        return r.id

    def id2name(self, type, id):
        """An object's name by type and id ("" when unnamed)."""
        r = self._call("id2name", pb.ObjectRef(type=obj_type(type),
                                               id=int(id)), "object")
        return r.name

    # Running: step, update, reset, keyframes, pause, run, speed.

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
            c = _f64(ctrl["ctrl"] if isinstance(ctrl, dict) else ctrl, "ctrl")
            msg.control.CopyFrom(pb.Control(nu=c.size, ctrl=c))
        return to_struct(self._call("update", msg, "sensor", timeout=None))

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
        return to_struct(self._call("status", None, "status"))

    # The model: loading, the MJB, the MJCF text, editing.

    def load(self, path=None, data=None, format="auto", legacy=False,
             name="inline"):
        """Load a model: a file in the server's model directories
        (``path``), or a model's bytes (``data``: MJCF, URDF or MJB
        text); returns its summary.  A failure (LoadFailed, Denied)
        leaves the running model."""
        msg = pb.LoadModel(legacy=legacy)
        if data is not None:
            if isinstance(data, str):
                data = data.encode()
            msg.inline_model.CopyFrom(pb.InlineModel(
                format=_FORMATS[format], data=data, name=name))
        elif path is not None:
            msg.path = path
        else:
            raise BadValue("load: give a path or data (reload() reloads)")
        self._model = None
        return to_struct(self._call("load_model", msg, "model"))

    def reload(self):
        """Reload the current model from its file."""
        self._model = None
        return to_struct(self._call("load_model", pb.LoadModel(), "model"))

    def get_model(self):
        """The model as MuJoCo's MJB (``mjb``, decompressed bytes), with
        ``name`` and ``mujoco_version`` (the server's, e.g. 222)."""
        b = self._call("get_model", None, "model_blob", timeout=None)
        mjb = zstd.decompress(b.mjb_zstd, max_content=b.mjb_size)
        return Struct(mjb=mjb, name=b.name, mujoco_version=b.mujoco_version)

    def get_model_xml(self):
        """The model's MJCF text (``xml``), includes inlined, and ``dir``,
        the directory its file names are relative to."""
        return to_struct(self._call("get_model_xml", None, "model_xml"))

    def edit(self, *ops):
        """Apply edit operations (:mod:`haptix.edit`: add, remove, set,
        unset, attach) as one transaction, compiled once, the state kept by
        names; returns ``model`` (the summary) and ``removed``."""
        if len(ops) == 1 and isinstance(ops[0], (list, tuple)):
            ops = ops[0]
        msg = pb.EditModel(ops=[_edit.op_message(o) for o in ops])
        self._model = None
        return to_struct(self._call("edit_model", msg, "edit"))

    # Joints held on a path (docs/editing.md).

    def hold(self, targets=None, **kw):
        """Hold hinge and slide joints at values: ``hold(index_MCP=0.5)``
        or ``hold({"index_MCP": 0.5})``.  The first hold on a joint adds
        an equality by an edit; a joint this connection holds already
        only gets its new target, so a path is streamed by calling this
        again at your own rate.  Holds last until :meth:`release` or the
        connection closes.  Returns every hold (``holds``: ``joint``,
        ``target``, ``qpos``, ``force``, ``holder``) and what ended of
        yours without your asking (``dropped``)."""
        targets = dict(targets or {}, **kw)
        msg = pb.HoldJoints(joints=list(targets),
                            values=[float(v) for v in targets.values()])
        if targets:
            self._model = None
        return to_struct(self._call("hold", msg, "holds"))

    def holds(self):
        """Every hold on the server (see :meth:`hold`)."""
        return to_struct(self._call("hold", pb.HoldJoints(), "holds"))

    def release(self, *joints):
        """Release this connection's holds on ``joints`` (none: all)."""
        self._model = None
        return to_struct(self._call("release",
                                    pb.ReleaseJoints(joints=list(joints)),
                                    "holds"))

    # The World API's calls (haptix_sim.h's forces, camera, collide modes).

    def world_force(self, body=None, force=None, torque=None, duration=0.0,
                    gravity=None, clear=False):
        """Put a wrench on ``body`` (world axes, at its centre of mass) for
        ``duration`` seconds of simulated time (0: until a reset), turn its
        gravity off (``gravity=False``: its weight cancelled) or on
        (``True``); ``clear`` ends every wrench first.  With no body only
        lists.  Returns ``gravity_off`` (body ids) and ``wrenches`` (how
        many are in effect)."""
        msg = pb.WorldForce(body=-1 if body is None
                            else _obj(self, "body", body),
                            duration=float(duration), clear_all=bool(clear))
        if force is not None or torque is not None:
            msg.force.extend(_f64(force if force is not None else [0] * 3,
                                  "force", 3))
            msg.torque.extend(_f64(torque if torque is not None
                                   else [0] * 3, "torque", 3))
        if gravity is not None:
            msg.gravity = 1 if gravity else 2
        return to_struct(self._call("world_force", msg, "world_forces"))

    def camera(self, pos=None, quat=None):
        """The view camera the viewers share (hxview, the workbench):
        ``pos``, ``quat`` (w x y z; it looks along its x axis, z up) and
        ``is_default`` (the model's own view).  Given ``pos`` and ``quat``,
        set it first."""
        msg = pb.Camera()
        if pos is not None or quat is not None:
            if pos is None or quat is None:
                raise BadValue("camera: give both pos and quat")
            msg = pb.Camera(set=True, pos=_f64(pos, "pos", 3),
                            quat=_f64(quat, "quat", 4))
        return to_struct(self._call("camera", msg, "camera"))

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
                       pb.CollideMode(body=_obj(self, "body", body), mode=m),
                       "collide_mode")
        return self.COLLIDE_MODES[r.mode]

    def model_dirs(self, add=None):
        """The server's model directories (and ``user_dirs``), after
        adding ``add`` where its settings allow."""
        return to_struct(self._call("model_dirs", pb.ModelDirs(add=add or ""),
                                    "model_dirs"))

    # Arrays by name.

    def get_array(self, name):
        """An mjModel or mjData array by its MuJoCo name, shaped (rows,
        cols): ``get_array("geom_rgba")`` is (ngeom, 4)."""
        a = self._call("get_array", pb.ArrayRef(name=name), "array")
        return np.array(a.values).reshape(a.rows, a.cols)

    def set_array(self, name, values, offset=0):
        """Write values into an array from element ``offset`` (row-major)."""
        v = _f64(values, name)
        self._call("set_array", pb.Array(name=name, values=v, offset=offset))

    def list_arrays(self):
        """Every array: name, owner, type, rows, cols, writable, refusal."""
        return [to_struct(a) for a in self._call("list_arrays", None,
                                                 "arrays").arrays]

    # Recording.

    def record_start(self, fields=None, every=0, journal=False):
        """Record every (every+1)-th step into a new file of the server's
        state directory; returns the recording (its ``path``)."""
        msg = pb.RecordStart(every=every, journal=journal)
        for f in fields or ():
            msg.fields.append(_stream.field_number(f))
        return to_struct(self._call("record_start", msg, "recording"))

    def record_stop(self):
        """Stop the recording; returns it (``path``, ``records``...)."""
        return to_struct(self._call("record_stop", None, "recording"))

    def state_hash(self):
        """The state's hash (``hash``), with ``steps`` and ``time``."""
        return to_struct(self._call("state_hash", None, "state_hash"))

    # Sessions: clients and the lease.

    def clients(self):
        """The connected clients, as a list of Structs (``you`` marks
        this one)."""
        r = self._call("clients", None, "clients")
        out = [to_struct(c) for c in r.clients]
        for c in out:
            c["you"] = c.id == r.you
        return out

    def lease_info(self, op="query"):
        """The lease call: "query", "take" or "release"; returns the
        LeaseInfo (``holder``, ``holder_name``, ``on_loss``, ``token``)."""
        return to_struct(self._call("lease", pb.Lease(op=_LEASE_OPS[op]),
                                    "lease"))

    def take_lease(self):
        """Take the control lease: the others may only read."""
        return self.lease_info("take")

    def release_lease(self):
        """Release the control lease."""
        return self.lease_info("release")

    @contextlib.contextmanager
    def lease(self):
        """``with sim.lease() as info:`` holds the control lease for the
        block (``info.token`` shares it), releasing it at the end."""
        info = self.take_lease()
        try:
            yield info
        finally:
            if self.conn.connected:
                self.release_lease()

    # Streams and events.

    def subscribe(self, fields=(), every=None, sim_hz=None, wall_hz=None,
                  events=False):
        """Subscribe to frames of ``fields`` at one rate (``every`` N
        steps, ``sim_hz`` or ``wall_hz``) and/or to events (True: all,
        or a list of kinds: "model", "reset", "run", ...).  Returns a
        :class:`haptix.stream.Subscription`: iterate it for its frames
        and events; ``with`` ends it."""
        return _stream.subscribe(self, fields, every, sim_hz, wall_hz,
                                 events)

    def unsubscribe(self, id=0):
        """End a subscription by id (0: all of this connection's)."""
        self._call("unsubscribe", pb.Unsubscribe(id=id))

    def next_event(self, timeout=None):
        """The next frame or event of any subscription, as a Struct with
        ``kind`` ("frame", "model", "reset"...); Timeout after
        ``timeout`` seconds (None: wait as long as it takes)."""
        return _stream.event_struct(self, self.conn.next_event(timeout))

    # The simple API (hx_ calls) with the extension's names.

    def robot_info(self):
        """The model as HAPTIX's simple API sees it (hxRobotInfo)."""
        return to_struct(self._call("robot_info", None, "robot_info"))

    def robot_update(self, ref_pos=None, ref_vel=None, gain_pos=None,
                     gain_vel=None, ref_vel_max=None, no_wait=False):
        """hx_update: apply the arrays given (one value per motor), then
        (running) wait for the next API tick unless no_wait; the robot's
        sensors (hxSensor)."""
        msg = pb.RobotCommand(no_wait=no_wait)
        for k, v in (("ref_pos", ref_pos), ("ref_vel", ref_vel),
                     ("gain_pos", gain_pos), ("gain_vel", gain_vel),
                     ("ref_vel_max", ref_vel_max)):
            if v is not None:
                getattr(msg, k).extend(_f64(v, k))
                setattr(msg, k + "_enabled", True)
        return to_struct(self._call("robot_update", msg, "robot_sensor",
                                    timeout=None))

    # Drivers: mocap poses and moves, perturbations.

    def _mocap_ref(self, msg, body, field="body", index="mocap"):
        if isinstance(body, str):
            setattr(msg, field, body)
        else:
            setattr(msg, index, int(body))
        return msg

    def mocap_pose(self, body, pos, quat, sample_time_us=0, source_time=0.0):
        """A motion-capture driver's pose of a mocap body (by name or
        mocap index); returns its tracking."""
        msg = self._mocap_ref(pb.MocapPose(
            pos=_f64(pos, "pos", 3), quat=_f64(quat, "quat", 4),
            sample_time_us=sample_time_us, source_time=source_time), body)
        return to_struct(self._call("mocap_pose", msg, "tracking"))

    def mocap_connect(self, body, connect=True):
        """Connect (or disconnect) the tracking of a mocap body."""
        msg = self._mocap_ref(pb.MocapConnect(connect=connect), body)
        return to_struct(self._call("mocap_connect", msg, "tracking"))

    def mocap_move(self, body, pos, quat=None, seconds=0.0):
        """Move a mocap body smoothly to pos (and quat) over seconds of
        simulated time."""
        msg = self._mocap_ref(pb.MocapMove(pos=_f64(pos, "pos", 3),
                                           seconds=seconds), body)
        if quat is not None:
            msg.quat.extend(_f64(quat, "quat", 4))
        self._call("mocap_move", msg)

    def perturb(self, body, force=(0, 0, 0), torque=(0, 0, 0)):
        """A driver's force and torque on a body (by name or id); both
        zero releases it; repeat it within the server's timeout."""
        msg = pb.Perturb(force=_f64(force, "force", 3),
                         torque=_f64(torque, "torque", 3))
        if isinstance(body, str):
            msg.name = body
        else:
            msg.body = int(body)
        return to_struct(self._call("perturb", msg, "perturbation"))

    def __repr__(self):
        return "<haptix.Sim %s session %d>" % (
            "connected" if self.connected else "closed",
            self.conn.welcome.session_id)


__all__ = ["connect", "Sim"]
