#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs the built tests and, when any fails, repeats what failed at the end of the output, so the last
# lines of a log (all a CI page may keep) name the failing test and its expectation.
set -uo pipefail
swift=${1:-swift}
log=.build/test-output.log
"$swift" test --skip-build 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
  echo
  echo "=== what failed (from $log) ==="
  grep -E '✘|error:|Expectation failed|Issue recorded|Fatal error|Caught error' "$log" | grep -v '^✘ Test run with' | tail -n 60
  grep -E '^✘ Test run with' "$log"
fi
exit "$status"
