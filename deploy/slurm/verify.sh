#!/bin/bash
# gpu-procure acceptance on a Slurm cluster, run on the submitting host (where gpu-procure is installed):
# submits verify.sbatch, waits for it, then judges the raw facts of this run here.
#
#   gpu-procure probe-bundle /shared/gpu-procure
#   cd /shared/gpu-procure && PLAN=/shared/cluster.gpuplan.yaml /path/to/deploy/slurm/verify.sh -N 16 -p gpu
#
# Arguments: sbatch's (nodes, partition, account, --gres on sites that want it on the job too). Environment:
# that of verify.sbatch (PROBE, GPUS_PER_NODE, LOAD, PYTHON, PROBE_ARGS), and
#   PLAN         plan to judge against        (default: none: inventory and health checks only)
#   REPORTS      this run's shared directory  (default: ./gpu-procure-<date>-<time>, new for every run)
#   GPU_PROCURE  how to run gpu-procure here  (default: gpu-procure)
#   AFTER_SETUP  1 once the handover's setup (operations/host-tuning.sh, mig-create.sh) has run: a host not
#                tuned as planned fails (judge --after-setup) instead of warning (default: empty, as delivered)
# Exit status: the judge's (0 pass, 1 a check failed, 2 unusable input, 3 unknown); 2 when sbatch fails.
set -u
here=$(cd "$(dirname "$0")" && pwd)
REPORTS=${REPORTS:-$PWD/gpu-procure-$(date +%Y%m%d-%H%M%S)}
GPU_PROCURE=${GPU_PROCURE:-gpu-procure}
case "${AFTER_SETUP:-}" in
  ''|0) after_setup=() ;;
  1) after_setup=(--after-setup) ;;
  *) echo "verify.sh: AFTER_SETUP=${AFTER_SETUP} is not 1 or 0 (1: the handover's setup has run)" >&2; exit 2 ;;
esac
if [ -e "$REPORTS/raw" ]; then
  echo "verify.sh: $REPORTS/raw exists: each run needs its own REPORTS (facts of an earlier run are not judged)" >&2
  exit 2
fi
export REPORTS JUDGE=
sbatch --wait --export=ALL "$@" "$here/verify.sbatch"
collected=$?
if [ ! -d "$REPORTS/raw" ]; then
  echo "verify.sh: the job wrote no raw facts (sbatch exit status $collected)" >&2
  exit 2
fi
echo "verify.sh: job ended with status $collected; judging $REPORTS/raw here"
# shellcheck disable=SC2086  # GPU_PROCURE may be a command with arguments ("python3 -m procurement.commands.cli")
$GPU_PROCURE judge "$REPORTS/raw" ${PLAN:+--plan "$PLAN"} ${after_setup[@]+"${after_setup[@]}"} --json "$REPORTS/cluster.json"
