#!/usr/bin/env bash
# One task of a Slurm job array runs one shard of a matrix (docs/distributed.md):
#   sbatch --array=0-3 scripts/slurm/iobench-array.sh configs/smoke.json [iobench run options]
# Each task runs `iobench run CONFIG --shard auto` in the submit folder (K/N from
# SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT/MIN/MAX/STEP) and writes
# results/NAME-<time>-shard-K-of-N.tsv; when every task is done:
#   iobench merge results/NAME-<time>-shard-*-of-4.tsv -o results/NAME-merged.tsv
# Timings want a node to themselves: add --exclusive (sbatch's option) on shared clusters.
# IOBENCH names the driver (default: iobench on PATH, else build/bin/iobench in the submit folder).
#SBATCH --job-name=iobench
#SBATCH --output=iobench-%A_%a.out
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: sbatch --array=0-3 $0 CONFIG.json [iobench run options]" >&2; exit 2; }
[ -n "${SLURM_ARRAY_TASK_ID:-}" ] || echo "iobench-array: warning: not a job array task (no SLURM_ARRAY_TASK_ID); --shard auto will refuse" >&2
cd "${SLURM_SUBMIT_DIR:-.}"
iobench=${IOBENCH:-$(command -v iobench || echo build/bin/iobench)}
echo "iobench-array: task ${SLURM_ARRAY_TASK_ID:-?} of job ${SLURM_ARRAY_JOB_ID:-?} on $(hostname)" >&2
exec "$iobench" run "$@" --shard auto --quiet
