#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs the built tests and, when any fails, repeats what failed at the end of the output, so the last
# lines of a log (all a CI page may keep) name the failing test and its expectation. An issue's message
# may run over several lines (a harness timeout carries the server's streams and the bridge's last
# records); those lines are repeated with it.
set -uo pipefail
swift=${1:-swift}
log=.build/test-output.log
"$swift" test --skip-build 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
  echo
  echo "=== what failed (from $log) ==="
  awk '
    /^(✘|✔|◇|↳)/ { inIssue = 0 }
    /^✘ Test run with/ { next }
    /✘|error:|Expectation failed|Issue recorded|Fatal error|Caught error/ { inIssue = 1; print; next }
    inIssue { print }
  ' "$log" | tail -n 200
  grep -E '^✘ Test run with' "$log"
fi
exit "$status"
