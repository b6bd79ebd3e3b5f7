#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make stress: the server suites ROUNDS times on every stack while a load generator keeps every core
# busy, then a table of each failing test's failures per stack and the server processes that crashed
# when told to end. A test that fails here fails at its cause (DESIGN.md §3, "Order, not timing"):
# find it, never lengthen a wait.
#
#   make stress                   (runs scripts/stress.sh SWIFT with CHECK_SUITES set)
#                                 ROUNDS (default 3), STACKS (default: all four, comma-separated, as
#                                 AUDIOSESSION_STACKS names them), FILTER (a swift test --filter, to
#                                 stress one suite), LOAD=0 (no load generator), REPEATS (default 7:
#                                 how often LevelsBackTests runs each ending in a round, so that three
#                                 rounds run each more than 20 times on every stack)
#
# Every run's whole output is kept in .build/stress/round-R-STACK.log. Exit status 1 when any test failed.
set -uo pipefail
swift=${1:-swift}
rounds=${ROUNDS:-3}
stacks=${STACKS:-pulseaudio,pipewire,pipewire-1.4,pipewire-1.6}
load=${LOAD:-1}
out=.build/stress
mkdir -p "$out"
rm -f "$out"/round-*.log "$out"/failures.tsv

# The tests that need no server, which make check runs (the Makefile's CHECK_SUITES); the rest are the
# server suites.
pure=${CHECK_SUITES:?"CHECK_SUITES is unset: run make stress"}
selection=(--skip "$pure")
[ -n "${FILTER:-}" ] && selection=(--filter "$FILTER")

# The load: one busy loop per core, at the same priority as the tests, ended with this script.
burners=()
stop_load() { [ ${#burners[@]} -gt 0 ] && kill "${burners[@]}" 2>/dev/null; wait 2>/dev/null; }
trap stop_load EXIT
if [ "$load" != 0 ]; then
  for _ in $(seq "$(nproc)"); do
    bash -c 'while :; do :; done' &
    burners+=($!)
  done
  echo "load: ${#burners[@]} busy loops (one per core)"
fi

status=0
IFS=, read -r -a stack_list <<<"$stacks"
for round in $(seq "$rounds"); do
  for stack in "${stack_list[@]}"; do
    log="$out/round-$round-$stack.log"
    started=$SECONDS
    AUDIOSESSION_STACKS=$stack AUDIOSESSION_REPEATS=${REPEATS:-7} "$swift" test --skip-build "${selection[@]}" >"$log" 2>&1
    code=$?
    [ $code -ne 0 ] && status=1
    # A failing test, once per run: Swift Testing's "✘ Test NAME … failed", XCTest's "… failed (".
    failed=$(grep -E '^✘ Test "?.*(failed|recorded an issue)' "$log" | grep -v '^✘ Test run with' |
      sed -E 's/^✘ Test "?([^"]*)"?.*/\1/; s/ with [0-9]+ test cases? .*//; s/ (failed|recorded an issue).*//' | sort -u)
    [ $code -ne 0 ] && [ -z "$failed" ] && failed="(the run itself: exit status $code, see $log)"
    while IFS= read -r name; do
      [ -n "$name" ] && printf '%s\t%s\n' "$stack" "$name" >>"$out/failures.tsv"
    done <<<"$failed"
    # ━ marks a run that passed with known issues.
    summary=$(grep -E '^(✔|✘|━) Test run with' "$log" | tail -n 1)
    echo "round $round, $stack: ${summary:-no summary (exit status $code)} in $((SECONDS - started)) s"
  done
done

echo
echo "failures per test and stack ($rounds round(s); logs in $out):"
if [ ! -s "$out/failures.tsv" ]; then
  echo "  none"
else
  awk -F'\t' -v stacks="$stacks" '
    BEGIN { n = split(stacks, s, ","); printf "%-90s", "test"; for (i = 1; i <= n; i++) printf " %12s", s[i]; print "" }
    { count[$2, $1]++; names[$2] = 1 }
    END { for (t in names) { printf "%-90.90s", t; for (i = 1; i <= n; i++) printf " %12d", count[t, s[i]]; print "" } }
  ' "$out/failures.tsv"
fi
# Server processes that crashed when teardown told them to end: the trait's warnings (DECISIONS 138).
echo
echo "server processes that crashed when told to end at teardown (warnings, not failures):"
crashes=$(grep -h 'told to end at teardown crashed' "$out"/round-*.log |
  sed -E 's/.*crashed: ([^ ]+) in [^:]*: /\1: /; s/; its last lines:.*//' | sort | uniq -c)
echo "${crashes:-  none}"
exit "$status"
