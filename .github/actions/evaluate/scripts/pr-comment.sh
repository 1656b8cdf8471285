#!/usr/bin/env bash
# Posts the Markdown report on the pull request, or updates the comment that already carries the marker
# (so a PR has one EvalPlatform comment, kept current). Needs gh (on GitHub's runners) and GH_TOKEN.
set -euo pipefail
marker='<!-- evalplatform-report -->'
payload="$(mktemp)"
jq -n --rawfile body "$REPORT_FILE" '{body: $body}' > "$payload"
existing="$(gh api --paginate "repos/$REPOSITORY/issues/$PR_NUMBER/comments" |
  jq -r --arg m "$marker" '.[] | select(.body | contains($m)) | .id' | head -n 1)"
if [[ -n "$existing" ]]; then
  gh api -X PATCH "repos/$REPOSITORY/issues/comments/$existing" --input "$payload" > /dev/null
  echo "Updated the report comment $existing on #$PR_NUMBER"
else
  gh api -X POST "repos/$REPOSITORY/issues/$PR_NUMBER/comments" --input "$payload" > /dev/null
  echo "Posted the report on #$PR_NUMBER"
fi
rm -f "$payload"
