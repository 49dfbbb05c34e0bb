#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Slurm for real (issue 40 item 4; ../shared/docs/slurm-notes.md): starts a one-node cluster
# (munged, slurmctld, slurmd, as root, in a private folder), then summarizes captures with the
# scripts users run (scripts/slurm/summarize_array.sbatch as an array job, one task per rank;
# scripts/slurm/summarize_nodes.sh under salloc, one srun task per node) and checks that
# `npuscope report OUT --json` gives the same profile_analysis as `npuscope report CAPTURE --json`.
# Captures: a corpus one (the 910B Level1 text export, 2 ranks) and a generated one
# (tools/gen_cluster.py: 32 ranks in groups of 8, late members loaded and left out, 8 ranks per
# array task).
#
# Usage: scripts/test_slurm.sh NPUSCOPE_BINARY SHARED_DIR
# Exit 77 (skipped) only when this machine cannot run it at all: not root, or Slurm/munge not
# installed (scripts/test.sh installs them: slurmd slurmctld slurm-client munge); a daemon that
# does not start is a failure.
set -uo pipefail
npuscope="$(readlink -f "${1:?usage: test_slurm.sh NPUSCOPE SHARED}")"
shared="$(readlink -f "${2:?usage: test_slurm.sh NPUSCOPE SHARED}")"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

skip() { echo "test_slurm: skipped: $*"; exit 77; }
die() { echo "test_slurm: FAIL: $*"; tail -20 "$work"/log/*.log 2>/dev/null; exit 1; }
[ "$(id -u)" -eq 0 ] || skip "needs root to start slurmctld/slurmd"
for c in munged slurmctld slurmd sbatch salloc sinfo python3; do
  command -v "$c" >/dev/null 2>&1 || skip "$c not installed (apt-get install slurmd slurmctld slurm-client munge)"
done
[ -r /etc/munge/munge.key ] || skip "no /etc/munge/munge.key"

work="$(mktemp -d /tmp/npuscope-slurm.XXXXXX)"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  sleep 0.5
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT

host="$(hostname -s)"
mem_mb=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 1024 ))
cpus="$(nproc)"
mkdir -p "$work/state" "$work/spool" "$work/munge" "$work/log"
export SLURM_CONF="$work/slurm.conf"
cat >"$SLURM_CONF" <<CONF
ClusterName=npuscope-ci
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CryptoType=crypto/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
MpiDefault=none
NodeName=$host CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=ci Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF

# munge: its own socket in the private folder, so a munged already running is left alone.
munge_socket="$work/munge/munge.socket"
munged --force --socket="$munge_socket" --pid-file="$work/munge/munged.pid" --log-file="$work/log/munged.log" \
  --seed-file="$work/munge/munged.seed" || die "munged does not start"
for _ in $(seq 50); do [ -s "$work/munge/munged.pid" ] && break; sleep 0.1; done
pids+=("$(cat "$work/munge/munged.pid")")
echo "AuthInfo=socket=$munge_socket" >>"$SLURM_CONF"

slurmctld -f "$SLURM_CONF" || die "slurmctld does not start"
for _ in $(seq 50); do [ -s "$work/slurmctld.pid" ] && break; sleep 0.1; done
pids+=("$(cat "$work/slurmctld.pid")")
slurmd -f "$SLURM_CONF" || die "slurmd does not start"
for _ in $(seq 50); do [ -s "$work/slurmd.pid" ] && break; sleep 0.1; done
pids+=("$(cat "$work/slurmd.pid")")
state=""
for _ in $(seq 120); do
  state="$(sinfo -h -o %t 2>/dev/null | head -1)"
  [ "$state" = "idle" ] && break
  sleep 0.5
done
[ "$state" = "idle" ] || { echo "test_slurm: the node is not idle ($state)"; tail -20 "$work/log/"*.log; exit 1; }
echo "test_slurm: one-node cluster up ($host, $cpus CPUs)"

fail=0
# same_analysis CAPTURE OUT: report's profile_analysis of both, compared as JSON values.
same_analysis() {
  "$npuscope" report "$1" --json >"$work/a.json" 2>/dev/null || { echo "FAIL: report $1"; return 1; }
  "$npuscope" report "$2" --json >"$work/b.json" 2>/dev/null || { echo "FAIL: report $2"; return 1; }
  python3 - "$work/a.json" "$work/b.json" <<'PY'
import json, sys
a, b = (json.load(open(p))["profile_analysis"] for p in sys.argv[1:3])
sys.exit(0 if a == b and a.get("collectives") else 1)
PY
}

# The array job, one task per rank folder.
array_job() {  # array_job CAPTURE NAME PER_TASK
  local capture="$1" name="$2" per="$3" list="$work/$2.ranks" out="$work/$2.summaries"
  find "$capture" -maxdepth 1 -name '*_ascend_pt' | sort >"$list"
  local n
  n="$(wc -l <"$list")"
  if ! NPUSCOPE="$npuscope" sbatch --wait --quiet --array=0-$(((n + per - 1) / per - 1)) --chdir="$work" \
    "$root/scripts/slurm/summarize_array.sbatch" "$list" "$out" "$per"; then
    echo "FAIL: $name: the array job failed"; tail -5 "$work"/npuscope-summarize-*.log; return 1
  fi
  local written
  written="$(find "$out" -name '*.npuscope-summary.json.gz' | wc -l)"
  [ "$written" -eq "$n" ] || { echo "FAIL: $name: $written summaries for $n ranks"; return 1; }
  same_analysis "$capture" "$out" || { echo "FAIL: $name: the merged report differs from the in-process one"; return 1; }
  echo "test_slurm: $name: $n ranks in $(((n + per - 1) / per)) array tasks, merged report equals the in-process one"
}

python3 "$root/tools/gen_cluster.py" "$work/gen32" --ranks 32 --seed 3 --late 5:0:700 --late 20:1:1500 \
  --late 13:2:900 --late 30:3:2500 --omit 20,29 --truth "$work/gen32.truth.json" || fail=1
array_job "$shared/corpus/ascend-pt-910b-l1-text-2rank" corpus-910b 1 || fail=1
array_job "$work/gen32" generated-32 8 || fail=1

# One srun task per node over a node-local folder (here the node's folder is the corpus capture).
out="$work/nodes.summaries"
if NPUSCOPE="$npuscope" salloc --quiet -N 1 "$root/scripts/slurm/summarize_nodes.sh" \
  "$shared/corpus/ascend-pt-910b-db-2rank/level1" "$out" >"$work/nodes.log" 2>&1 &&
  same_analysis "$shared/corpus/ascend-pt-910b-db-2rank/level1" "$out"; then
  echo "test_slurm: per-node srun: merged report equals the in-process one"
else
  echo "FAIL: per-node srun"; cat "$work/nodes.log"; fail=1
fi
exit "$fail"
