"""Sim's MuJoCo computations (the compute area): what a program linking
MuJoCo computes from a state (mj_forward's arrays, mj_inverse, the mass
matrix, Jacobians, object velocities, contact forces, rays...), computed
by the daemon on a scratch copy of the live state or of states you give,
the simulation itself left alone (docs/protocol.md, ``compute``).

The methods are named after MuJoCo's functions without ``mj_``
(``full_m``, ``jac_site``, ``object_velocity``) and return NumPy arrays
in MuJoCo's shapes, objects by name or id.  Each takes ``state=`` (one
state: a dict of ComputeState's arrays, those not given the live
state's) or ``states=[...]`` (the results stacked on a leading axis).
Several computations in one request::

    q = sim.queries
    (jacp, jacr), M, bias = sim.compute(
        [q.jac_site("index_distal"), q.full_m(), q.forward("qfrc_bias")])
"""

import functools

import numpy as np

from .errors import BadSize, BadType, BadValue, Error
from .model import OBJ_TYPES
from .proto import pb
from .sim_args import f64, obj_id
from .struct import Struct

# The daemon's caps on one request (daemon/api_compute.c).
MAX_STATES = 1000
# A request of states bigger than this asks the server's frame limit
# first (status), once per connection, and is cut to fit it.
_SMALL_REQUEST = 64 * 1024

# The objects object_velocity and object_acceleration take.
OBJECT_TYPES = ("body", "xbody", "geom", "site")

# ComputeState's arrays and their sizes in the model.
_STATE_SIZES = {
    "qpos": lambda m: m.nq, "qvel": lambda m: m.nv, "act": lambda m: m.na,
    "ctrl": lambda m: m.nu, "mocap_pos": lambda m: 3 * m.nmocap,
    "mocap_quat": lambda m: 4 * m.nmocap, "qfrc_applied": lambda m: m.nv,
    "xfrc_applied": lambda m: 6 * m.nbody,
    "qacc_warmstart": lambda m: m.nv, "qacc": lambda m: m.nv,
}


class Query:
    """One computation for :meth:`SimCompute.compute`, made by
    ``sim.queries``: the protocol's Query messages it sends (``msgs``)
    and ``read(results, last_step)``, its value for one state from
    their QueryResults."""

    __slots__ = ("msgs", "read")

    def __init__(self, msgs, read):
        self.msgs = msgs
        self.read = read


class ContactForces(list):
    """The contacts of one state, a Struct each; ``last_step`` says they
    are the last step's, with the forces of its solve."""

    last_step = False


def _values(r):
    """A QueryResult's values in its shape."""
    a = np.fromiter(r.values, np.float64, len(r.values))
    return a.reshape(tuple(r.shape))


def _one(read):
    """A reader of a query of one message."""
    return lambda rs, last_step: read(rs[0])


def _rows(values, what, width):
    """``values`` as a (k, width) float64 array, and whether it was one
    row; BadSize unless its rows hold ``width`` values."""
    a = np.asarray(values, dtype=np.float64)
    if a.ndim not in (1, 2) or a.shape[-1] != width:
        raise BadSize("%s has shape %s: %d values, or rows of %d"
                      % (what, a.shape, width, width))
    return a.reshape(-1, width), a.ndim == 1


def _pairs(a, b, what):
    """Two (k, n) arrays of rows side by side, a single row of either
    serving every row of the other."""
    if len(a) != len(b) and 1 not in (len(a), len(b)):
        raise BadSize("%s: %d rows and %d rows" % (what, len(a), len(b)))
    k = max(len(a), len(b))
    return np.hstack([np.broadcast_to(a, (k, a.shape[1])),
                      np.broadcast_to(b, (k, b.shape[1]))])


def _stack(values):
    """One query's values over the states, on a leading axis: arrays
    stacked, tuples and Structs member by member, contacts as a list."""
    first = values[0]
    if isinstance(first, tuple):
        return tuple(_stack(list(v)) for v in zip(*values))
    if isinstance(first, Struct):
        return Struct((k, _stack([v[k] for v in values])) for k in first)
    if isinstance(first, list):
        return list(values)
    return np.stack(values)


