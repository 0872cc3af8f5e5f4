#!/usr/bin/env bash
# The Slurm scripts run for real, on a Slurm cluster started on this machine (root, Debian's
# packages; scripts/slurm/local_cluster.sh), so they cannot rot:
#
#   bash scripts/slurm/test_local_cluster.sh HOOKE [PYTHON]
#
# 1. On one node (this host): scripts/slurm/evaluate.sbatch evaluates
#    scripts/slurm/population_9.json as a job array of 3 shares and merges it; the merged
#    results.json must equal one `HOOKE eval` of the whole population bit for bit (ids, order,
#    fitness bits, failures).
# 2. With PYTHON (the interpreter of a virtual environment with hooke and ray installed), on
#    two nodes (two slurmd on this host): scripts/slurm/ray.sbatch starts the Ray head on the
#    first node of a two-node allocation and a Ray worker on the second (srun), and runs
#    scripts/slurm/ray_driver.py: the same population over Ray, 3 tasks spread over both Ray
#    nodes calling `hooke.evaluate`, checked for the same bits.
#
# Every wait is bounded; the daemons and jobs it started are stopped on any exit, and a
# failure prints the jobs' and the daemons' logs. Exits non-zero on any difference.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage="usage: bash $0 HOOKE [PYTHON]"
HOOKE=$(realpath "${1:?$usage}")
PYTHON=${2:-}
work=$(mktemp -d)
# shellcheck source=scripts/slurm/local_cluster.sh
source "$here/local_cluster.sh"

finish() {
    local status=$?
    if [ -n "${SLURM_CONF:-}" ]; then scancel --quiet --user=root 2>/dev/null || true; fi
    if [ "$status" -ne 0 ]; then
        echo "== Slurm test failed; job logs:" >&2
        for log in "$work"/*.log "$work"/out/*.log; do
            [ -f "$log" ] && { echo "--- $log"; tail -n 60 "$log"; }
        done >&2
        slurm_logs
    fi
    slurm_down
    rm -rf "$work"
    exit "$status"
}
trap finish EXIT

# Waits until no job is queued or running, at most $1 seconds.
wait_for_jobs() {
    local deadline=$((SECONDS + $1)) queued
    while ((SECONDS < deadline)); do
        queued=$(timeout 10 squeue -h) && [ -z "$queued" ] && return 0
        sleep 1
    done
    echo "== jobs still queued or running after $1 s:" >&2
    squeue >&2
    return 1
}

# Fails unless job $1 completed with exit code 0.
job_completed() {
    local state
    state=$(scontrol show job "$1" | grep -o 'JobState=[A-Z_]* .*\|ExitCode=[0-9:]*' | tr '\n' ' ')
    case $state in
        *JobState=COMPLETED*ExitCode=0:0*) ;;
        *) echo "== job $1 did not complete: $state" >&2; return 1 ;;
    esac
}

started=$SECONDS
slurm_up "$work/slurm1" 1
echo "== Slurm (one node) started in $((SECONDS - started)) s"
population=$work/population.json
cp "$here/population_9.json" "$population"
"$HOOKE" eval "$population" --backend cpu --out "$work/whole.json"

echo "== evaluate.sbatch: 3 shares of 9 robots, then the merge"
started=$SECONDS
submitted=$(cd "$work" && HOOKE=$HOOKE HOOKE_BACKEND=cpu \
    bash "$here/evaluate.sbatch" "$population" "$work/out" 3)
echo "$submitted"
wait_for_jobs 180
merge=$(echo "$submitted" | sed -n 's/.* merge job \([0-9]*\).*/\1/p')
job_completed "$merge"
python3 "$here/same_results.py" "$work/whole.json" "$work/out/results.json"
echo "== evaluate.sbatch: $((SECONDS - started)) s"

slurm_down
if [ -z "$PYTHON" ]; then
    echo "== ray.sbatch: not run (no PYTHON given)"
    exit 0
fi
started=$SECONDS
slurm_up "$work/slurm2" 2
echo "== Slurm (two nodes) started in $((SECONDS - started)) s"
echo "== ray.sbatch: Ray head and worker on two nodes, ray_driver.py over 3 shares"
started=$SECONDS
# Ports and a temporary folder of its own, so that it meets no other Ray on this machine.
ray_job=$(cd "$work" && PYTHON=$PYTHON RAY=$(dirname "$PYTHON")/ray RAY_PORT=6389 \
    RAY_TMPDIR=$work/ray RAY_START_TIMEOUT=120 \
    RAY_START_ARGS="--dashboard-agent-listen-port=52389 --dashboard-port=8289" \
    sbatch --parsable --nodes=2 --output="$work/ray_%j.log" "$here/ray.sbatch" \
    "$here/ray_driver.py" "$population" 3 --nodes 2 --expect "$work/whole.json")
ray_job=${ray_job%%;*}
wait_for_jobs 300
cat "$work/ray_$ray_job.log"
job_completed "$ray_job"
echo "== ray.sbatch: $((SECONDS - started)) s"
