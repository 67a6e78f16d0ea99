"""Sim's recording calls: a recording started and stopped on the
server, the state's hash, and the live run's history (the states the
server keeps of the last seconds: read one, resume from one)."""

from . import stream as _stream
from .proto import pb


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
        return self._get("record_start", msg, "recording")

    def record_stop(self):
        """Stop the recording; returns it (``path``, ``records``...)."""
        return self._get("record_stop", None, "recording")

    def history(self, back=0):
        """A kept state of the live run's history, ``back`` kept states
        before the newest (0: the newest), without moving the
        simulation: ``time``, ``step``, ``resumable`` and the arrays a
        restore needs (``qpos``, ``qvel``, ``act``, ``ctrl``, the applied
        forces, mocap, ``userdata``, ``qacc_warmstart``).  How much is
        kept: ``status().history``."""
        return self._get("history", pb.HistoryRef(back=back),
                         "history_state")

    def history_resume(self, back):
        """Make the kept state ``back`` before the newest the live state,
        exactly, and forget the newer ones (a write: the lease)."""
        self._call("history_resume", pb.HistoryRef(back=back))

    def state_hash(self):
        """The state's hash (``hash``), with ``steps`` and ``time``."""
        return self._get("state_hash", None, "state_hash")
