#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Summarizes node-local traces on every node of an allocation: one `srun` task per node runs
# `npuscope summarize` over that node's own folder of ranks, writing into a folder every node can
# reach (README "A cluster of any size").
#
#   salloc -N 128 scripts/slurm/summarize_nodes.sh /local/prof/job42 /shared/job42-summaries
#   (or inside an sbatch script with #SBATCH --nodes=128)
#   npuscope report /shared/job42-summaries
#
# LOCAL is the same path on every node, holding that node's *_ascend_pt folders (as torch_npu
# writes them with a node-local output dir); a node without it writes nothing and says so. Each
# node uses all its cores (`--jobs` = the CPUs Slurm gives the task). NPUSCOPE names the binary.
set -euo pipefail
local_dir="${1:?usage: summarize_nodes.sh LOCAL_DIR OUT}"
out="${2:?usage: summarize_nodes.sh LOCAL_DIR OUT}"
npuscope="${NPUSCOPE:-npuscope}"
nodes="${SLURM_JOB_NUM_NODES:-${SLURM_NNODES:-1}}"
export local_dir out npuscope
srun --nodes="$nodes" --ntasks="$nodes" --ntasks-per-node=1 bash -c '
  if [ ! -d "$local_dir" ]; then
    echo "$(hostname): no $local_dir, nothing to summarize" >&2
    exit 0
  fi
  exec "$npuscope" summarize "$local_dir" -o "$out" --jobs "${SLURM_CPUS_ON_NODE:-1}" --quiet'
