#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fetches a newer PipeWire and WirePlumber as Debian packages and unpacks them into a private prefix,
# never over the system's packages: the third and fourth server stacks of the integration tests.
#
#   scripts/fetch-pipewire.sh 1.4 [DIR]   PipeWire 1.4.2 + WirePlumber 0.5.8 from bookworm-backports
#                                         (default DIR: .build/pipewire-1.4)
#   scripts/fetch-pipewire.sh 1.6 [DIR]   PipeWire 1.6.9 + WirePlumber 0.5.18 from sid, with sid's C
#                                         library, Lua 5.5 and ALSA library beside them (default DIR:
#                                         .build/pipewire-1.6); its programs run through the prefix's
#                                         own loader (DESIGN.md §4; Tests/Harness/ModernPipeWire.swift)
#
# DIR/apt holds a private apt configuration (its own sources list, lists and cache); DIR/prefix holds
# the unpacked files; DIR/prefix/.complete marks a finished prefix (it holds the prefix's layout, which
# grows when the package list does), which later runs of the same layout reuse as it is.
# A package that cannot be downloaded is named in the error; nothing is installed on the system.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
release="${1:?usage: scripts/fetch-pipewire.sh 1.4|1.6 [DIR]}"
dir="${2:-$here/.build/pipewire-$release}"
prefix="$dir/prefix"

case "$release" in
1.4)
  # 2: with the Bluetooth plugin (libspa-0.2-bluetooth), for the BlueZ stand-in of the tests.
  layout=2
  suites=("bookworm-backports main" "bookworm main")
  pipewire_version="1.4.2-1~bpo12+1" wireplumber_version="0.5.8-1~bpo12+1" libpipewire=libpipewire-0.3-0
  extra=()
  ;;
1.6)
  # 3: with sid's GLib (and its libmount and libblkid), which the Bluetooth plugin needs
  # (g_once_init_leave_pointer, GLib 2.80).
  layout=3
  suites=("sid main")
  pipewire_version="1.6.9-2" wireplumber_version="0.5.18-1" libpipewire=libpipewire-0.3-0t64
  # sid's binaries need sid's C library (they run through its loader) and GLib with the mount and
  # block-device libraries it needs (bookworm's GLib 2.74 lacks symbols the Bluetooth plugin uses:
  # without it WirePlumber finds no Bluetooth support), and two libraries bookworm lacks.
  extra=(libc6 libglib2.0-0t64 libmount1 libblkid1 liblua5.5-0 libasound2t64)
  ;;
*) echo "error: unknown PipeWire release '$release' (1.4 or 1.6)" >&2; exit 2 ;;
esac
[ "$(cat "$prefix/.complete" 2>/dev/null)" = "$layout" ] && exit 0

packages=(
  "pipewire=$pipewire_version" "pipewire-bin=$pipewire_version" "pipewire-pulse=$pipewire_version"
  "$libpipewire=$pipewire_version" "libpipewire-0.3-modules=$pipewire_version"
  "libpipewire-0.3-common=$pipewire_version" "libspa-0.2-modules=$pipewire_version"
  "libspa-0.2-bluetooth=$pipewire_version"
  "wireplumber=$wireplumber_version" "libwireplumber-0.5-0=$wireplumber_version"
  "${extra[@]}"
)
# Libraries the newer releases need that Debian 12's own PipeWire does not bring; from the same
# suites, only when the system lacks them.
for library in libebur128-1 libmysofa1 libffado2 liblua5.4-0; do
  dpkg-query -W -f='${Status}' "$library" 2>/dev/null | grep -q "ok installed" || packages+=("$library")
done

apt="$dir/apt"
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/debs"
for suite in "${suites[@]}"; do echo "deb http://deb.debian.org/debian $suite"; done >"$apt/sources.list"
: >"$apt/status"
options=(
  -o "Dir::Etc::SourceList=$apt/sources.list" -o "Dir::Etc::SourceParts=/dev/null"
  -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache" -o "Dir::State::status=$apt/status"
  -o "Debug::NoLocking=1" -o "APT::Sandbox::User=root" -qq
)

echo "fetching PipeWire $pipewire_version and WirePlumber $wireplumber_version into $prefix"
if ! apt-get "${options[@]}" update >"$apt/update.log" 2>&1; then
  echo "error: could not read the package lists of ${suites[*]} (see $apt/update.log)" >&2
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
if [ -e "$libraries/ld-linux-x86-64.so.2" ]; then
  version=$("$libraries/ld-linux-x86-64.so.2" --library-path "$libraries:/usr/lib/x86_64-linux-gnu" \
    --argv0 pipewire "$prefix/usr/bin/pipewire" --version 2>&1 || true)
else
  version=$(LD_LIBRARY_PATH="$libraries" "$prefix/usr/bin/pipewire" --version 2>&1 || true)
fi
if ! grep -q "libpipewire $release" <<<"$version"; then
  echo "error: the unpacked pipewire does not run: $version" >&2
  exit 1
fi
echo "$layout" >"$prefix/.complete"
