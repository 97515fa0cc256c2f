#!/bin/bash
# Alternating A/B of the memory job and people_ranking at 100k messages (docs/MEMORY.md):
#   evals/bench/memory_ab.sh OUT ROUNDS RUNS name:checkout [name:checkout ...]
# With the bench database's environment exported (CLAIRE_DATA_DIR, CLAIRE_DATABASE_NAME,
# REDIS_URL), each round runs every checkout once on the same RUNS batches
# (evals/bench/memory_ab_round.py through its manage.py shell), then the lines are pooled.
set -euo pipefail
out=$1
rounds=$2
runs=$3
shift 3
round_script=$(cd "$(dirname "$0")" && pwd)/memory_ab_round.py
: >"$out"
for round in $(seq 0 $((rounds - 1))); do
  for spec in "$@"; do
    IFS=: read -r name checkout <<<"$spec"
    (cd "$checkout" && FIRST_RUN=$((round * runs)) RUNS=$runs LABEL=$name \
      .venv/bin/python manage.py shell <"$round_script" 2>/dev/null | grep "^ABJSON" >>"$out")
  done
done
.venv/bin/python -m evals.bench.memory_ab_pool "$out"
