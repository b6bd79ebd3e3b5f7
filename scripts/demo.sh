#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make demo: a scripted scene against the running bridge (started by scripts/run.sh with DEMO=1):
# music plays, a call comes in, the call ends, headphones are plugged in and then unplugged.
# The bridge's event log is on screen as it happens.
set -u
say() { printf '\n--- %s\n' "$*"; }
for _ in $(seq 100); do busctl --user status io.github.audiosession.Bridge1 >/dev/null 2>&1 && break
  [ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ] && dbus-send --session --print-reply --dest=org.freedesktop.DBus / \
    org.freedesktop.DBus.GetNameOwner string:io.github.audiosession.Bridge1 >/dev/null 2>&1 && break; sleep 0.1; done

say "music starts (a player that never opted in, media.role=music)"
pacat --playback --raw --client-name=Music --property=media.role=music /dev/zero & music=$!
sleep 1
say "a call comes in (media.role=phone): the music is interrupted"
pacat --playback --raw --client-name=Phone --property=media.role=phone /dev/zero & phone=$!
sleep 1
say "the call ends: the music is told it may resume"
kill $phone; wait $phone 2>/dev/null
sleep 1.5
say "headphones are plugged in and the music moves there"
module=$(pactl load-module module-null-sink sink_name=headphones \
  "sink_properties='device.description=Headphones device.form_factor=headphone device.bus=pci'")

# Moved as a user would in a mixer, asked again until it lands (PipeWire may still be placing it).
for _ in $(seq 50); do
  target=$(pactl list short sinks | awk '$2 == "headphones" { print $1 }')
  elsewhere=$(pactl list short sink-inputs | awk -v target="$target" '$2 != target { print $1 }')
  [ -n "$target" ] && [ -z "$elsewhere" ] && break
  for id in $elsewhere; do pactl move-sink-input "$id" headphones 2>/dev/null; done
  sleep 0.1
done
sleep 1
say "the headphones are unplugged: oldDeviceUnavailable, with the headphones as the previous route"
pactl unload-module "$module"
sleep 1
kill $music; wait $music 2>/dev/null
say "the scene is over"
