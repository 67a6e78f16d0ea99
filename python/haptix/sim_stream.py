"""Sim's streams and events: subscriptions (haptix.stream) and the
next event of any of them."""

from . import stream as _stream
from .proto import pb


class SimStream:
    """Streams and events.

    Mixed into :class:`haptix.Sim`, whose ``_call`` and ``conn`` it
    uses.
    """

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
