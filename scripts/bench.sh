#!/bin/bash
# make bench: runs audiosession-bench and keeps the run in a file of its own,
# $BENCH_RESULTS/<date>-<time>-<commit>.md (docs/bench-results by default): the machine, the commit,
# the date, the flags and the whole table. The docs link to these files rather than copy figures.
set -u -o pipefail
bench=$1
shift
folder=${BENCH_RESULTS:-docs/bench-results}
mkdir -p "$folder"
commit=$(git rev-parse --short=10 HEAD 2>/dev/null || echo unknown)
if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then commit="$commit-modified"; fi
file="$folder/$(date -u +%Y-%m-%d-%H%M)-$commit.md"
table=$(mktemp)
trap 'rm -f "$table"' EXIT
started=$(date -u +'%Y-%m-%d %H:%M UTC')
seconds=$SECONDS
"$bench" "$@" | tee "$table"
status=$?

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
memory=$(awk '/^MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)
system=$(. /etc/os-release 2>/dev/null && echo "${PRETTY_NAME:-unknown}")
pipewire=$(pipewire --version 2>/dev/null | sed -n 's/.*libpipewire \([0-9.]*\).*/\1/p' | head -1)
{
  echo "# make bench at $commit, $started"
  echo
  echo "| | |"
  echo "|---|---|"
  echo "| commit | \`$commit\`$( [ "${commit%-modified}" != "$commit" ] && echo ' with uncommitted changes') |"
  echo "| date | $started, $(( (SECONDS - seconds) / 60 )) minutes |"
  echo "| flags | \`audiosession-bench $*\` |"
  echo "| machine | $cpu, $(nproc) cores, $memory, $system, Linux $(uname -r) |"
  echo "| servers | $(pulseaudio --version 2>/dev/null); PipeWire ${pipewire:-?} (the system's), 1.4 and 1.6 (scripts/fetch-pipewire.sh) |"
  echo "| result | $([ "$status" = 0 ] && echo 'every part ran' || echo "failed (exit status $status)") |"
  echo
  echo '```'
  cat "$table"
  echo '```'
} > "$file"
echo "the run is kept in $file"
exit "$status"
