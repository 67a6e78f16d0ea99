"""haptix: drive haptixd simulations from Python.

Pure Python over the wire protocol (docs/protocol.md), with NumPy
arrays in the model's shapes and objects by name::

    import haptix
    with haptix.connect() as sim:           # $HAPTIX_SERVER, else the local socket
        sim.pause()
        sim.set_ctrl(A_index_MCP=1.2)
        out = sim.run(steps=1000, record=["qpos", "sensordata"], every=10)
        print(out["qpos"].shape, sim.sensor("A_index_MCP_pos").data)

``haptix.compat`` has the HAPTIX calls with their C and MATLAB names
(``hx_connect``, ``hx_update``, ``mj_get_state``...), ``haptix.Env``
an environment for learning with Gymnasium's conventions,
``haptix.VectorEnv`` many of them stepping in parallel, and
``haptix.read_recording`` reads ``.hxr`` files.  See docs/python.md.
"""

# The generated haptix_pb2 may sit in a second directory of this package
# (the build tree's python/haptix): let both serve it.
__path__ = __import__("pkgutil").extend_path(__path__, __name__)

from .errors import (Error, BadSize, BadIndex, BadType, BadCommand,  # noqa
                     NoModel, CannotSend, CannotRecv, Timeout, NoConnection,
                     Connected, BadValue, Denied, LoadFailed, BadProtocol,
                     SimError)
from .model import Model  # noqa: E402
from .sim import Sim, connect  # noqa: E402
from .struct import Struct  # noqa: E402
from .stream import Subscription  # noqa: E402
from .env import Env  # noqa: E402
from .vector import VectorEnv  # noqa: E402
from . import edit  # noqa: E402
from .recording import Recording, read_recording  # noqa: E402
from . import tasks  # noqa: E402

__version__ = "0.1.0"
__all__ = [
    "connect", "Sim", "Model", "Struct", "Subscription", "Env", "VectorEnv",
    "edit",
    "Recording", "read_recording",
    "Error", "BadSize", "BadIndex", "BadType", "BadCommand", "NoModel",
    "CannotSend", "CannotRecv", "Timeout", "NoConnection", "Connected",
    "BadValue", "Denied", "LoadFailed", "BadProtocol", "SimError",
]

tasks.register_gymnasium()
