#!/usr/bin/env bash
# Writes report.{json,md,html,xml} (compared with the base run when there is one) into REPORT_DIR and appends
# the Markdown to the job's step summary. Output: report-dir.
set -euo pipefail
read -r -a evalp <<<"$EVALP_BIN"
compare=()
[[ -n "${BASE_RUN_ID:-}" ]] && compare=(--compare "$BASE_RUN_ID")
mkdir -p "$REPORT_DIR"
"${evalp[@]}" report "$RUN_ID" --format json,markdown,html,junit --out-dir "$REPORT_DIR" "${compare[@]}"
cat "$REPORT_DIR/report.md" >> "$GITHUB_STEP_SUMMARY"
echo "report-dir=$REPORT_DIR" >> "$GITHUB_OUTPUT"
