#!/bin/sh
# hx-foxglove, the live bridge, tried by Foxglove's own client
# (@foxglove/ws-protocol's FoxgloveClient over ws) in Node
# (tests/foxglove/client.mjs) against real haptixds.  On a paused fixture:
# serverInfo, then the seven channels with their schemas; every topic
# delivered and decoded; after 30 steps every body's pose the daemon's
# xpos and xquat, the joints its qpos and qvel, the controls and sensors
# its own, all exact; the scene once to each subscriber and again after an
# edit; events for the message, reset, speed, run, pause and edit; the
# state at most at --fps.  Bad input answered by an error status, the
# connection kept; a text over 64 KiB closing its connection alone.  On
# the running MPL scene: a client that stops reading dropped while another
# reads on; --max-connections; beyond loopback only over TLS with a token
# (403 without it); usage errors (2), an address in use or no daemon (1).
#
# The Node packages come from npm at the versions of the committed
# package-lock.json (npm ci), installed once into the build tree.  Where
# node or npm is missing or npm cannot be reached this skips (77),
# saying why; under $CI, which installs everything, it fails instead.
# Run by make check.

. "$(dirname "$0")/common.sh" || exit 99
require_env foxglove.sh "make check" HX_FOXGLOVE HAPTIXD HXCTL \
    HX_TEST_MODELS HX_MODELS HX_BUILD HX_SRC

node_modules foxglove.sh foxglove "@foxglove/ws-protocol and ws"

scratch foxglove
# Every process started here, the bridges first, ended at exit.
pids=
trap 'for p in $pids; do kill "$p" 2>/dev/null; done
      for p in $pids; do wait "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT

# start_daemon NAME DIR MODEL ARG...: a haptixd on unix:$tmp/NAME.sock.
start_daemon()
{
	_n=$1 _dir=$2 _model=$3
	shift 3
	"$HAPTIXD" --config none -M "$_dir" -m "$_model" \
	    --unix "$tmp/$_n.sock" --tcp none "$@" 2>"$tmp/$_n.log" &
	daemon=$!
	pids="$pids $daemon"
	daemon_ready "$tmp/$_n.log" || exit 99
}

