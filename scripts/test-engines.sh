#!/usr/bin/env bash
# make test-engines (CI): a sweep run by real engines merges to the same
# bytes as the same sweep run locally:
#   - Slurm: a single-node cluster from the Debian packages (munge, slurmctld,
#     slurmd), its slurm.conf generated in a temporary folder, no systemd;
#     the emitted job-array script submitted with sbatch --wait.
#   - GNU parallel with --sshloginfile naming this machine through ssh: an
#     sshd of our own on 127.0.0.1 with a temporary host key and user key.
# Run as root (the daemons run as root here). Every daemon started is
# stopped by its pid on exit; nothing outside the temporary folder is
# touched but /run/sshd (sshd's privilege-separation folder, created if
# missing).
#
#   scripts/test-engines.sh [TIMERSIM]   (scripts/setup.sh installs the packages)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:-build/timersim}")
for p in munged mungekey slurmctld slurmd sbatch sinfo parallel /usr/sbin/sshd ssh ssh-keygen; do
  command -v "$p" > /dev/null || { echo "test-engines: $p is missing: run scripts/setup.sh" >&2; exit 1; }
done
[ "$(id -u)" = 0 ] || { echo "test-engines: run as root (the daemons are started here)" >&2; exit 1; }

tmp=$(mktemp -d /tmp/timersim-engines.XXXXXX)
chmod 755 "$tmp"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2> /dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2> /dev/null || true; done
  if [ "${KEEP:-0}" = 1 ]; then echo "test-engines: kept $tmp" >&2; else rm -rf "$tmp"; fi
}
trap cleanup EXIT
fail() {
  echo "test-engines: $*" >&2
  for log in "$tmp"/*.log; do [ -f "$log" ] && { echo "--- $log" >&2; tail -20 "$log" >&2; }; done
  exit 1
}
wait_for() {	# wait_for SECONDS DESCRIPTION COMMAND...
  local secs=$1 what=$2; shift 2
  for _ in $(seq $((secs * 5))); do "$@" > /dev/null 2>&1 && return 0; sleep 0.2; done
  fail "$what did not come up in $secs s"
}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# The sweep: a recording and a workload at two seeds, classic and v48.
"$bin" gen --hz 250 --cpus 2 --duration 2s -w 'networking:rate=60;periodic:timers=6,period=90ms' \
  -o "$tmp/rec.txt" > /dev/null
spec() {	# spec NAME: the same sweep, results in NAME.d
  cat > "$tmp/$1.spec" << SPEC
trace = rec.txt
workload = networking:rate=40;lognormal:rate=100,median=30ms
duration = 1s
what_if_hz = recorded, 1000
seed = 1, 2
SPEC
  echo "$tmp/$1.spec"
}
local_spec=$(spec local)
"$bin" sweep "$local_spec" -j 2 > /dev/null
"$bin" merge "$local_spec" -o "$tmp/local.csv"
cells=$(( $(wc -l < "$tmp/local.csv") - 1 ))

# --- Slurm ---------------------------------------------------------------
host=$(hostname -s)
mkdir -p "$tmp/slurm/state" "$tmp/slurm/spool" "$tmp/munge"
chmod 700 "$tmp/munge"
mungekey --create --keyfile "$tmp/munge/munge.key" --force 2> /dev/null ||
  dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
chmod 600 "$tmp/munge/munge.key"
munge_socket=$tmp/munge/munge.socket
munged --force --key-file "$tmp/munge/munge.key" --socket "$munge_socket" \
  --pid-file "$tmp/munge/munged.pid" --log-file "$tmp/munge.log" --seed-file "$tmp/munge/seed" \
  --foreground 2>> "$tmp/munge.log" &
pids+=($!)
wait_for 10 munged munge --socket "$munge_socket" -n
ctld_port=$(free_port)
slurmd_port=$(free_port)
cpus=$(nproc)
cat > "$tmp/slurm/slurm.conf" << CONF
# A single-node cluster for scripts/test-engines.sh (generated).
ClusterName=timersim-test
SlurmctldHost=$host
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$munge_socket
CredType=cred/munge
StateSaveLocation=$tmp/slurm/state
SlurmdSpoolDir=$tmp/slurm/spool
SlurmctldPidFile=$tmp/slurm/slurmctld.pid
SlurmdPidFile=$tmp/slurm/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$tmp/slurm/slurm.conf
slurmctld -D -i > "$tmp/slurmctld.out.log" 2>&1 &
pids+=($!)
slurmd -D -N "$host" > "$tmp/slurmd.out.log" 2>&1 &
pids+=($!)
wait_for 30 "the Slurm node" sh -c "sinfo -h -N -o '%t' | grep -Eq '^(idle|mix|alloc)'"
slurm_spec=$(spec slurm)
"$bin" sweep "$slurm_spec" --emit slurm -o "$tmp/sweep.sbatch"
timeout 300 sbatch --wait --quiet "$tmp/sweep.sbatch" > "$tmp/sbatch.log" 2>&1 || fail "sbatch --wait failed"
"$bin" merge "$slurm_spec" -o "$tmp/slurm.csv" || fail "the Slurm run left cells without results"
cmp "$tmp/local.csv" "$tmp/slurm.csv" || fail "Slurm's merged CSV differs from the local run's"
echo "test-engines: Slurm ($(sinfo -h -o %N), job array of $cells tasks): merged CSV equals the local run"

# --- GNU parallel over ssh -----------------------------------------------
mkdir -p "$tmp/ssh" /run/sshd
chmod 700 "$tmp/ssh"
ssh-keygen -q -t ed25519 -N '' -f "$tmp/ssh/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$tmp/ssh/id"
cp "$tmp/ssh/id.pub" "$tmp/ssh/authorized_keys"
ssh_port=$(free_port)
cat > "$tmp/ssh/sshd_config" << CONF
ListenAddress 127.0.0.1
Port $ssh_port
HostKey $tmp/ssh/host_key
PidFile $tmp/ssh/sshd.pid
AuthorizedKeysFile $tmp/ssh/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
CONF
/usr/sbin/sshd -D -e -f "$tmp/ssh/sshd_config" 2> "$tmp/sshd.log" &
pids+=($!)
cat > "$tmp/ssh/ssh_config" << CONF
Host timersim-test
  HostName 127.0.0.1
  Port $ssh_port
  User root
  IdentityFile $tmp/ssh/id
  IdentitiesOnly yes
  StrictHostKeyChecking no
  UserKnownHostsFile /dev/null
  LogLevel ERROR
  BatchMode yes
CONF
wait_for 10 sshd ssh -F "$tmp/ssh/ssh_config" timersim-test true
echo "2/ssh -F $tmp/ssh/ssh_config timersim-test" > "$tmp/hosts"
par_spec=$(spec par)
"$bin" sweep "$par_spec" --emit parallel -o "$tmp/jobs.txt"
(cd / && parallel --will-cite --sshloginfile "$tmp/hosts" --joblog "$tmp/parallel-jobs.txt" < "$tmp/jobs.txt") \
  > "$tmp/parallel.log" 2>&1 || fail "parallel failed"
ran=$(awk -F'\t' 'NR > 1 && $7 == 0' "$tmp/parallel-jobs.txt" | wc -l)
[ "$ran" = "$cells" ] || fail "parallel's job log shows $ran successful jobs of $cells"
grep -q timersim-test "$tmp/parallel-jobs.txt" || fail "parallel ran the jobs without ssh"
"$bin" merge "$par_spec" -o "$tmp/par.csv" || fail "the parallel run left cells without results"
cmp "$tmp/local.csv" "$tmp/par.csv" || fail "parallel's merged CSV differs from the local run's"
echo "test-engines: GNU parallel over ssh ($cells jobs): merged CSV equals the local run"
