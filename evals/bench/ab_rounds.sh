#!/bin/bash
# Interleaved A/B runs of bench_retrieval: one process per variant, rounds in rotating order.
#   evals/bench/ab_rounds.sh OUTDIR ROUNDS "name:checkout:ENV=1 ENV2=2" ...
# Each variant runs `manage.py bench_retrieval --questions 200 --repeats 1 --skip-recall` in its
# own checkout (with the bench database's environment already exported: CLAIRE_DATA_DIR,
# CLAIRE_DATABASE_NAME, CLAIRE_AI_CONFIG) and writes OUTDIR/<name>-<round>.json; pool them with
#   python -m evals.bench.ab name=OUTDIR/name-1.json,OUTDIR/name-2.json ...
set -euo pipefail
out=$1
rounds=$2
shift 2
specs=("$@")
n=${#specs[@]}
python=${PYTHON:-$(pwd)/.venv/bin/python}
mkdir -p "$out"
for round in $(seq 1 "$rounds"); do
  for index in $(seq 0 $((n - 1))); do
    spec=${specs[$(((index + round - 1) % n))]}
    IFS=: read -r name checkout extra <<<"$spec"
    echo "round $round $name load $(cat /proc/loadavg)" >>"$out/log"
    (cd "$checkout" && env PYTHONPATH="$checkout" $extra "$python" manage.py bench_retrieval \
      --questions 200 --repeats 1 --skip-recall --json "$out/$name-$round.json" 2>/dev/null |
      grep "^run" >>"$out/log")
  done
done
echo "end load $(cat /proc/loadavg)" >>"$out/log"