class Queries:
    """The computations as :class:`Query` objects, for one request of
    several: ``sim.queries.jac_site("index_distal")``.  Each method
    takes the arguments of the Sim method of its name, without
    ``state`` and ``states``."""

    def __init__(self, sim):
        self._sim = sim

    def __getattr__(self, name):
        method = getattr(type(self._sim), name, None)
        build = getattr(method, "query", None)
        if build is None:
            raise AttributeError("no computation named %r" % name)
        return functools.partial(build, self._sim)

    def __dir__(self):
        return [n for n in dir(type(self._sim))
                if hasattr(getattr(type(self._sim), n), "query")]


def _computation(build):
    """A Sim method computing the Query that ``build(sim, ...)`` makes,
    on ``state=`` or ``states=`` (see :meth:`SimCompute.compute`);
    ``build`` stays as its ``query``, for ``sim.queries``."""
    @functools.wraps(build)
    def method(self, *args, state=None, states=None, **kw):
        return self.compute(build(self, *args, **kw), state=state,
                            states=states)
    method.query = build
    return method


class SimCompute:
    """MuJoCo's computations on a scratch copy of the state.

    Mixed into :class:`haptix.Sim`, whose ``_call`` it uses, and its
    ``model`` for sizes and objects by name.  Every computation also
    takes ``state=`` or ``states=`` (see :meth:`compute`).
    """

    @property
    def queries(self):
        """The computations as :class:`Query` objects for :meth:`compute`
        (``sim.queries.full_m()``)."""
        return Queries(self)

    def compute(self, queries, state=None, states=None, last_step=False):
        """Run queries (a :class:`Query` from ``sim.queries``, or a list)
        in one request, in order, each after mj_forward.  (States the
        server could not compute in one answer are sent again, and more
        states than one request takes go in several.)

        On the live state (``state`` and ``states`` None), on ``state``
        (a dict or Struct of ComputeState's arrays: ``qpos``, ``qvel``,
        ``act``, ``ctrl``, ``mocap_pos``, ``mocap_quat``,
        ``qfrc_applied``, ``xfrc_applied``, ``qacc_warmstart``, and
        ``qacc`` for mj_inverse; those not given are the live state's),
        or on each of ``states``, each query's values then stacked on a
        leading axis (contacts: a list per state).  ``last_step``
        computes on the live data as the last step left it, without
        mj_forward (contact forces of that step's solve).

        The queries share one scratch mjData: mj_inverse and
        object_acceleration (mj_rnePostConstraint) overwrite arrays that
        ``forward`` reads (``efc_force``, ``qfrc_constraint``, ``cacc``),
        so put ``forward`` first; and a state's ``qacc`` replaces
        mj_forward's for every query (``forward("qacc")`` gives it back).

        Returns the query's value, or a list of one per query.  The
        simulation, its warm start and its counters stay as they were.
        """
        one = isinstance(queries, Query)
        qs = [queries] if one else list(queries)
        if not qs:
            raise BadValue("compute: no queries")
        if state is not None and states is not None:
            raise BadValue("compute: give state or states, not both")
        msgs = [m for q in qs for m in q.msgs]
        if states is None:
            given = None if state is None else [self._compute_state(state)]
        else:
            given = [self._compute_state(s) for s in states]
            if not given:
                raise BadValue("compute: states is empty (None computes "
                               "on the live state)")
        per_state = []
        for chunk in self._compute_chunks(msgs, given):
            while True:
                msg = pb.Compute(queries=msgs, states=chunk or (),
                                 last_step=bool(last_step))
                r = self._call("compute", msg, "compute")
                per_state.extend(self._compute_read(qs, len(msgs), r))
                if chunk is None or r.states_done >= len(chunk):
                    break
                if r.states_done == 0:
                    raise Error("compute: the server computed no state "
                                "of %d" % len(chunk))
                chunk = chunk[r.states_done:]
        out = [per_state[0][i] if states is None else
               _stack([s[i] for s in per_state]) for i in range(len(qs))]
        return out[0] if one else out

    def _compute_state(self, st):
        """A state as ComputeState, its arrays checked for size."""
        if isinstance(st, pb.ComputeState):
            return st
        if not isinstance(st, dict):
            raise BadValue("a state is a dict of %s, not %s"
                           % (", ".join(_STATE_SIZES), type(st).__name__))
        unknown = sorted(set(st) - set(_STATE_SIZES))
        if unknown:
            raise BadValue("state: no array named %s: a state has %s"
                           % (", ".join(unknown), ", ".join(_STATE_SIZES)))
        m = self.model
        msg = pb.ComputeState()
        for k, v in st.items():
            if v is not None:
                getattr(msg, k).extend(f64(v, "state " + k,
                                           _STATE_SIZES[k](m)))
        return msg

    def _compute_chunks(self, msgs, given):
        """The states cut into requests the server takes: at most
        MAX_STATES, and within its frame limit (None: no states)."""
        if given is None:
            return [None]
        size = sum(s.ByteSize() + 8 for s in given)
        if size + sum(m.ByteSize() + 8 for m in msgs) <= _SMALL_REQUEST:
            return [given[i:i + MAX_STATES]
                    for i in range(0, len(given), MAX_STATES)]
        if getattr(self, "_compute_frame", None) is None:
            self._compute_frame = int(self.status().limits.max_frame)
        budget = self._compute_frame - self._compute_frame // 8 - \
            sum(m.ByteSize() + 8 for m in msgs)
        chunks, cur, used = [], [], 0
        for s in given:
            n = s.ByteSize() + 8
            if cur and (used + n > budget or len(cur) == MAX_STATES):
                chunks.append(cur)
                cur, used = [], 0
            cur.append(s)
            used += n
        chunks.append(cur)
        return chunks

    @staticmethod
    def _compute_read(qs, n, r):
        """Each computed state's values, a list of one per query."""
        out = []
        for s in range(r.states_done):
            rs = r.results[s * n:(s + 1) * n]
            values, at = [], 0
            for q in qs:
                values.append(q.read(rs[at:at + len(q.msgs)], r.last_step))
                at += len(q.msgs)
            out.append(values)
        return out

    def _objects(self, kind, type_name, which, **kw):
        """A query on one object or a list of them (by name or id), and
        whether it was one: names go to the server as names."""
        one = isinstance(which, (str, int, np.integer))
        items = [which] if one else list(which)
        msg = pb.Query(kind=kind, **kw)
        if all(isinstance(w, str) for w in items):
            msg.names.extend(items)
        else:
            t = "body" if type_name == "xbody" else type_name
            msg.ids.extend(obj_id(self, t, w) for w in items)
        return msg, one

    def _jacobian(self, kind, objtype, which):
        msg, one = self._objects(kind, objtype, which)

        def read(r):
            a = _values(r)
            return (a[0, 0], a[0, 1]) if one else (a[:, 0], a[:, 1])
        return Query([msg], _one(read))

    @_computation
    def forward(self, *names):
        """mjData arrays by name after mj_forward, each shaped (rows,
        cols) as ``get_array`` gives them (``qacc`` is (nv, 1)): one
        name, its array; several, a Struct of them by name.  mj_forward
        normalizes the quaternions of a given ``qpos``."""
        if not names:
            raise BadValue("forward: name one array or more")
        msgs = [pb.Query(kind=pb.COMPUTE_ARRAY, names=[n]) for n in names]

        def read(rs, last_step):
            if len(names) == 1:
                return _values(rs[0])
            return Struct((n, _values(r)) for n, r in zip(names, rs))
        return Query(msgs, read)

    @_computation
    def inverse(self):
        """mj_inverse: ``qfrc_inverse`` (nv,), the forces that give the
        state's ``qacc`` (give it in the state; else mj_forward's)."""
        return Query([pb.Query(kind=pb.COMPUTE_INVERSE)], _one(_values))

    @_computation
    def full_m(self):
        """mj_fullM: the joint-space mass matrix (nv, nv)."""
        return Query([pb.Query(kind=pb.COMPUTE_FULL_M)], _one(_values))

    @_computation
    def solve_m(self, y):
        """mj_solveM: x with M x = y, in y's shape ((nv,) or (k, nv))."""
        rows, one = _rows(y, "y", self.model.nv)
        msg = pb.Query(kind=pb.COMPUTE_SOLVE_M, args=rows.ravel())
        return Query([msg], _one(lambda r: _values(r)[0] if one
                                 else _values(r)))

    @_computation
    def rne(self, flg_acc=False):
        """mj_rne: the bias forces (nv,); with ``flg_acc``, plus M qacc
        for the state's qacc, M without the joints' armature (MuJoCo's
        mj_rne leaves it out)."""
        return Query([pb.Query(kind=pb.COMPUTE_RNE, flag=bool(flg_acc))],
                     _one(_values))

    @_computation
    def jac(self, body, point):
        """mj_jac: ``(jacp, jacr)`` of a world point on a body, each (3,
        nv); points (k, 3) give each (k, 3, nv), on one body or on a list
        of k."""
        rows, one = _rows(point, "point", 3)
        msg, one_body = self._objects(pb.COMPUTE_JAC, "body", body,
                                      args=rows.ravel())

        def read(r):
            a = _values(r)
            return (a[0, 0], a[0, 1]) if one and one_body \
                else (a[:, 0], a[:, 1])
        return Query([msg], _one(read))

    @_computation
    def jac_body(self, body):
        """mj_jacBody: ``(jacp, jacr)`` at a body's frame, each (3, nv);
        a list of k bodies gives each (k, 3, nv)."""
        return self._jacobian(pb.COMPUTE_JAC_BODY, "body", body)

    @_computation
    def jac_body_com(self, body):
        """mj_jacBodyCom: ``(jacp, jacr)`` at a body's centre of mass, as
        jac_body."""
        return self._jacobian(pb.COMPUTE_JAC_BODY_COM, "body", body)

    @_computation
    def jac_geom(self, geom):
        """mj_jacGeom: ``(jacp, jacr)`` at a geom's centre, as jac_body."""
        return self._jacobian(pb.COMPUTE_JAC_GEOM, "geom", geom)

    @_computation
    def jac_site(self, site):
        """mj_jacSite: ``(jacp, jacr)`` at a site, as jac_body."""
        return self._jacobian(pb.COMPUTE_JAC_SITE, "site", site)

    def _object_motion(self, kind, objtype, which, local):
        if isinstance(objtype, str):
            if objtype not in OBJECT_TYPES:
                raise BadType("objtype '%s' is not one of %s"
                              % (objtype, ", ".join(OBJECT_TYPES)))
            t, code = objtype, OBJ_TYPES[objtype]
        else:
            code = int(objtype)
            t = {OBJ_TYPES[n]: n for n in OBJECT_TYPES}.get(code, "body")
        msg, one = self._objects(kind, t, which, objtype=code,
                                 flag=bool(local))
        return Query([msg], _one(lambda r: _values(r)[0] if one
                                 else _values(r)))

    @_computation
    def object_velocity(self, objtype, name, local=False):
        """mj_objectVelocity: an object's 6-D velocity (6,), rotation
        first, at its origin ("body": the body's centre of mass, as MuJoCo
        has it; "xbody": the body's frame; a geom's or site's centre), in
        world axes or, ``local``, the object's own.  ``objtype`` "body",
        "xbody", "geom" or "site" (or its ObjType number); a list of k
        objects gives (k, 6)."""
        return self._object_motion(pb.COMPUTE_OBJECT_VELOCITY, objtype,
                                   name, local)

    @_computation
    def object_acceleration(self, objtype, name, local=False):
        """mj_objectAcceleration after mj_rnePostConstraint, as
        object_velocity: what an accelerometer there reads, gravity
        included (a body at rest: +g upward)."""
        return self._object_motion(pb.COMPUTE_OBJECT_ACCELERATION, objtype,
                                   name, local)

    def _contact_force_query(self):
        def read(rs, last_step):
            r = rs[0]
            f = _values(r)
            ids = np.fromiter(r.ids, np.int64, len(r.ids)).reshape(-1, 4)
            frames = np.fromiter(r.frames, np.float64,
                                 len(r.frames)).reshape(-1, 13)
            names = list(r.names)
            out = ContactForces()
            out.last_step = last_step
            for i in range(len(f)):
                c = Struct()
                for j, k in enumerate(("geom1", "geom2", "body1", "body2")):
                    c[k] = names[4 * i + j]
                    c[k + "_id"] = int(ids[i, j])
                c.force = f[i]
                c.dist = float(frames[i, 0])
                c.pos = frames[i, 1:4]
                c.frame = frames[i, 4:13].reshape(3, 3)
                out.append(c)
            return out
        return Query([pb.Query(kind=pb.COMPUTE_CONTACT_FORCE)], read)

    def contact_force(self, last_step=False, state=None, states=None):
        """mj_contactForce of every contact: a list of Structs, each with
        ``geom1``, ``geom2``, ``body1``, ``body2`` (names, "" unnamed),
        their ids (``geom1_id``...), ``force`` (6,) in the contact's frame
        (normal first, then the tangents, then torques), ``dist``, ``pos``
        (3,) and ``frame`` (3, 3), its rows the axes.  After mj_forward
        of the state, or, ``last_step``, as the last step solved them
        (the list's ``last_step`` says so)."""
        return self.compute(self._contact_force_query(), state=state,
                            states=states, last_step=last_step)

    contact_force.query = _contact_force_query

    @_computation
    def energy(self):
        """mj_energyPos and mj_energyVel: (2,), potential then kinetic."""
        return Query([pb.Query(kind=pb.COMPUTE_ENERGY)], _one(_values))

    @_computation
    def ray(self, pnt, vec, geomgroup=None, include_static=True,
            exclude_body=None):
        """mj_ray from ``pnt`` along ``vec``: ``(dist, geom)``, the
        distance in units of ``vec``'s length and the geom id hit (-1 and
        -1: none).  ``pnt`` and ``vec`` (k, 3) (or one of them (3,)) give
        arrays of k.  ``geomgroup``: 6 flags, the geom groups seen (None:
        all; MuJoCo 2.2.2 sees planes and height fields in any group);
        ``include_static``: the world's geoms too; ``exclude_body``: a
        body (name or id) whose geoms are not seen."""
        p, one_p = _rows(pnt, "pnt", 3)
        v, one_v = _rows(vec, "vec", 3)
        msg = pb.Query(kind=pb.COMPUTE_RAY,
                       args=_pairs(p, v, "ray: pnt and vec").ravel(),
                       exclude_static=not include_static)
        if geomgroup is not None:
            msg.geomgroup.extend(bool(g) for g in geomgroup)
        if exclude_body is not None:
            name = exclude_body if isinstance(exclude_body, str) else \
                self.model.names["body"][obj_id(self, "body", exclude_body)]
            if not name:
                raise BadValue("ray: body %d has no name to exclude it by"
                               % exclude_body)
            msg.exclude_body = name

        def read(r):
            d = _values(r)
            g = np.fromiter(r.ids, np.int64, len(r.ids))
            if one_p and one_v:
                return float(d[0]), int(g[0])
            return d, g
        return Query([msg], _one(read))

    @_computation
    def differentiate_pos(self, qpos1, qpos2, dt):
        """mj_differentiatePos: the velocity (nv,) that goes from
        ``qpos1`` to ``qpos2`` in ``dt``; rows of qpos (k, nq) give (k,
        nv)."""
        nq = self.model.nq
        a, one_a = _rows(qpos1, "qpos1", nq)
        b, one_b = _rows(qpos2, "qpos2", nq)
        msg = pb.Query(kind=pb.COMPUTE_DIFFERENTIATE_POS, dt=float(dt),
                       args=_pairs(a, b, "differentiate_pos").ravel())
        return Query([msg], _one(lambda r: _values(r)[0] if one_a and one_b
                                 else _values(r)))

    @_computation
    def integrate_pos(self, qpos, qvel, dt):
        """mj_integratePos: ``qpos`` (nq,) moved by ``qvel`` (nv,) for
        ``dt``; rows (k, nq) or (k, nv) give (k, nq)."""
        m = self.model
        a, one_a = _rows(qpos, "qpos", m.nq)
        b, one_b = _rows(qvel, "qvel", m.nv)
        msg = pb.Query(kind=pb.COMPUTE_INTEGRATE_POS, dt=float(dt),
                       args=_pairs(a, b, "integrate_pos").ravel())
        return Query([msg], _one(lambda r: _values(r)[0] if one_a and one_b
                                 else _values(r)))
