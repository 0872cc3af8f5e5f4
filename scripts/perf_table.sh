#!/usr/bin/env bash
# Regenerates the side-by-side table of docs/PERFORMANCE.md and the short table of README.md.
#
# For each lattice size n and each round, runs hooke's `throughput` tool (the CPU reference in f64,
# the GPU World in f32 and f64) and then the peer scripts of the benchmark scene (Warp's CPU backend
# in f64, Taichi's CPU backend in f32 and f64), one after the other, so that every engine of a round
# sees the machine in the same minutes. It then takes medians over the rounds and the ratios of the
# engines within each round, names the machine (CPU model, cores, Mesa), the date and the commit,
# and rewrites the text between the `<!-- perf-table:start -->` and `<!-- perf-table:end -->`
# markers of both files.
#
# Run from the repository root:
#     bash scripts/perf_table.sh                       # N=40,80,120, 3 rounds (about 15 minutes)
#     ROUNDS=1 N=40 DRY_RUN=1 bash scripts/perf_table.sh   # a quick check: prints, writes nothing
#     FROM=out/perf_table/2026-11-28T1500Z.tsv bash scripts/perf_table.sh   # re-render saved rounds
#
# Needs the peer scripts (PEERS, default ../shared/bench: bench_warp.py, bench_taichi.py, scene.py)
# and their packages:   python3 -m pip install warp-lang==1.19.0 "taichi>=1.7,<1.8" numpy
# Measure on a quiet machine: the figures of a loaded one say little, even as ratios.
set -euo pipefail

# The command that runs hooke's throughput tool; the script appends `N STEPS`.
HOOKE_CMD=${HOOKE_CMD:-"cargo run --release -q -p hooke-tools --bin throughput --"}
# Before the tools crate: HOOKE_CMD="cargo run --release -q --example throughput --"

N=${N:-40,80,120}            # lattice sizes, comma-separated
ROUNDS=${ROUNDS:-3}          # interleaved rounds per size
HSTEPS=${HSTEPS:-100}        # timed steps of hooke's tool per run
PSTEPS=${PSTEPS:-50}         # timed steps of each peer script per run
PEERS=${PEERS:-../shared/bench}
PERF_DOC=${PERF_DOC:-docs/PERFORMANCE.md}
README=${README:-README.md}
README_N=${README_N:-80}     # the size in the README's short table (else the largest measured)
DRY_RUN=${DRY_RUN:-0}        # 1: print the tables, rewrite nothing
FROM=${FROM:-}               # a raw file saved by an earlier run: render it, measure nothing

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
cd "$root"

load() { cut -d' ' -f1 /proc/loadavg; }
render() {
  python3 "$here/perf_table.py" "$1" --doc "$PERF_DOC" --readme "$README" \
    --readme-n "$README_N" $([ "$DRY_RUN" = 1 ] && echo --dry-run)
}

if [ -n "$FROM" ]; then
  render "$FROM"
  exit 0
fi

if ! python3 -c "import warp, taichi, numpy" >/dev/null 2>&1; then
  echo "perf_table: the peers need warp, taichi and numpy:" >&2
  echo '    python3 -m pip install warp-lang==1.19.0 "taichi>=1.7,<1.8" numpy' >&2
  exit 1
fi
for f in bench_warp.py bench_taichi.py scene.py; do
  [ -f "$PEERS/$f" ] || { echo "perf_table: $PEERS/$f not found (set PEERS)" >&2; exit 1; }
done

busy=$(load)
if python3 -c "import sys; sys.exit(0 if float('$busy') > 1.0 else 1)"; then
  echo "perf_table: the load average is $busy: other work will disturb the figures" >&2
fi

mkdir -p out/perf_table
stamp=$(date -u +%Y-%m-%dT%H%MZ)
raw=out/perf_table/$stamp.tsv
logs=out/perf_table/$stamp.logs
mkdir -p "$logs"

echo "perf_table: building hooke's throughput tool ($HOOKE_CMD)" >&2
$HOOKE_CMD 2 1 > "$logs/build.txt" 2>&1 || {
  echo "perf_table: '$HOOKE_CMD 2 1' failed:" >&2; tail -20 "$logs/build.txt" >&2; exit 1; }

commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD -- src shaders tools examples Cargo.toml 2>/dev/null ||
  commit="$commit (with uncommitted changes)"
