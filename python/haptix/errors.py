"""Exceptions named after the protocol's result codes.

Every failure the server reports, and every failure of the connection,
raises a subclass of :class:`Error` carrying the code and the server's
own words::

    haptix.BadSize: nq is 7 but the model has nq = 9

The library never prints: what went wrong is in the exception.
"""

__all__ = [
    "Error", "BadSize", "BadIndex", "BadType", "BadCommand", "NoModel",
    "CannotSend", "CannotRecv", "Timeout", "NoConnection", "Connected",
    "BadValue", "Denied", "LoadFailed", "BadProtocol", "SimError",
    "error_for", "RESULT_NAMES",
]

# The codes' names as HAPTIX's mjtResult and libhaptix's hxd_result_name()
# spell them, by code.
RESULT_NAMES = {
    0: "mjCOM_OK", -1: "mjCOM_BADSIZE", -2: "mjCOM_BADINDEX",
    -3: "mjCOM_BADTYPE", -4: "mjCOM_BADCOMMAND", -5: "mjCOM_NOMODEL",
    -6: "mjCOM_CANNOTSEND", -7: "mjCOM_CANNOTRECV", -8: "mjCOM_TIMEOUT",
    -9: "mjCOM_NOCONNECTION", -10: "mjCOM_CONNECTED", -11: "mjCOM_BADVALUE",
    -12: "mjCOM_DENIED", -13: "mjCOM_LOADFAILED", -14: "mjCOM_BADPROTOCOL",
    -15: "mjCOM_SIMERROR",
}


class Error(Exception):
    """A call failed: ``code`` is the result code, ``message`` the reason."""

    code = None

    def __init__(self, message="", code=None):
        super().__init__(message)
        if code is not None:
            self.code = code
        self.message = message

    @property
    def name(self):
        """The result's name as HAPTIX spells it, e.g. ``mjCOM_BADSIZE``."""
        return RESULT_NAMES.get(self.code, "mjCOM_UNKNOWN")

    def __str__(self):
        return self.message or self.name


def _code(name, code, doc, *bases):
    cls = type(name, (Error,) + bases, {"code": code, "__doc__": doc})
    cls.__module__ = "haptix"
    return cls


Error.__module__ = "haptix"
BadSize = _code("BadSize", -1, "A count or array length does not match the model.")
BadIndex = _code("BadIndex", -2, "An object id, name or keyframe is out of range.",
                 LookupError)
BadType = _code("BadType", -3, "The object type is not valid for this call.")
BadCommand = _code("BadCommand", -4, "A call this server does not know.")
NoModel = _code("NoModel", -5, "No model is loaded.")
CannotSend = _code("CannotSend", -6, "The request could not be sent.",
                   ConnectionError)
CannotRecv = _code("CannotRecv", -7,
                   "The answer could not be received: the server closed "
                   "the connection or sent what does not decode.",
                   ConnectionError)
Timeout = _code("Timeout", -8, "No answer or event within the timeout.",
                TimeoutError)
NoConnection = _code("NoConnection", -9,
                     "No connection: no server there, or it was lost.",
                     ConnectionError)
Connected = _code("Connected", -10, "Already connected.")
BadValue = _code("BadValue", -11, "NaN, Inf or a value outside its domain.",
                 ValueError)
Denied = _code("Denied", -12,
               "Refused: a token, a path outside the model directories, a "
               "limit, another client's lease or batch run.",
               PermissionError)
LoadFailed = _code("LoadFailed", -13, "The model did not load (MuJoCo's words).")
BadProtocol = _code("BadProtocol", -14,
                    "A frame or message the peer could not take: not a "
                    "haptixd, a wrong version, no Hello.")
SimError = _code("SimError", -15, "MuJoCo raised an error; the data was reset.")

_BY_CODE = {cls.code: cls for cls in (
    BadSize, BadIndex, BadType, BadCommand, NoModel, CannotSend, CannotRecv,
    Timeout, NoConnection, Connected, BadValue, Denied, LoadFailed,
    BadProtocol, SimError)}


def error_for(code, message=""):
    """The exception for a result code (an unknown code gives Error)."""
    cls = _BY_CODE.get(code)
    if cls is None:
        return Error(message or "result %d" % code, code)
    return cls(message)
