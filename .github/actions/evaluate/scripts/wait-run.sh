#!/usr/bin/env bash
# Waits for the run with progress and decides: exit-code 0 ok, 1 regression at/above FAIL_ON, 2 usage or
# configuration error, 3 run failed/cancelled/timed out. The code is an output; finish.sh fails the job with it
# after the reports are published.
set -uo pipefail
read -r -a evalp <<<"$EVALP_BIN"
"${evalp[@]}" wait "$RUN_ID" --fail-on "$FAIL_ON" --timeout "$TIMEOUT"
code=$?
echo "exit-code=$code" >> "$GITHUB_OUTPUT"
exit 0
