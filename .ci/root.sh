# Sourced by .ci/fresh-root and .ci/package-root: a new Debian 12 root
# unpacked from a cached pristine minbase, set up as an installed Debian
# is, and commands run in it in a mount namespace of their own.
#
# The caller sets me (its name, for messages), root (the root's path)
# and ci (this directory), then sources this file.
# A pristine minbase is kept as a tarball in $HX_FRESH_CACHE (default
# /var/cache/haptixd-ci, rebuilt after 7 days) from $HX_FRESH_MIRROR.

cache=${HX_FRESH_CACHE:-/var/cache/haptixd-ci}
mirror=${HX_FRESH_MIRROR:-http://deb.debian.org/debian}
tarball=$cache/bookworm-minbase.tar

say() { echo "$me: $*"; }
die() {
	echo "$me: FAIL: $*" >&2
	exit 1
}

# Root, and the tools every root needs; more tools as arguments.
root_need() {
	[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, chroot, mounts)"
	for tool in debootstrap unshare chroot "$@"; do
		command -v "$tool" >/dev/null ||
		    die "$tool is missing (apt-get install debootstrap" \
			"util-linux coreutils git)"
	done
}

# Unmount whatever a run killed outside its namespace left under a path
# (deepest first), then remove the tree, never crossing into a mount.
remove_root() {
	[ -e "$1" ] || return 0
	awk -v r="$1" '$2 == r || index($2, r "/") == 1 { print $2 }' \
	    /proc/mounts | sort -r | while read -r m; do
		umount -l "$m" || die "cannot unmount $m"
	done
	rm -rf --one-file-system "$1" || die "cannot remove $1"
}

# $root anew from the pristine minbase (from the cache while it is
# fresh, else debootstrapped again), set up as an installed Debian is:
# the hosts file of Debian's installer (localhost for IPv4 and IPv6),
# the host's apt sources, resolver and local certificate authorities.
root_unpack() {
	if [ -e "$root" ]; then
		say "removing a stale root at $root"
		remove_root "$root"
	fi
	mkdir -p "$cache"
	if [ -z "$(find "$tarball" -mtime -7 2>/dev/null)" ]; then
		say "debootstrap --variant=minbase bookworm ($mirror)"
		remove_root "$root.new"
		debootstrap --variant=minbase bookworm "$root.new" "$mirror" \
		    >"$cache/debootstrap.log" 2>&1 || {
			tail -n 20 "$cache/debootstrap.log" >&2
			die "debootstrap failed (log: $cache/debootstrap.log)"
		}
		tar -C "$root.new" -cf "$tarball.tmp" . &&
		    mv "$tarball.tmp" "$tarball" || die "cannot write $tarball"
		remove_root "$root.new"
	fi
	mkdir -p "$root"
	tar -C "$root" -xf "$tarball" || die "cannot unpack $tarball"

	cat >"$root/etc/hosts" <<'EOF'
127.0.0.1	localhost
127.0.1.1	haptixd-ci

# The following lines are desirable for IPv6 capable hosts
::1     localhost ip6-localhost ip6-loopback
ff02::1 ip6-allnodes
ff02::2 ip6-allrouters
EOF
	echo haptixd-ci >"$root/etc/hostname"
	rm -f "$root/etc/apt/sources.list"
	[ ! -f /etc/apt/sources.list ] || cp /etc/apt/sources.list "$root/etc/apt/"
	for f in /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] && cp "$f" "$root/etc/apt/sources.list.d/"
	done
	cp -L /etc/resolv.conf "$root/etc/resolv.conf"
	# The host's own certificate authorities: the npm registry is
	# reached through a proxy that signs with one, as a lab's may.
	# ca-certificates, installed later, takes them into the bundle.
	mkdir -p "$root/usr/local/share/ca-certificates"
	for f in /usr/local/share/ca-certificates/*.crt; do
		[ -f "$f" ] && cp "$f" "$root/usr/local/share/ca-certificates/"
	done
	return 0
}

# In a mount namespace of its own (so the mounts end with it however it
# ends): /proc, /sys, /dev, /dev/pts and /dev/shm mounted in $root as on
# a booted machine, the host's apt archive shared to save downloads;
# then "$@" on the host side (a command, or a function of this file),
# which reaches the root with root_run.
root_ns() {
	mkdir -p /var/cache/apt/archives/partial
	unshare --mount --propagation private /bin/sh -eu -c '
		me=$1 root=$2 ci=$3
		r=$root
		shift 3
		. "$ci/root.sh"
		mount -t proc proc "$r/proc"
		mount -t sysfs sysfs "$r/sys"
		mount --bind /dev "$r/dev"
		mount --bind /dev/pts "$r/dev/pts"
		mount -t tmpfs -o mode=1777,nosuid,nodev shm "$r/dev/shm"
		mkdir -p "$r/var/cache/apt/archives"
		mount --bind /var/cache/apt/archives "$r/var/cache/apt/archives"
		"$@"
	' "$me" "$me" "$root" "$ci" "$@"
}

# A shell command line run as root in $root (inside root_ns), with an
# empty environment but for CI, as a login would give.
root_run() {
	chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
	    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	    CI="${CI:-}" /bin/sh -c "$1"
}
