#!/usr/bin/env bash
# Production feedback on the bundled retail sample, against a running platform:
#   npm start            # first start prints an admin key; the demo loads suite retail-demo (327 cases)
#   EVALP_URL=http://127.0.0.1:7071 EVALP_API_KEY=evalp_... bash examples/feedback/walkthrough.sh
# Imports the GENERATED interactions of examples/feedback/interactions.jsonl (twice: the second import stores
# nothing), lists the review queue, approves a corrected candidate into a new static suite (twice: the second
# approval adds nothing), supplies the calls for a thumbs-down one, and rejects a near-duplicate.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
evalp() { node "$here/../../bin/evalp.js" "$@"; }
: "${EVALP_URL:?set EVALP_URL}" "${EVALP_API_KEY:?set EVALP_API_KEY}"
api="$EVALP_URL/api/v1"
auth="Authorization: Bearer $EVALP_API_KEY"
show() { printf '\n$ %s\n' "$*"; }

curl -sf -X POST "$api/test-suites" -H "$auth" -H 'content-type: application/json' \
  --data '{"id":"from-production","name":"Cases from production feedback","kind":"static","test_case_ids":[]}' >/dev/null || true

show evalp feedback import examples/feedback/interactions.jsonl --suite from-production
evalp feedback import "$here/interactions.jsonl" --suite from-production
show evalp feedback import examples/feedback/interactions.jsonl --suite from-production
evalp feedback import "$here/interactions.jsonl" --suite from-production
show evalp feedback list
evalp feedback list
show evalp feedback approve gen-ix-0001
evalp feedback approve gen-ix-0001
show evalp feedback approve gen-ix-0001
evalp feedback approve gen-ix-0001
show evalp feedback approve gen-ix-0004 --calls "'"'[{"tool_name":"get_inventory","arguments":{"sku":"SKU-NGUMYD","warehouse":"reno"}}]'"'"
evalp feedback approve gen-ix-0004 --calls '[{"tool_name":"get_inventory","arguments":{"sku":"SKU-NGUMYD","warehouse":"reno"}}]'
show evalp feedback reject gen-ix-0002 --reason '"same question as gen-ix-0001"'
evalp feedback reject gen-ix-0002 --reason "same question as gen-ix-0001"
show "# the suite and the provenance of one added case"
curl -sf "$api/test-suites/from-production" -H "$auth" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).test_case_ids.join(" ")))'
curl -sf "$api/test-cases/fb-gen-ix-0001" -H "$auth" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const c=JSON.parse(s);console.log(JSON.stringify({expected_tool_calls:c.expected_tool_calls,category:c.metadata.category,source:c.metadata.source,feedback:c.metadata.feedback}))})'
