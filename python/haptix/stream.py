"""Subscriptions: frames of chosen fields at a rate, and events, read as
iterators.

Frames and events arrive as frames with id 0 (docs/protocol.md,
"Streams and events").  A :class:`Subscription` yields its own frames,
and the events when it asked for them; what belongs to another
subscription of the same connection waits in the connection's queue.
"""

import time

import numpy as np

from .errors import BadValue, Timeout
from .proto import pb
from .struct import Struct, to_struct

# StreamField numbers by name, as hxctl names them.
FIELDS = {"qpos": 1, "qvel": 2, "act": 3, "ctrl": 4, "mocap": 5,
          "sensordata": 6, "body": 7, "geom": 8, "site": 9, "contacts": 10,
          "status": 11, "qfrc_applied": 12, "xfrc_applied": 13}
# Event kinds by name: the members of Event.kind and their numbers.
EVENT_KINDS = {f.name: f.number for f in
               pb.Event.DESCRIPTOR.oneofs_by_name["kind"].fields}
# What each field fills in a StreamFrame.
_FRAME_FIELDS = {"mocap": ("mocap_pos", "mocap_quat")}


def field_number(name):
    """A StreamField's number from its name ("qpos", "mocap", ...)."""
    if isinstance(name, int):
        return name
    try:
        return FIELDS[name]
    except KeyError:
        raise BadValue("unknown stream field '%s': one of %s"
                       % (name, ", ".join(FIELDS))) from None


def frame_keys(fields):
    """The StreamFrame members that a list of field names fills."""
    out = []
    for f in fields:
        out.extend(_FRAME_FIELDS.get(f, (f,)))
    return out


def event_struct(sim, r, keys=None):
    """An event Response as a Struct: ``kind`` and ``time``, and for a
    frame its ``subscription``, ``step``, ``dropped`` and fields (``keys``,
    else those present), for other kinds the event's own fields."""
    ev = r.event
    kind = ev.WhichOneof("kind")
    if kind == "frame":
        fr = to_struct(ev.frame)
        out = Struct(kind="frame", subscription=fr.subscription,
                     time=fr.time, step=fr.step, dropped=fr.dropped)
        for k, v in fr.items():
            if k in out:
                continue
            if keys is not None:
                if k in keys:
                    out[k] = v
            elif v is not None and not (isinstance(v, np.ndarray) and
                                        v.size == 0):
                out[k] = v
        return out
    out = Struct(kind=kind, time=ev.time)
    if kind is not None:
        payload = getattr(ev, kind)
        out.update(to_struct(payload))
    return out


class Subscription:
    """A subscription's frames and events, as an iterator.

    ``for frame in sub:`` waits for each (forever, or ``sub.timeout``
    seconds, then Timeout); ``sub.next(timeout)`` reads one;
    ``with sim.subscribe(...) as sub:`` unsubscribes at the end.
    """

    def __init__(self, sim, id, fields, kinds, timeout=None):
        self.sim = sim
        self.id = id
        self.fields = list(fields)
        self.kinds = kinds              # None: no events; set(): all kinds
        self.timeout = timeout
        self._keys = frame_keys(self.fields)

    def _mine(self, r):
        ev = r.event
        kind = ev.WhichOneof("kind")
        if kind == "frame":
            return ev.frame.subscription == self.id
        return self.kinds is not None and (not self.kinds or
                                           kind in self.kinds)

    def next(self, timeout=-1):
        """The next frame or event of this subscription (a Struct)."""
        if timeout == -1:
            timeout = self.timeout
        conn = self.sim.conn
        for i, r in enumerate(conn.events):
            if self._mine(r):
                del conn.events[i]
                return event_struct(self.sim, r, self._keys)
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = None if deadline is None else max(0.0, deadline -
                                                     time.monotonic())
            try:
                r = conn.read_event(left)
            except Timeout:
                raise Timeout("no frame or event of subscription %d within "
                              "%g s" % (self.id, timeout)) from None
            if self._mine(r):
                return event_struct(self.sim, r, self._keys)
            conn._queue_event(r)

    def __iter__(self):
        return self

    def __next__(self):
        return self.next()

    def close(self):
        """End the subscription."""
        if self.sim.conn.connected:
            self.sim.unsubscribe(self.id)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return "<haptix.Subscription %d %s>" % (self.id, self.fields)


def subscribe(sim, fields, every, sim_hz, wall_hz, events, timeout=None):
    """Send a Subscribe; see Sim.subscribe."""
    if isinstance(fields, str):
        fields = [f for f in fields.split(",") if f]
    msg = pb.Subscribe(fields=[field_number(f) for f in fields],
                       every_steps=every or 0, sim_hz=sim_hz or 0.0,
                       wall_hz=wall_hz or 0.0)
    kinds = None
    if events:
        msg.events = True
        kinds = set()
        if events is not True:
            for k in ([events] if isinstance(events, str) else events):
                if k not in EVENT_KINDS or k == "frame":
                    raise BadValue("unknown event kind '%s': one of %s" % (
                        k, ", ".join(n for n in EVENT_KINDS if n != "frame")))
                msg.event_kinds.append(EVENT_KINDS[k])
                kinds.add(k)
    r = sim._call("subscribe", msg, "subscription")
    names = [f if isinstance(f, str) else
             {v: k for k, v in FIELDS.items()}[f] for f in fields]
    return Subscription(sim, r.id, names, kinds, timeout)
