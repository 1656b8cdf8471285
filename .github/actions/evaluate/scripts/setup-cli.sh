#!/usr/bin/env bash
# Makes the evalp CLI available to the next steps as $EVALP_BIN (in $GITHUB_ENV).
# EVALP_CLI_INPUT set: that command is used as is (e.g. "npx evalp", "node path/to/bin/evalp.js").
# Empty: installs the CLI from the repository this action comes from (npm ci builds it) and uses its bin/evalp.js.
set -euo pipefail
if [[ -n "${EVALP_CLI_INPUT:-}" ]]; then
  bin="$EVALP_CLI_INPUT"
else
  root="$(cd "$GITHUB_ACTION_PATH/../../.." && pwd)"
  if [[ ! -f "$root/dist/lib/cli/main.js" ]]; then
    echo "Installing the evalp CLI from $root"
    (cd "$root" && npm ci --no-audit --no-fund --loglevel=error)
  fi
  bin="node $root/bin/evalp.js"
fi
echo "EVALP_BIN=$bin" >> "$GITHUB_ENV"
echo "evalp CLI: $bin"
