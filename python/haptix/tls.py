"""TLS for ``tls:`` addresses, as libhaptix does it (lib/tls_client.c).

The settings come from keyword arguments of :func:`haptix.connect`, else
from the environment libhaptix reads too:

``$HAPTIX_TLS_CA``
    a PEM file of the CAs that sign the server's certificate; unset, the
    system's CAs.  The certificate must name the address's host (a DNS
    name or an IP address).
``$HAPTIX_TLS_PIN``
    the SHA-256 fingerprint of the server's certificate (hex, colons
    optional, any case, an optional ``sha256:`` prefix).  With a pin,
    that certificate and no other is trusted; its CA, name and dates are
    not checked.
``$HAPTIX_TLS_CERT``, ``$HAPTIX_TLS_KEY``
    a client certificate and its key (PEM) for a daemon that requires
    one; the key defaults to the certificate's file.

TLS 1.2 at least.  Every failure is a NoConnection saying what failed.
"""

import hashlib
import os
import re
import socket
import ssl

from .errors import NoConnection

# A fingerprint's hex digits, in pairs, colons anywhere between pairs.
_PIN = re.compile(r":*(?:[0-9A-Fa-f]{2}:*){32}")

# OpenSSL's X509_V_ERR_ codes (x509_vfy.h) that the errors tell apart;
# Python's ssl gives them as verify_code without names.
_CERT_NOT_YET_VALID = 9
_CERT_HAS_EXPIRED = 10
_DEPTH_ZERO_SELF_SIGNED_CERT = 18
# UNABLE_TO_GET_ISSUER_CERT, SELF_SIGNED_CERT_IN_CHAIN,
# UNABLE_TO_GET_ISSUER_CERT_LOCALLY: no CA we trust signed it.
_NO_TRUSTED_ISSUER = (2, 19, 20)
_NAME_MISMATCH = (62, 64)           # HOSTNAME_MISMATCH, IP_ADDRESS_MISMATCH

# OpenSSL's reasons for a connection that is not TLS at all.
_NOT_TLS = ("WRONG_VERSION_NUMBER", "PACKET_LENGTH_TOO_LONG",
            "RECORD_LAYER_FAILURE")


class Settings:
    """A connection's TLS settings: each a value and where it came from
    (the keyword argument or the environment variable), for errors."""

    def __init__(self, ca=None, pin=None, cert=None, key=None):
        self.ca, self.ca_from = _setting(ca, "tls_ca", "HAPTIX_TLS_CA")
        self.pin_text, self.pin_from = _setting(pin, "tls_pin",
                                                "HAPTIX_TLS_PIN")
        self.cert, self.cert_from = _setting(cert, "tls_cert",
                                             "HAPTIX_TLS_CERT")
        self.key, self.key_from = _setting(key, "tls_key", "HAPTIX_TLS_KEY")
        self.pin = None     # its bytes, once context() has read it


def _setting(given, keyword, variable):
    """The value given, else the variable's (None when empty), with its
    source's name."""
    if given is not None:
        return given or None, keyword
    return os.environ.get(variable) or None, "$" + variable


def parse_pin(text, source="$HAPTIX_TLS_PIN"):
    """A SHA-256 fingerprint as its 32 bytes.

    Accepts what ``openssl x509 -noout -fingerprint -sha256`` prints
    after its '=' (AB:CD:...), plain hex, any case, and an optional
    ``sha256:`` prefix.  Raises NoConnection for anything else.
    """
    hexdigits = text[7:] if text[:7].lower() == "sha256:" else text
    if not _PIN.fullmatch(hexdigits):
        raise NoConnection(
            "%s is not a SHA-256 fingerprint (64 hex digits, as openssl "
            "x509 -noout -fingerprint -sha256 prints): %.100s"
            % (source, text))
    return bytes.fromhex(hexdigits.replace(":", ""))


def fingerprint(der):
    """A DER certificate's SHA-256 as AB:CD:... (as openssl prints it)."""
    return ":".join("%02X" % b for b in hashlib.sha256(der).digest())


def context(settings):
    """An SSLContext for these settings; NoConnection when the pin is
    not a fingerprint or a file named cannot be used."""
    if settings.pin_text:
        settings.pin = parse_pin(settings.pin_text, settings.pin_from)
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    ctx.options |= ssl.OP_NO_COMPRESSION | ssl.OP_NO_RENEGOTIATION
    if settings.pin is not None:
        # Checked after the handshake: that certificate, no other.
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
    elif settings.ca:
        try:
            ctx.load_verify_locations(cafile=settings.ca)
        except (OSError, ssl.SSLError) as e:
            raise NoConnection("cannot read the CAs of %s (%s): %s"
                               % (settings.ca_from, settings.ca,
                                  _why(e))) from None
    else:
        ctx.load_default_certs()
    if settings.cert:
        key = settings.key or settings.cert
        try:
            ctx.load_cert_chain(settings.cert, key)
        except (OSError, ssl.SSLError) as e:
            raise NoConnection(
                "cannot use the client certificate %s and key %s (%s, %s): %s"
                % (settings.cert, key, settings.cert_from, settings.key_from,
                   _why(e))) from None
    return ctx


