#!/usr/bin/env bash
# An experiment on the bundled retail sample's two SIMULATED models, against a running platform:
#   npm start            # first start prints an admin key; the demo loads suite retail-demo (327 cases)
#   EVALP_URL=http://127.0.0.1:7071 EVALP_API_KEY=evalp_... bash examples/datasets/experiment.sh
# Creates the experiment of examples/datasets/experiment.json (sequential, guardrail on latency), starts it (one run
# per variant on the same pinned suite version), reads the results and concludes it. Stages 1-2 (profile ci).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
evalp() { node "$here/../../bin/evalp.js" "$@"; }
: "${EVALP_URL:?set EVALP_URL}" "${EVALP_API_KEY:?set EVALP_API_KEY}"
show() { printf '\n$ %s\n' "$*"; }

show evalp experiments create --file examples/datasets/experiment.json
created=$(evalp experiments create --file "$here/experiment.json")
echo "$created"
id=$(echo "$created" | sed -E 's/^created experiment ([^ ]+) .*/\1/')
show evalp experiments start "$id" --wait
evalp experiments start "$id" --wait 2>/dev/null
show evalp experiments results "$id"
evalp experiments results "$id"
show evalp experiments conclude "$id"
evalp experiments conclude "$id"
