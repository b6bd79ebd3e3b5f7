#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fetches PipeWire 1.4.2 and WirePlumber 0.5.8 from Debian's bookworm-backports and unpacks them into
# a private prefix, never over the system's packages: the third server stack of the integration tests.
#
#   scripts/fetch-pipewire-1.4.sh [DIR]     (default: .build/pipewire-1.4)
#
# DIR/apt holds a private apt configuration (its own sources list, lists and cache); DIR/prefix holds
# the unpacked files; DIR/prefix/.complete marks a finished prefix (it holds the prefix's layout, which
# grows when the package list does), which later runs of the same layout reuse as it is.
# A package that cannot be downloaded is named in the error; nothing is installed on the system.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
dir="${1:-$here/.build/pipewire-1.4}"
prefix="$dir/prefix"
# 2: with the Bluetooth plugin (libspa-0.2-bluetooth), for the BlueZ stand-in of the tests.
layout=2
[ "$(cat "$prefix/.complete" 2>/dev/null)" = "$layout" ] && exit 0

pipewire_version="1.4.2-1~bpo12+1"
wireplumber_version="0.5.8-1~bpo12+1"
packages=(
  "pipewire=$pipewire_version" "pipewire-bin=$pipewire_version" "pipewire-pulse=$pipewire_version"
  "libpipewire-0.3-0=$pipewire_version" "libpipewire-0.3-modules=$pipewire_version"
  "libpipewire-0.3-common=$pipewire_version" "libspa-0.2-modules=$pipewire_version"
  "libspa-0.2-bluetooth=$pipewire_version"
  "wireplumber=$wireplumber_version" "libwireplumber-0.5-0=$wireplumber_version"
)
# Libraries the backports need that Debian 12's own PipeWire does not bring; from bookworm, only
# when the system lacks them.
for library in libebur128-1 libmysofa1 libffado2 liblua5.4-0; do
  dpkg-query -W -f='${Status}' "$library" 2>/dev/null | grep -q "ok installed" || packages+=("$library")
done

apt="$dir/apt"
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/debs"
cat >"$apt/sources.list" <<'LIST'
deb http://deb.debian.org/debian bookworm-backports main
deb http://deb.debian.org/debian bookworm main
LIST
: >"$apt/status"
options=(
  -o "Dir::Etc::SourceList=$apt/sources.list" -o "Dir::Etc::SourceParts=/dev/null"
  -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache" -o "Dir::State::status=$apt/status"
  -o "Debug::NoLocking=1" -o "APT::Sandbox::User=root" -qq
)

echo "fetching PipeWire 1.4 and WirePlumber 0.5 into $prefix"
if ! apt-get "${options[@]}" update >"$apt/update.log" 2>&1; then
  echo "error: could not read the package lists of bookworm-backports (see $apt/update.log)" >&2
  exit 1
fi
cd "$apt/debs"
for package in "${packages[@]}"; do
  name="${package%%=*}"
  ls "$name"_*.deb >/dev/null 2>&1 && continue
  if ! apt-get "${options[@]}" download "$package" >"$apt/download-$name.log" 2>&1; then
    echo "error: could not download the Debian package $package: $(tail -n 1 "$apt/download-$name.log")" >&2
    exit 1
  fi
done

rm -rf "$prefix.partial"
mkdir -p "$prefix.partial"
for deb in *.deb; do dpkg-deb -x "$deb" "$prefix.partial"; done
rm -rf "$prefix"
mv "$prefix.partial" "$prefix"
libraries=$(echo "$prefix"/usr/lib/*-linux-gnu)
if ! LD_LIBRARY_PATH="$libraries" "$prefix/usr/bin/pipewire" --version | grep -q "libpipewire 1.4"; then
  echo "error: the unpacked pipewire does not run: $(LD_LIBRARY_PATH="$libraries" "$prefix/usr/bin/pipewire" --version 2>&1)" >&2
  exit 1
fi
echo "$layout" >"$prefix/.complete"
