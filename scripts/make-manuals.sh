#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make-manuals.sh BINDIR OUTDIR: the manual pages of audiosessiond(8) and audiosessionctl(1), made by
# swift-argument-parser's generate-manual from the programs' own help, and audiosessionctl's bash, zsh
# and fish completions, into OUTDIR/man and OUTDIR/completions.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$1
out=$2
swift=${SWIFT:-swift}
tool="$($swift build --show-bin-path)/generate-manual-tool"
if [ ! -x "$tool" ]; then
  # The plugin builds its tool before it looks at its arguments.
  $swift package generate-manual --help >/dev/null
fi
date=$(git log -1 --format=%cs 2>/dev/null || date +%F)
mkdir -p "$out/man" "$out/completions"
"$tool" "$bin/audiosessiond" --section 8 --date "$date" --output-directory "$out/man"
"$tool" "$bin/audiosessionctl" --section 1 --date "$date" --output-directory "$out/man"
# bash-completion sources the file: no #! line.
"$bin/audiosessionctl" --generate-completion-script bash | sed '1{/^#!/d}' > "$out/completions/audiosessionctl.bash"
"$bin/audiosessionctl" --generate-completion-script zsh > "$out/completions/_audiosessionctl"
"$bin/audiosessionctl" --generate-completion-script fish > "$out/completions/audiosessionctl.fish"
