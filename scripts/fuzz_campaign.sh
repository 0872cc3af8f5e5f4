#!/usr/bin/env bash
# A long run of the property-based input tests (tests/integration/robustness/): rounds of every
# property with HOOKE_FUZZ_CASES times the CI case counts, each round on a fresh seed, until the
# time is up. Prints each round's seed and result and, at the end, the rounds, the cases and the
# failures; a failure's minimal input is in the round's log.
#
#   scripts/fuzz_campaign.sh [MINUTES (default 10)] [SCALE (default 40)]
#
# Logs: target/fuzz_campaign/round_<seed>.log. docs/ROBUSTNESS.md records a campaign's result.
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:-10}
scale=${2:-40}
logs=target/fuzz_campaign
mkdir -p "$logs"
# The properties' CI case counts (tests/integration/robustness/*.rs), summed: 48 + 48 broken and
# valid scenes, 3 on the GPU, 48 + 48 population files and genome batches, 64 + 4 models.
per_round=$((263 * scale))

echo "== building the test binary"
cargo test --features cli --test integration --no-run 2>&1 | tail -1
end=$(($(date +%s) + minutes * 60))
rounds=0 failed=0
while [ "$(date +%s)" -lt "$end" ]; do
  seed=$(od -An -N6 -tu8 /dev/urandom | tr -d ' ')
  log="$logs/round_$seed.log"
  if HOOKE_FUZZ_CASES=$scale HOOKE_FUZZ_SEED=$seed cargo test -q --features cli --test integration \
      robustness:: -- --skip under_load --skip huge_files --skip regressions >"$log" 2>&1; then
    echo "round $((rounds + 1)): seed $seed: $per_round cases, no failure"
  else
    failed=$((failed + 1))
    echo "round $((rounds + 1)): seed $seed: FAILED (see $log):"
    grep -E "minimal failing input|Test failed|panicked at" "$log" | head -6 | sed 's/^/    /'
  fi
  rounds=$((rounds + 1))
done
echo "== $rounds rounds, up to $((rounds * per_round)) cases (a failed property stops its round), $failed rounds failed, in $minutes minutes (scale $scale)"
[ "$failed" -eq 0 ]
