"""Sim's recording calls: a recording started and stopped on the
server, and the state's hash."""

from . import stream as _stream
from .proto import pb
from .struct import to_struct


class SimRecord:
    """Recording, and the state's hash.

    Mixed into :class:`haptix.Sim`, whose ``_call`` it uses.
    """

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
