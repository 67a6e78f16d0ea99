#!/bin/sh
# The systemd units: systemd-analyze verify accepts them, and the
# services' hardening keeps the exposure systemd-analyze security reports
# at 2.0 or lower.  Run by make check in the build tree, where make has
# generated the units; skipped (77) without systemd-analyze.

max=2.0
units=${HX_UNITS_DIR:-systemd}
srcdir=${srcdir:-.}

if ! command -v systemd-analyze >/dev/null 2>&1; then
	echo "units.sh: skipped: no systemd-analyze (Debian package systemd)" >&2
	exit 77
fi
if [ -z "$HAPTIXD" ] || [ ! -x "$HAPTIXD" ]; then
	echo "units.sh: HAPTIXD does not name the built haptixd" >&2
	exit 99
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/units.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

status=0
fail()
{
	echo "FAIL: $*" >&2
	status=1
}

# verify requires ExecStart's program to exist: point the copies at the
# built daemon, not where make install puts it.  A socket is verified
# beside its service, which it must find.
for u in haptixd.service haptixd.socket haptixd@.service haptixd@.socket; do
	if [ ! -f "$units/$u" ]; then
		echo "units.sh: no $units/$u (make check generates it)" >&2
		exit 99
	fi
	sed "s|^ExecStart=[^ ]*|ExecStart=$HAPTIXD|" "$units/$u" >"$tmp/$u" ||
	    exit 99
done

# verify warns about unknown or bad settings without failing: any line
# about our units is a failure too.  The template is instantiated by
# verify itself, and once more by name.
for pair in "haptixd.service haptixd.socket" \
    "haptixd@.service haptixd@.socket" "haptixd@lab2.service"; do
	set -- $pair
	args=
	for u; do
		args="$args $tmp/$u"
	done
	out=$(systemd-analyze verify --man=no $args 2>&1)
	rc=$?
	if [ $rc -ne 0 ] || printf '%s\n' "$out" | grep -q haptixd; then
		fail "systemd-analyze verify $*:"
		printf '%s\n' "$out" >&2
	else
		echo "ok: systemd-analyze verify $*"
	fi
done

# A RuntimeDirectory= would remove /run/haptixd, and the socket unit's
# socket in it, whenever the service stops.
for u in haptixd.service haptixd@.service; do
	if grep -q '^RuntimeDirectory' "$tmp/$u"; then
		fail "$u: RuntimeDirectory= removes the socket unit's socket"
	else
		echo "ok: $u has no RuntimeDirectory="
	fi
done

# --threshold is in tenths of the figure printed.
for u in haptixd.service haptixd@.service; do
	out=$(systemd-analyze security --offline=true --threshold=20 \
	    "$tmp/$u" 2>&1)
	rc=$?
	level=$(printf '%s\n' "$out" |
	    sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
	if [ -z "$level" ]; then
		fail "$u: no exposure level from systemd-analyze security:"
		printf '%s\n' "$out" >&2
	elif [ $rc -ne 0 ] || awk "BEGIN { exit !($level > $max) }"; then
		fail "$u: exposure $level, more than $max:"
		printf '%s\n' "$out" | grep -v '^✓' >&2
	else
		echo "ok: $u: exposure $level (at most $max)"
	fi
done

# The user and the directories: sysusers.d and tmpfiles.d applied to an
# empty root.  Only root may give the directories their owner.
if [ "$(id -u)" -ne 0 ]; then
	echo "skip: systemd-sysusers and systemd-tmpfiles need root"
elif ! command -v systemd-sysusers >/dev/null 2>&1 ||
    ! command -v systemd-tmpfiles >/dev/null 2>&1; then
	echo "skip: no systemd-sysusers or systemd-tmpfiles"
else
	# Both read a relative file name under --root.
	conf=$(cd "$srcdir/systemd" && pwd) || exit 99
	mkdir -p "$tmp/root/etc" || exit 99
	if ! out=$(systemd-sysusers --root="$tmp/root" \
	    "$conf/haptixd.sysusers" 2>&1) ||
	    ! grep -q '^haptixd:.*:/usr/sbin/nologin$' "$tmp/root/etc/passwd"; then
		fail "systemd-sysusers haptixd.sysusers:"
		printf '%s\n' "$out" >&2
	elif ! out=$(systemd-tmpfiles --root="$tmp/root" --create \
	    "$conf/haptixd.tmpfiles" 2>&1) ||
	    [ -n "$out" ]; then
		fail "systemd-tmpfiles --create haptixd.tmpfiles:"
		printf '%s\n' "$out" >&2
	else
		uid=$(sed -n 's/^haptixd:[^:]*:\([0-9]*\):.*/\1/p' \
		    "$tmp/root/etc/passwd")
		for d in run/haptixd:drwxr-xr-x var/lib/haptixd:drwxr-x---; do
			got=$(stat -c '%A %u' "$tmp/root/${d%%:*}")
			if [ "$got" != "${d#*:} $uid" ]; then
				fail "/${d%%:*} is \"$got\", not \"${d#*:} $uid\""
			else
				echo "ok: /${d%%:*} ${d#*:} haptixd"
			fi
		done
	fi
fi

exit $status
