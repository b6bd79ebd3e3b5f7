#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make-deb.sh RELEASE_DIR DIST_DIR OUT: a Debian package of what `make install` copies (PREFIX=/usr),
# with the binaries stripped, Depends computed by dpkg-shlibdeps, a copyright file and a changelog.
# Prints the package's path.
set -euo pipefail
cd "$(dirname "$0")/.."
release=$1
dist=$2
out=$3
version=$("$release/audiosessiond" --version)
architecture=$(dpkg --print-architecture)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stage="$work/audiosession"
make --no-print-directory install DESTDIR="$stage" PREFIX=/usr RELEASE_DIR="$release" DIST_DIR="$dist" \
  SYSTEMD_USER_UNIT_DIR=/usr/lib/systemd/user DBUS_SERVICES_DIR=/usr/share/dbus-1/services \
  DBUS_INTERFACES_DIR=/usr/share/dbus-1/interfaces >/dev/null
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$stage/usr/bin/audiosessiond" \
  "$stage/usr/bin/audiosessionctl" "$stage/usr/bin/audiosession-indicator"
gzip -9n "$stage"/usr/share/man/man*/*

doc="$stage/usr/share/doc/audiosession"
install -d "$doc"
cat > "$doc/copyright" <<COPYRIGHT
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: audiosession
Source: https://github.com/audiosession/audiosession

Files: *
Copyright: 2026 the audiosession authors
License: Apache-2.0

License: Apache-2.0
 On Debian systems, the full text of the Apache License, Version 2.0 can be
 found in the file '/usr/share/common-licenses/Apache-2.0'.
COPYRIGHT
date=$(date -R -d "@$(git log -1 --format=%ct 2>/dev/null || date +%s)")
cat > "$work/changelog.Debian" <<CHANGELOG
audiosession ($version) unstable; urgency=medium

  * Built from the audiosession source tree.

 -- audiosession maintainers <audiosession@users.noreply.github.com>  $date
CHANGELOG
gzip -9n < "$work/changelog.Debian" > "$doc/changelog.gz"
chmod 644 "$doc/copyright" "$doc/changelog.gz"

# Depends from the libraries the binaries link (dpkg-shlibdeps wants a debian/control to read).
mkdir -p "$work/shlibs/debian"
printf 'Source: audiosession\n\nPackage: audiosession\nArchitecture: any\n' > "$work/shlibs/debian/control"
depends=$(cd "$work/shlibs" && dpkg-shlibdeps -O "$stage/usr/bin/audiosessiond" "$stage/usr/bin/audiosessionctl" \
  "$stage/usr/bin/audiosession-indicator" 2>/dev/null \
  | sed -n 's/^shlibs:Depends=//p')

install -d "$stage/DEBIAN"
cat > "$stage/DEBIAN/control" <<CONTROL
Package: audiosession
Version: $version
Architecture: $architecture
Maintainer: audiosession maintainers <audiosession@users.noreply.github.com>
Installed-Size: $(du -sk --exclude=DEBIAN "$stage" | cut -f1)
Depends: $depends
Recommends: pulseaudio | pipewire-pulse
Section: sound
Priority: optional
Homepage: https://github.com/audiosession/audiosession
Description: audio sessions for Linux desktops, on PulseAudio or PipeWire
 audiosessiond brings the model of audio sessions (categories, modes,
 options, activation) to Linux desktops. Apps declare what kind of audio they
 make over D-Bus; the bridge turns that into sound-server actions (muting,
 ducking, routing) and tells each app about interruptions, route changes and
 the loss of the sound server. Apps that never opt in are governed by policy
 files per kind of app.
CONTROL
(cd "$stage" && find usr -type f -exec md5sum {} + | sort -k2) > "$stage/DEBIAN/md5sums"
# The indicator's autostart entry is a configuration file the user may edit.
(cd "$stage" && find etc -type f | sed 's|^|/|' | sort) > "$stage/DEBIAN/conffiles"
chmod 644 "$stage/DEBIAN/control" "$stage/DEBIAN/md5sums" "$stage/DEBIAN/conffiles"
mkdir -p "$out"
package="$out/audiosession_${version}_${architecture}.deb"
# xz at level 1, not dpkg-deb's 6: the static programs carry the Swift runtime, and level 6 spent some
# 70 s of processor time on them for a package a sixth smaller (DECISIONS 122).
dpkg-deb --root-owner-group -Zxz -z1 --build "$stage" "$package" >/dev/null
echo "$package"