# start_bridge NAME ARG...: hx-foxglove, its output in $tmp/NAME.out and
# .err; once it says it serves, its port as $port and its address as
# $url (on 127.0.0.1).  1, with its output, if it ended or took 10 s.
start_bridge()
{
	_n=$1
	shift
	"$HX_FOXGLOVE" "$@" >"$tmp/$_n.out" 2>"$tmp/$_n.err" &
	_pid=$!
	pids="$_pid $pids"
	_i=0
	until grep -q '^hx-foxglove: serving wss\{0,1\}://' "$tmp/$_n.out"; do
		_i=$((_i + 1))
		if [ $_i -gt 100 ] || ! kill -0 $_pid 2>/dev/null; then
			echo "foxglove.sh: hx-foxglove $* did not serve:" >&2
			cat "$tmp/$_n.out" "$tmp/$_n.err" >&2
			return 1
		fi
		sleep 0.1
	done
	_line=$(cat "$tmp/$_n.out")
	echo "$_line"
	_scheme=${_line#hx-foxglove: serving }
	_scheme=${_scheme%%://*}
	port=$(echo "$_line" |
	    sed -n 's|^hx-foxglove: serving wss\{0,1\}://.*:\([0-9][0-9]*\)/ .*|\1|p')
	url=$_scheme://127.0.0.1:$port/
}

fails=0
fail()
{
	echo "foxglove.sh: FAIL: $1" >&2
	fails=$((fails + 1))
}

# client WHAT MODE ARG...: client.mjs MODE, its report on stdout and its
# failures on stderr.
client()
{
	_what=$1
	shift
	node "$mods/client.mjs" "$@" >"$tmp/client.out" 2>&1
	_rc=$?
	sed 's/^/  /' "$tmp/client.out"
	if [ $_rc != 0 ]; then
		grep '^FAIL' "$tmp/client.out" >&2
		fail "$_what"
	fi
}

# refused WHAT CODE ARG...: hx-foxglove ARG... ends at once with exit
# status CODE, saying why on stderr after "hx-foxglove: ".
refused()
{
	_what=$1 _code=$2
	shift 2
	timeout 10 "$HX_FOXGLOVE" "$@" >"$tmp/refused.out" 2>"$tmp/refused.err"
	_rc=$?
	if [ $_rc != "$_code" ] || ! grep -q '^hx-foxglove: ..' "$tmp/refused.err"; then
		fail "$_what: exit $_rc, want $_code, and stderr:"
		cat "$tmp/refused.out" "$tmp/refused.err" >&2
	else
		echo "refused ($_rc): $(tail -n 1 "$tmp/refused.err")"
	fi
}

# The paused fixture: channels, topics, exact poses, scenes, events,
# the rate, bad input.
start_daemon fix "$HX_TEST_MODELS" fixture.xml --paused
start_bridge live -s "unix:$tmp/fix.sock" --listen 127.0.0.1:0 --fps 20 ||
    exit 1
client "channels, topics, poses, scenes, events and rate (fixture)" \
    live "$url" 20 "$HXCTL" "unix:$tmp/fix.sock"
client "bad input" bad "$url"
[ "$(wc -l <"$tmp/live.out")" = 1 ] ||
    { fail "one line on stdout"; cat "$tmp/live.out" >&2; }

# The MPL scene running, its scene large: a client that stops reading.
start_daemon mpl "$HX_MODELS" mpl_scene.xml
start_bridge slow -s "unix:$tmp/mpl.sock" --listen 127.0.0.1:0 --fps 60 ||
    exit 1
client "a slow client dropped, the others served" slow "$url"

start_bridge conns -s "unix:$tmp/mpl.sock" --listen 127.0.0.1:0 \
    --max-connections 2 || exit 1
client "--max-connections 2" conns "$url"
refused "an address in use" 1 -s "unix:$tmp/mpl.sock" \
    --listen "127.0.0.1:$port"
refused "no daemon" 1 -s "unix:$tmp/none.sock" --listen 127.0.0.1:0

# Beyond loopback: never in the clear; over TLS only with a token.
unset HAPTIX_TOKEN_FILE
refused "beyond loopback in the clear" 2 -s "unix:$tmp/mpl.sock" \
    --listen 0.0.0.0:0
refused "an unknown option" 2 -s "unix:$tmp/mpl.sock" --frobnicate
if command -v openssl >/dev/null 2>&1; then
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
	    -nodes -subj /CN=localhost -days 2 -keyout "$tmp/key.pem" \
	    -out "$tmp/cert.pem" >"$tmp/openssl.log" 2>&1 ||
	    { cat "$tmp/openssl.log" >&2; exit 99; }
	refused "TLS beyond loopback without a token" 2 \
	    -s "unix:$tmp/mpl.sock" --listen tls:0.0.0.0:0 \
	    --tls-cert "$tmp/cert.pem" --tls-key "$tmp/key.pem"
	echo "fox-$$-secret" >"$tmp/token"
	chmod 600 "$tmp/token"
	HAPTIX_TOKEN_FILE=$tmp/token
	export HAPTIX_TOKEN_FILE
	start_bridge tls -s "unix:$tmp/mpl.sock" --listen tls:0.0.0.0:0 \
	    --tls-cert "$tmp/cert.pem" --tls-key "$tmp/key.pem" || exit 1
	case $url in
	wss://*) client "the token over TLS" token "$url" "fox-$$-secret" ;;
	*) fail "tls: serves $url, not wss://" ;;
	esac
else
	case ${CI:-} in
	'' | false) echo "foxglove.sh: no openssl: the TLS checks not run" >&2 ;;
	*) fail "\$CI is set, and there is no openssl" ;;
	esac
fi
[ $fails = 0 ]
