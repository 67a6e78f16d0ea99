"""Sim's session calls: the connected clients and the control lease."""

import contextlib

from .proto import pb
from .struct import to_struct

# The lease call's operations by the names lease_info() takes.
_LEASE_OPS = {"query": pb.Lease.QUERY, "take": pb.Lease.TAKE,
              "release": pb.Lease.RELEASE}


class SimSession:
    """Sessions: clients and the lease.

    Mixed into :class:`haptix.Sim`, whose ``_call`` and ``conn`` it
    uses.
    """

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
        return self._get("lease", pb.Lease(op=_LEASE_OPS[op]),
                         "lease")

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
