"""Server addresses, read as libhaptix reads them (lib/address.c).

``unix:PATH`` or ``/PATH`` is a Unix socket; ``HOST``, ``HOST:PORT``,
``[V6ADDR]:PORT`` or a bare IPv6 address is TCP (port 5790 when
omitted, an optional ``tcp:`` prefix).  No address means
``$HAPTIX_SERVER``, else the default Unix socket.
"""

import os

from .errors import NoConnection

DEFAULT_PORT = 5790
UNIX_NAME = "haptixd.sock"
UNIX_SYSTEM = "/run/haptixd/haptixd.sock"
_SUN_PATH_MAX = 108


def default_unix():
    """The default socket: $XDG_RUNTIME_DIR's, else the system one.

    As libhaptix: ``$XDG_RUNTIME_DIR/haptixd.sock`` when that variable
    holds an absolute path, unless no such socket exists and the system
    service's ``/run/haptixd/haptixd.sock`` does.
    """
    xdg = os.environ.get("XDG_RUNTIME_DIR", "")
    path = os.path.join(xdg, UNIX_NAME) if xdg.startswith("/") else UNIX_SYSTEM
    if not os.path.exists(path) and os.path.exists(UNIX_SYSTEM):
        path = UNIX_SYSTEM
    return path


def _unix(path):
    if not path:
        raise NoConnection("bad server address: empty Unix socket path")
    if len(path.encode()) >= _SUN_PATH_MAX:
        raise NoConnection(
            "bad server address: Unix socket path too long (%d bytes, at "
            "most %d): %s" % (len(path.encode()), _SUN_PATH_MAX - 1, path))
    return ("unix", path)


def parse(spec=None):
    """Parse a server address into ("unix", path) or ("tcp", host, port).

    Raises NoConnection, as libhaptix's hxd_connect() fails, for an
    address it cannot read.
    """
    if not spec:
        env = os.environ.get("HAPTIX_SERVER", "")
        if env:
            return parse(env)
        return _unix(default_unix())
    if spec.startswith("unix:"):
        return _unix(spec[5:])
    if spec.startswith("/"):
        return _unix(spec)
    if spec.startswith("tcp:"):
        spec = spec[4:]
    port = None
    if spec.startswith("["):
        end = spec.find("]")
        if end < 0:
            raise NoConnection("bad server address: missing ']' in " + spec)
        host, rest = spec[1:end], spec[end + 1:]
        if rest.startswith(":"):
            port = rest[1:]
        elif rest:
            raise NoConnection("bad server address: junk after ']' in " + spec)
    elif spec.count(":") == 1:
        host, port = spec.split(":")
    else:
        host = spec
    if not host:
        raise NoConnection("bad server address: bad host in " + spec)
    if port is None:
        port = str(DEFAULT_PORT)
    if not port.isdigit() or int(port) > 65535:
        raise NoConnection(
            "bad server address: bad port '%s' in %s" % (port, spec))
    if int(port) == 0:
        raise NoConnection(
            "bad server address: port 0 is not a server port: " + spec)
    return ("tcp", host, int(port))


def format(addr):
    """An address as libhaptix prints it: unix:PATH or tcp:HOST:PORT."""
    if addr[0] == "unix":
        return "unix:" + addr[1]
    if ":" in addr[1]:
        return "tcp:[%s]:%d" % (addr[1], addr[2])
    return "tcp:%s:%d" % (addr[1], addr[2])
