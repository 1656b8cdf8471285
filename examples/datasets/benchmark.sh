#!/usr/bin/env bash
# A benchmark on the bundled retail sample's two SIMULATED models, against a running platform:
#   npm start            # first start prints an admin key; the demo loads suite retail-demo (327 cases)
#   EVALP_URL=http://127.0.0.1:7071 EVALP_API_KEY=evalp_... bash examples/datasets/benchmark.sh
# Creates the benchmark of examples/datasets/benchmark.json (a gated smoke sample of model B before its full run, model
# A's full run independent, parallelism 2), runs it to the end and prints its tasks and leaderboard. Stages 1-2 (ci).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
evalp() { node "$here/../../bin/evalp.js" "$@"; }
: "${EVALP_URL:?set EVALP_URL}" "${EVALP_API_KEY:?set EVALP_API_KEY}"
show() { printf '\n$ %s\n' "$*"; }

show evalp benchmarks create --file examples/datasets/benchmark.json
created=$(evalp benchmarks create --file "$here/benchmark.json")
echo "$created"
id=$(echo "$created" | sed -E 's/^created benchmark ([^ ]+) .*/\1/')
show evalp benchmarks run "$id" --wait
out=$(evalp benchmarks run "$id" --wait) || true # exit 3: not every task completed
echo "$out"
run=$(echo "$out" | sed -nE 's/^benchmark run ([^ ]+) of .*/\1/p')
show evalp benchmarks leaderboard "$id" "$run"
evalp benchmarks leaderboard "$id" "$run"