def _trust(settings):
    """Where the trust in a server comes from, for the errors."""
    if settings.ca:
        return "the CAs of %s (%s)" % (settings.ca, settings.ca_from)
    return "the system's CAs; set $HAPTIX_TLS_CA or $HAPTIX_TLS_PIN"


def _why(e):
    """An OSError's or SSLError's reason in words: "tlsv1 alert unknown
    ca", not "[SSL: TLSV1_ALERT_UNKNOWN_CA] ... (_ssl.c:2580)"."""
    if isinstance(e, ssl.SSLError) and e.reason:
        return e.reason.lower().replace("_", " ")
    text = e.strerror or str(e)
    return re.sub(r"^\[SSL[^]]*\] *| *\(_ssl\.c:\d+\)$", "", text)


def _refused(e, host, settings):
    """What a failed verification of the server's certificate means."""
    v = e.verify_code
    if v in _NAME_MISMATCH:
        return "the server's certificate does not name %s" % host
    if v == _CERT_HAS_EXPIRED:
        return "the server's certificate has expired"
    if v == _CERT_NOT_YET_VALID:
        return "the server's certificate is not valid yet"
    if v == _DEPTH_ZERO_SELF_SIGNED_CERT:
        return ("the server's certificate is self-signed, not by a CA we "
                "trust (%s)" % _trust(settings))
    if v in _NO_TRUSTED_ISSUER:
        return ("the server's certificate is not signed by a CA we trust "
                "(%s)" % _trust(settings))
    return "cannot verify the server's certificate: %s" % e.verify_message


def failure(e, settings, what):
    """What an SSLError (not a verification's) met during ``what``
    ("handshake", "read", "write") says, as libhaptix words it."""
    reason = e.reason or ""
    if reason == "TLSV13_ALERT_CERTIFICATE_REQUIRED":
        return ("the server requires a client certificate: set "
                "$HAPTIX_TLS_CERT (and $HAPTIX_TLS_KEY)")
    if reason in ("TLSV1_ALERT_UNKNOWN_CA", "SSLV3_ALERT_BAD_CERTIFICATE"):
        return ("the server does not take our client certificate (%s): %s"
                % (settings.cert_from, _why(e)))
    if isinstance(e, ssl.SSLEOFError) or \
            reason == "UNEXPECTED_EOF_WHILE_READING":
        if what == "handshake":
            return ("the server closed the connection during the TLS "
                    "handshake: is this a TLS port?")
        return "the server has gone"
    text = "TLS %s: %s" % (what, _why(e) if reason else "failed")
    if reason in _NOT_TLS:
        text += " (is this a TLS port?)"
    return text


def start(sock, host, settings, where):
    """Make the TLS handshake on a connected TCP socket and verify the
    server: by its pin, else by the CAs and the name host.  Returns the
    SSLSocket; raises NoConnection "TLS with WHERE: ..." (and closes
    sock) when the server is refused or the handshake fails."""
    why = None
    try:
        ctx = context(settings)
    except NoConnection as e:
        sock.close()
        raise NoConnection("TLS with %s: %s" % (where, e)) from None
    try:
        s = ctx.wrap_socket(sock, server_hostname=host)
    except ssl.SSLCertVerificationError as e:
        why = _refused(e, host, settings)
    except ssl.SSLError as e:
        why = failure(e, settings, "handshake")
    except socket.timeout:
        why = "no TLS handshake within the timeout: is this a TLS port?"
    except ConnectionError:
        why = ("the server closed the connection during the TLS "
               "handshake: is this a TLS port?")
    except OSError as e:
        why = e.strerror or str(e)
    if why is None and settings.pin is not None:
        der = s.getpeercert(binary_form=True)
        if der is None:
            why = "the server showed no certificate"
        elif hashlib.sha256(der).digest() != settings.pin:
            why = ("the server's certificate is not the pinned one (%s): "
                   "its SHA-256 is %s" % (settings.pin_from,
                                          fingerprint(der)))
        if why is not None:
            goodbye(s)
            s.close()
    if why is not None:
        sock.close()
        raise NoConnection("TLS with %s: %s" % (where, why))
    return s


def goodbye(s):
    """Say TLS's goodbye (close_notify) on an SSLSocket about to close,
    so that the server sees an orderly end; one try, never waiting for
    the server's."""
    try:
        s.settimeout(0)
        s.unwrap()
    except (OSError, ValueError):
        pass
