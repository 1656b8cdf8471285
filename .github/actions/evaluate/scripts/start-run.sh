#!/usr/bin/env bash
# Finds the base run (the latest completed run of the same suite/target/client whose trigger_metadata.branch is
# BASE_BRANCH and whose repository is this one, or unset) and starts a run for this commit with it as baseline.
# Outputs: run-id, base-run-id. Needs curl and jq (both on GitHub's runners).
set -euo pipefail
INPUT_SUITE="${INPUT_SUITE:-}" INPUT_TARGET="${INPUT_TARGET:-}" INPUT_CLIENT="${INPUT_CLIENT:-}" INPUT_PROFILE="${INPUT_PROFILE:-}"
: "${EVALP_URL:?set the url input (secret EVALP_URL)}" "${EVALP_API_KEY:?set the api-key input (secret EVALP_API_KEY)}"
if [[ -z "${INPUT_SUITE}${INPUT_TARGET}${INPUT_CLIENT}" ]]; then
  echo "::error::give the suite and target inputs, or a client" >&2
  exit 2
fi
api="${EVALP_URL%/}/api"
auth=(-H "Authorization: Bearer $EVALP_API_KEY")

query="status=completed&limit=100"
[[ -n "$INPUT_SUITE" ]] && query+="&suite_id=$(jq -rn --arg v "$INPUT_SUITE" '$v|@uri')"
[[ -n "$INPUT_TARGET" ]] && query+="&target_id=$(jq -rn --arg v "$INPUT_TARGET" '$v|@uri')"
[[ -n "$INPUT_CLIENT" ]] && query+="&client_id=$(jq -rn --arg v "$INPUT_CLIENT" '$v|@uri')"
base=""
if [[ -n "${BASE_BRANCH:-}" ]]; then
  base="$(curl -sS --fail-with-body --retry 3 "${auth[@]}" "$api/v1/runs?$query" |
    jq -r --arg b "$BASE_BRANCH" --arg r "$REPOSITORY" \
      '[.items[] | select(.trigger_metadata.branch == $b and ((.trigger_metadata.repository // $r) == $r))][0].id // empty')"
fi
if [[ -n "$base" ]]; then echo "Base run: $base (latest completed run on $BASE_BRANCH)"; else echo "No completed run on ${BASE_BRANCH:-the base branch} yet: no comparison, no regression alert"; fi

body="$(jq -n \
  --arg suite "$INPUT_SUITE" --arg target "$INPUT_TARGET" --arg client "$INPUT_CLIENT" \
  --arg profile "$INPUT_PROFILE" --arg config "${INPUT_CONFIG:-}" --arg base "$base" \
  --arg sha "$HEAD_SHA" --arg branch "$HEAD_BRANCH" --arg repo "$REPOSITORY" --arg url "$WORKFLOW_RUN_URL" --arg pr "${PR_NUMBER:-}" '
  ({triggered_by: "github",
    trigger_metadata: ({commit_sha: $sha, branch: $branch, repository: $repo, workflow_run_url: $url}
      + (if $pr != "" then {pr_number: ($pr | tonumber)} else {} end)),
    config: ((if $config != "" then ($config | fromjson) else {} end) + (if $profile != "" then {profile: $profile} else {} end))}
   + (if $suite != "" then {suite_id: $suite} else {} end)
   + (if $target != "" then {target_id: $target} else {} end)
   + (if $client != "" then {client_id: $client} else {} end)
   + (if $base != "" then {baseline_run_id: $base} else {} end))')"

response="$(curl -sS --retry 3 -w '\n%{http_code}' "${auth[@]}" -H 'content-type: application/json' -X POST "$api/v1/runs" --data "$body")"
status="${response##*$'\n'}"
response="${response%$'\n'*}"
if [[ "$status" != "202" ]]; then
  echo "::error::POST /api/v1/runs answered $status: $(jq -r '.detail // .' <<<"$response" 2>/dev/null || echo "$response")" >&2
  jq -r '.errors[]? | "  \(.path): \(.message)"' <<<"$response" >&2 2>/dev/null || true
  exit 2
fi
run_id="$(jq -r '.id' <<<"$response")"
echo "Started run $run_id (commit $HEAD_SHA on $HEAD_BRANCH)"
{
  echo "run-id=$run_id"
  echo "base-run-id=$base"
} >> "$GITHUB_OUTPUT"
