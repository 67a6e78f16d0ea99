"""Server addresses, read as libhaptix reads them (lib/address.c).

``unix:PATH`` or ``/PATH`` is a Unix socket; ``HOST``, ``HOST:PORT``,
``[V6ADDR]:PORT`` or a bare IPv6 address is TCP (port 5790 when
omitted, an optional ``tcp:`` prefix); ``tls:`` before the same forms
is TLS over TCP (haptix/tls.py).  ``shm:PATH`` names a Unix socket with
the shared-memory transport required (haptix/shm.py): the connection
fails when the server does not offer it (haptix/connection.py).  No
address means ``$HAPTIX_SERVER``, else the default Unix socket.
"""

import ipaddress
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
    """Parse a server address into ("unix", path), ("shm", path),
    ("tcp", host, port) or ("tls", host, port).

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
    if spec.startswith("shm:"):
        return ("shm", _unix(spec[4:])[1])
    kind = "tls" if spec.startswith("tls:") else "tcp"
    if spec.startswith(kind + ":"):
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
    return (kind, host, int(port))


def format(addr):
    """An address as libhaptix prints it: unix:PATH, shm:PATH,
    tcp:HOST:PORT or tls:HOST:PORT (IPv6 hosts in brackets)."""
    if addr[0] in ("unix", "shm"):
        return "%s:%s" % addr
    if ":" in addr[1]:
        return "%s:[%s]:%d" % addr
    return "%s:%s:%d" % addr


def is_loopback(host):
    """True for an IP address of this machine's loopback: 127.0.0.0/8,
    ::1 or ::ffff:127.x.y.z (as lib/address.c's address_is_loopback).
    host is a numeric address as getpeername() gives it; a name is not
    judged, and is False."""
    try:
        ip = ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)
    return ip.is_loopback or (mapped is not None and mapped.is_loopback)
