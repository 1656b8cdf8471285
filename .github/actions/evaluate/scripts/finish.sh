#!/usr/bin/env bash
# Fails the job with evalp wait's exit code: 1 regression at/above fail-on, 2 usage or configuration error,
# 3 run failed, cancelled or timed out.
set -euo pipefail
case "${WAIT_EXIT_CODE:-}" in
  0) echo "EvalPlatform: no regression at or above ${FAIL_ON}" ;;
  1) echo "::error::EvalPlatform: regression at or above ${FAIL_ON} (run ${RUN_ID}); see the report" ; exit 1 ;;
  3) echo "::error::EvalPlatform: run ${RUN_ID} did not complete (failed, cancelled or timed out)" ; exit 3 ;;
  "") echo "::error::EvalPlatform: the run was not waited for (an earlier step failed)" ; exit 2 ;;
  *) echo "::error::EvalPlatform: evalp wait exited ${WAIT_EXIT_CODE} (usage or configuration error)" ; exit "${WAIT_EXIT_CODE}" ;;
esac
