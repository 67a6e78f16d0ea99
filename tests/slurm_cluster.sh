#!/bin/sh
# A real single-node Slurm cluster in a directory, for tests/slurm.sh and
# for measuring make bench's Slurm figure by hand: munged with its own
# key and socket, slurmctld and slurmd with a minimal slurm.conf, free
# ports of their own on 127.0.0.1 (the host's name need not resolve),
# every file (state, spool, logs, pids) in DIR.
# Needs root (SlurmUser=root) and Debian's slurm-wlm and munge.
#
#   tests/slurm_cluster.sh start DIR   start it; prints the SLURM_CONF line
#   tests/slurm_cluster.sh stop DIR    stop what start started there
#
# Start fails with the reason (and the daemons' logs) when the cluster
# does not come up; it never leaves a daemon behind when it fails.
set -u

usage()
{
	echo "usage: tests/slurm_cluster.sh start|stop DIR" >&2
	exit 2
}

[ $# -eq 2 ] || usage
what=$1
dir=$2

# Cancel the cluster's jobs (their steps would outlive slurmd), then
# stop each daemon by the pid it wrote (never by name: other clusters
# may run here), and wait for it to go.
stop()
{
	if [ -s "$dir/slurmctld.pid" ] && [ -f "$dir/slurm.conf" ]; then
		SLURM_CONF="$dir/slurm.conf" scancel --quiet --user=root \
		    2>/dev/null
		i=0
		while [ $i -lt 50 ] && SLURM_CONF="$dir/slurm.conf" \
		    squeue -h 2>/dev/null | grep -q .; do
			sleep 0.2
			i=$((i + 1))
		done
	fi
	for d in slurmd slurmctld munged; do
		pidf=$dir/$d.pid
		[ -s "$pidf" ] || continue
		pid=$(cat "$pidf")
		kill "$pid" 2>/dev/null || continue
		i=0
		while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		kill -9 "$pid" 2>/dev/null
		rm -f "$pidf"
	done
}

die()
{
	echo "slurm_cluster.sh: $*" >&2
	for f in munged.log slurmctld.log slurmd.log; do
		[ -s "$dir/$f" ] || continue
		echo "--- $dir/$f" >&2
		tail -n 20 "$dir/$f" >&2
	done
	stop
	exit 1
}

# A TCP port no socket uses, from a range Slurm's defaults avoid and
# below the kernel's ephemeral ports: one of those, taken by a connection
# slurmctld opens meanwhile, kept slurmd from binding its port.
free_port()
{
	top=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null)
	[ "${top:-0}" -gt 21000 ] 2>/dev/null || top=32768
	while :; do
		p=$(($(od -An -N2 -tu2 /dev/urandom) % (top - 20000) + 20000))
		if ! ss -Htan "sport = :$p" 2>/dev/null | grep -q .; then
			echo "$p"
			return
		fi
	done
}

case $what in
stop)
	stop
	exit 0
	;;
start) ;;
*) usage ;;
esac

[ "$(id -u)" -eq 0 ] || die "needs root (SlurmUser=root)"
for p in munged slurmctld slurmd sbatch; do
	command -v "$p" >/dev/null 2>&1 || [ -x "/usr/sbin/$p" ] ||
	    die "$p is missing: apt-get install slurm-wlm munge"
done
PATH=$PATH:/usr/sbin
mkdir -p "$dir/state" "$dir/spool" "$dir/munge" || die "cannot make $dir"
dir=$(cd "$dir" && pwd)
chmod 755 "$dir/munge"

# munge: a key of our own and a socket in DIR.
dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 2>/dev/null ||
    die "cannot write the munge key"
chmod 400 "$dir/munge/munge.key"
sock=$dir/munge/munge.socket
munged --force --key-file="$dir/munge/munge.key" --socket="$sock" \
    --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" \
    --seed-file="$dir/munge/seed" >>"$dir/munged.log" 2>&1 ||
    die "munged did not start"

host=$(hostname -s)
cpus=$(nproc)
mem=$(awk '/^MemTotal:/ { print int($2 / 1024 * 0.9) }' /proc/meminfo)
ctld=$(free_port)
slurmd_port=$(free_port)
while [ "$slurmd_port" = "$ctld" ]; do slurmd_port=$(free_port); done
cat >"$dir/slurm.conf" <<CONF
# A single-node test cluster written by tests/slurm_cluster.sh.
ClusterName=hxtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
MaxArraySize=10001
MaxJobCount=20000
MinJobAge=60
InactiveLimit=0
KillWait=5
Waittime=0
SchedulerParameters=defer_batch
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$dir/slurm.conf"
slurmctld -i -f "$SLURM_CONF" >>"$dir/slurmctld.log" 2>&1 ||
    die "slurmctld did not start"
slurmd -f "$SLURM_CONF" >>"$dir/slurmd.log" 2>&1 || die "slurmd did not start"

# Up when the node is idle (slurmd registered with slurmctld).
i=0
while :; do
	state=$(sinfo -h -N -o %t 2>/dev/null | head -n 1)
	case $state in idle*|mix*|alloc*) break ;; esac
	i=$((i + 1))
	[ $i -le 300 ] || die "the node did not come up within 30 s" \
	    "(sinfo: '${state:-no answer}')"
	sleep 0.1
done
echo "export SLURM_CONF='$SLURM_CONF'"
