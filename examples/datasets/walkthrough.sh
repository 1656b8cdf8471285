#!/usr/bin/env bash
# Suite versions and sampling on the bundled retail sample (simulated models), against a running platform:
#   npm start            # first start prints an admin key; the demo loads suite retail-demo (327 cases)
#   EVALP_URL=http://127.0.0.1:7071 EVALP_API_KEY=evalp_... bash examples/datasets/walkthrough.sh
# Publishes retail-demo, runs simulated model A on version 1, corrects one case, publishes version 2, diffs the
# versions, runs pinned to version 1 (the correction does not join) and on version 2, compares across versions,
# and runs a stratified 20% sample of simulated model B. Stages 1-2 only (--profile ci) to keep it quick.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
evalp() { node "$here/../../bin/evalp.js" "$@"; }
: "${EVALP_URL:?set EVALP_URL}" "${EVALP_API_KEY:?set EVALP_API_KEY}"
api="$EVALP_URL/api/v1"
auth="Authorization: Bearer $EVALP_API_KEY"
show() { printf '\n$ %s\n' "$*"; }
field() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const v=JSON.parse(s);console.log(process.argv.slice(1).map(k=>k.split(".").reduce((o,p)=>o?.[p],v)).join(" "))})' "$@"; }

show evalp suites publish retail-demo --note '"gold set as shipped"'
evalp suites publish retail-demo --note "gold set as shipped"
show evalp submit --suite retail-demo --target simulated-model-a --profile ci --wait
run_v1=$(evalp submit --suite retail-demo --target simulated-model-a --profile ci --wait 2>/dev/null)
echo "$run_v1"; evalp status "$run_v1" --json | field status suite_version total_cases stats.pass_rate

show "# correct retail-0005's expected order id (PUT /api/v1/test-cases/retail-0005), then publish again"
curl -sf "$api/test-cases/retail-0005" -H "$auth" |
  node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const c=JSON.parse(s);c.expected_tool_calls[0].arguments.order_id="ORD-104715";delete c.metadata.updated_at;process.stdout.write(JSON.stringify(c))})' |
  curl -sf -X PUT "$api/test-cases/retail-0005" -H "$auth" -H 'content-type: application/json' --data-binary @- | field id expected_tool_calls.0.arguments.order_id
show evalp suites publish retail-demo --note '"retail-0005: corrected order id"'
evalp suites publish retail-demo --note "retail-0005: corrected order id"
show evalp suites versions retail-demo
evalp suites versions retail-demo
show evalp suites diff retail-demo 1 2
evalp suites diff retail-demo 1 2

show evalp submit --suite retail-demo --target simulated-model-a --profile ci --suite-version 1 --wait
run_pinned=$(evalp submit --suite retail-demo --target simulated-model-a --profile ci --suite-version 1 --wait 2>/dev/null)
echo "$run_pinned"; evalp status "$run_pinned" --json | field status suite_version stats.pass_rate
show evalp submit --suite retail-demo --target simulated-model-a --profile ci --wait
run_v2=$(evalp submit --suite retail-demo --target simulated-model-a --profile ci --wait 2>/dev/null)
echo "$run_v2"; evalp status "$run_v2" --json | field status suite_version stats.pass_rate
show "# retail-0005 in each run (GET /api/v1/runs/{id}/scorecards): suite_version overall_passed case_hash"
for r in "$run_v1" "$run_pinned" "$run_v2"; do
  curl -sf "$api/runs/$r/scorecards?limit=1000" -H "$auth" |
    node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const c=JSON.parse(s).items.find(x=>x.test_case_id==="retail-0005");console.log(c.suite_version,c.overall_passed,c.case_hash.slice(0,12))})'
done
show evalp compare "\$run_v1" "\$run_v2" "| head -4"
evalp compare "$run_v1" "$run_v2" 2>&1 | head -4

show evalp submit --suite retail-demo --target simulated-model-b --profile ci --sample 0.2:category --seed 7 --wait
run_s=$(evalp submit --suite retail-demo --target simulated-model-b --profile ci --sample 0.2:category --seed 7 --wait 2>/dev/null)
echo "$run_s"
show evalp report "\$run_s" --format markdown "| sed -n '/### Sample/,/^\$/p'"
evalp report "$run_s" --format markdown | awk '/^### Sample/{on=1} on{print} on&&/^\|/{seen=1} on&&seen&&!/^\|/{exit}'

show "# the full set for reference: evalp submit --suite retail-demo --target simulated-model-b --profile ci --wait"
run_full=$(evalp submit --suite retail-demo --target simulated-model-b --profile ci --wait 2>/dev/null)
evalp status "$run_full" --json | field suite_version total_cases stats.pass_rate
