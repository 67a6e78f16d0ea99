"""The simulation a connection reaches: every call of the extension API,
with NumPy arrays in the model's shapes and objects by name.

``haptix.connect()`` returns one.  Names follow the protocol's calls
(docs/protocol.md) and libhaptix's ``hxd_`` functions without the prefix
(``get_state``, ``set_control``, ``capture_key``); shortcuts by name sit
beside them (``sensor("A_index_MCP_pos")``, ``joint("wrist_PRO")``,
``set_ctrl(A_index_MCP=1.2)``).

This file holds the connection's use; the calls sit in a file per area,
each a class that :class:`Sim` is made of: ``sim_model.py`` (the model,
loading, editing), ``sim_view.py`` (reading), ``sim_set.py`` (writing),
``sim_object.py`` (objects), ``sim_array.py`` (arrays by name),
``sim_run.py`` (running, batches), ``sim_hold.py`` (holds),
``sim_world.py`` (the World API), ``sim_record.py`` (recording),
``sim_session.py`` (clients, the lease), ``sim_stream.py``
(subscriptions, events), ``sim_robot.py`` (the simple API),
``sim_driver.py`` (mocap drivers, perturbations) and ``sim_compute.py``
(MuJoCo's computations on a scratch copy of the state); ``sim_args.py``
has the arguments they share.
"""

from .connection import Connection
from .sim_array import SimArray
from .sim_compute import SimCompute
from .sim_driver import SimDriver
from .sim_hold import SimHold
from .sim_model import SimModel
from .sim_object import SimObject
from .sim_record import SimRecord
from .sim_robot import SimRobot
from .sim_run import SimRun
from .sim_session import SimSession
from .sim_set import SimSet
from .sim_stream import SimStream
from .sim_view import SimView
from .sim_world import SimWorld

# Names haptix.sim has always offered beside Sim and connect.
from . import zstd  # noqa: F401
from .errors import BadSize, BadValue  # noqa: F401
from .model import Model, obj_type  # noqa: F401
from .proto import pb  # noqa: F401
from .struct import Struct, answer, to_struct  # noqa: F401


def connect(server=None, token=None, name="python", timeout=10.0,
            lease_token=None, tls_ca=None, tls_pin=None, tls_cert=None,
            tls_key=None):
    """Connect to haptixd and say Hello; return a :class:`Sim`.

    ``server``: ``"unix:PATH"``, ``"HOST"``, ``"HOST:PORT"``,
    ``"[V6ADDR]:PORT"``, ``"tls:HOST:PORT"``; None means
    ``$HAPTIX_SERVER``, else the default Unix socket
    (``$XDG_RUNTIME_DIR/haptixd.sock``, else
    ``/run/haptixd/haptixd.sock``).  ``token`` (bytes or str) is what a
    TCP server with ``--token-file`` wants; None reads the file named by
    ``$HAPTIX_TOKEN_FILE``.  ``lease_token`` shares a lease (None:
    ``$HAPTIX_LEASE``).  ``timeout`` bounds each call's wait, in seconds
    (None: no bound).  ``tls_ca``, ``tls_pin``, ``tls_cert`` and
    ``tls_key`` are a ``tls:`` address's settings (None:
    ``$HAPTIX_TLS_CA``, ``$HAPTIX_TLS_PIN``, ``$HAPTIX_TLS_CERT``,
    ``$HAPTIX_TLS_KEY``; see :mod:`haptix.tls`).  Use it as a context
    manager to close it.
    """
    return Sim(Connection(server, name, token, timeout, lease_token,
                          tls_ca, tls_pin, tls_cert, tls_key))


class Sim(SimModel, SimView, SimSet, SimObject, SimArray, SimRun, SimHold,
          SimWorld, SimRecord, SimSession, SimStream, SimRobot, SimDriver,
          SimCompute):
    """A connection to one simulation.  See :func:`connect`."""

    def __init__(self, conn):
        self.conn = conn
        self._model = None

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

    def _get(self, call, msg=None, payload=None, timeout=-1):
        """A call's answer ``payload`` as a Struct, read from the
        answer's bytes (haptix.struct.answer) without decoding it as a
        message first."""
        conn = self.conn
        body, top = conn.wait(conn.send(call, msg if msg is not None
                                        else b""), call, timeout, raw=True)
        return answer(body, payload, top)

    def __repr__(self):
        return "<haptix.Sim %s session %d>" % (
            "connected" if self.connected else "closed",
            self.conn.welcome.session_id)


__all__ = ["connect", "Sim"]