mesa=$(dpkg-query -W -f='${Version}' mesa-vulkan-drivers 2>/dev/null | sed 's/-.*//' || true)
{
  echo "# date: $(date -u +%Y-%m-%d)"
  echo "# start: $(date -u +%H:%M)"
  echo "# commit: $commit"
  echo "# cpu: $(lscpu | sed -n 's/^Model name: *//p' | head -1)"
  echo "# family: $(lscpu | sed -n 's/^CPU family: *//p' | head -1)"
  echo "# model: $(lscpu | sed -n 's/^Model: *//p' | head -1)"
  echo "# cores: $(nproc)"
  echo "# avx512: $(grep -qw avx512f /proc/cpuinfo && echo yes || echo no)"
  echo "# mesa: ${mesa:-unknown}"
  echo "# warp: $(python3 -c 'import warp; print(warp.__version__)' 2>/dev/null)"
  echo "# taichi: $(python3 -c 'import taichi as t; v = t.__version__
print(".".join(map(str, v)) if isinstance(v, tuple) else v)' 2>/dev/null | tail -1)"
  echo "# hooke_steps: $HSTEPS"
  echo "# peer_steps: $PSTEPS"
} > "$raw"

# One line per measurement: n, round, engine, M spring-updates/s, load average (1 min) at its start.
record() { printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" >> "$raw"; }
peer_rate() { # M spring-updates/s from a peer script's RESULT line, or nothing
  grep '^RESULT' "$1" | grep -Eo 'spring-updates/s=[0-9.e+]+' | cut -d= -f2 |
    python3 -c "import sys; v = sys.stdin.read().strip()
print(round(float(v) / 1e6, 1) if v else '')"
}

IFS=, read -r -a sizes <<< "$N"
for r in $(seq 1 "$ROUNDS"); do
  for n in "${sizes[@]}"; do
    l=$(load); out="$logs/hooke_n${n}_r$r.txt"
    $HOOKE_CMD "$n" "$HSTEPS" > "$out" 2>&1 ||
      echo "perf_table: hooke failed at n = $n (see $out)" >&2
    cpu=$(sed -n 's/^ *cpu (f64.* \([0-9.]*\) M spring-updates\/s.*/\1/p' "$out" | head -1)
    g32=$(sed -n 's/^ *gpu (f32.* \([0-9.]*\) M spring-updates\/s.*/\1/p' "$out" | head -1)
    g64=$(sed -n 's/^ *gpu (f64.* \([0-9.]*\) M spring-updates\/s.*/\1/p' "$out" | head -1)
    adapter=$(sed -n 's/^ *gpu adapter: //p' "$out" | head -1)
    [ -n "$adapter" ] && { grep -q '^# adapter:' "$raw" || echo "# adapter: $adapter" >> "$raw"; }
    [ -n "$cpu" ] && record "$n" "$r" hooke_cpu_f64 "$cpu" "$l"
    [ -n "$g32" ] && record "$n" "$r" hooke_gpu_f32 "$g32" "$l"
    [ -n "$g64" ] && record "$n" "$r" hooke_gpu_f64 "$g64" "$l"
    for peer in "warp f64" "taichi f32" "taichi f64"; do
      set -- $peer
      l=$(load); out="$logs/$1_$2_n${n}_r$r.txt"
      python3 "$PEERS/bench_$1.py" --n "$n" --steps "$PSTEPS" --precision "$2" > "$out" 2>&1 || true
      v=$(peer_rate "$out" || true)
      if [ -n "$v" ]; then record "$n" "$r" "$1_$2" "$v" "$l"
      else echo "perf_table: $1 $2 gave no result at n = $n (see $out)" >&2; fi
    done
    peers=$(awk -F'\t' -v n="$n" -v r="$r" \
      '$1 == n && $2 == r && $3 !~ /^hooke/ {printf "%s %s  ", $3, $4}' "$raw")
    echo "round $r, n = $n: hooke cpu f64 ${cpu:-?}, gpu f32 ${g32:-?}," \
      "gpu f64 ${g64:-?} | $peers" >&2
  done
done
echo "# end: $(date -u +%H:%M)" >> "$raw"
echo "perf_table: raw results in $raw, outputs in $logs" >&2
render "$raw"
