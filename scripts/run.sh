#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make run: runs audiosessiond in the foreground against the user's sound server and session bus.
# Where there is none (a fresh or headless machine) it first starts a private PulseAudio with a null
# "Speaker" sink and a private session bus (the embedded default), and says how to reach them.
#   AUDIOSESSIOND   the daemon to run (default: .build/release/audiosessiond)
#   DEMO=1          use private servers whatever runs already, play the scripted scene of
#                   `make demo` (scripts/demo.sh), and stop
#   SERVER=pipewire use a private PipeWire 1.4 + WirePlumber 0.5 + pipewire-pulse (unpacked into
#                   .build/pipewire-1.4 by scripts/fetch-pipewire.sh 1.4) as the embedded default,
#                   whatever runs already
set -u
here="$(cd "$(dirname "$0")/.." && pwd)"
daemon="${AUDIOSESSIOND:-$here/.build/release/audiosessiond}"
pids=()
cleanup() {
  # The bridge first, so that it can undo what it changed while the servers are still there.
  if [ ${#pids[@]} -gt 0 ]; then
    kill "${pids[-1]}" 2>/dev/null; wait "${pids[-1]}" 2>/dev/null
    kill "${pids[@]}" 2>/dev/null
  fi
  wait 2>/dev/null
}
trap cleanup EXIT
trap 'exit 0' INT TERM

bus_works() { [ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ] && dbus-send --session --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.GetId >/dev/null 2>&1; }
server_works() { pactl info >/dev/null 2>&1; }

# The private PipeWire 1.4 stack: pipewire, wireplumber and pipewire-pulse from the unpacked prefix,
# each with the prefix's libraries, plugins and configuration, in their own runtime directory.
start_pipewire() {
  local prefix="$here/.build/pipewire-1.4/prefix" lib
  [ -f "$prefix/.complete" ] || "$here/scripts/fetch-pipewire.sh" 1.4 || exit 1
  lib=$(echo "$prefix"/usr/lib/*-linux-gnu)
  mkdir -p "$base/run" "$base/state" && chmod 700 "$base/run"
  local environment=(XDG_RUNTIME_DIR="$base/run" XDG_STATE_HOME="$base/state" XDG_CONFIG_HOME="$base/config"
    LD_LIBRARY_PATH="$lib" SPA_PLUGIN_DIR="$lib/spa-0.2" SPA_DATA_DIR="$prefix/usr/share/spa-0.2"
    PIPEWIRE_MODULE_DIR="$lib/pipewire-0.3" PIPEWIRE_CONFIG_DIR="$prefix/usr/share/pipewire"
    WIREPLUMBER_MODULE_DIR="$lib/wireplumber-0.5" WIREPLUMBER_DATA_DIR="$prefix/usr/share/wireplumber"
    WIREPLUMBER_CONFIG_DIR="$prefix/usr/share/wireplumber")
  env "${environment[@]}" "$prefix/usr/bin/pipewire" >"$base/pipewire.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 200); do [ -S "$base/run/pipewire-0" ] && break; sleep 0.05; done
  env "${environment[@]}" "$prefix/usr/bin/wireplumber" >"$base/wireplumber.log" 2>&1 &
  pids+=($!)
  env "${environment[@]}" "$prefix/usr/bin/pipewire-pulse" >"$base/pipewire-pulse.log" 2>&1 &
  pids+=($!)
  export PULSE_SERVER="unix:$base/run/pulse/native"
  for _ in $(seq 200); do server_works && break; sleep 0.05; done
  pactl load-module module-null-sink sink_name=speaker \
    "sink_properties='device.description=Speaker device.form_factor=internal device.bus=pci'" >/dev/null
  # A null sink of PipeWire 1.4 takes volume and mute only once its ports have run, as a card's have.
  head -c 19200 /dev/zero | pacat --playback --raw --device=speaker --client-name=audiosession-device-check
  for _ in $(seq 200); do pactl set-default-sink speaker 2>/dev/null && break; sleep 0.05; done
}

if [ "${DEMO:-0}" = 1 ] || [ "${SERVER:-}" = pipewire ]; then unset DBUS_SESSION_BUS_ADDRESS PULSE_SERVER; fi
if ! bus_works || ! server_works; then
  base="${XDG_RUNTIME_DIR:-/tmp}/audiosession-embedded-$$"
  mkdir -p "$base/pulse" && chmod 700 "$base"
  if ! bus_works; then
    dbus-daemon --session --nofork --nopidfile --address="unix:path=$base/bus" >"$base/dbus.log" 2>&1 &
    pids+=($!)
    export DBUS_SESSION_BUS_ADDRESS="unix:path=$base/bus"
    for _ in $(seq 200); do [ -S "$base/bus" ] && break; sleep 0.05; done
  fi
  if [ "${SERVER:-}" = pipewire ]; then
    start_pipewire
  elif ! server_works; then
    cat >"$base/default.pa" <<PA
load-module module-native-protocol-unix auth-anonymous=1 socket=$base/pulse/native
load-module module-null-sink sink_name=speaker sink_properties='device.description=Speaker device.form_factor=internal device.bus=pci'
load-module module-stream-restore
set-default-sink speaker
PA
    HOME="$base" XDG_CONFIG_HOME="$base/config" pulseaudio -n -F "$base/default.pa" --exit-idle-time=-1 \
      --daemonize=no --use-pid-file=no --log-target=stderr >"$base/pulseaudio.log" 2>&1 &
    pids+=($!)
    export PULSE_SERVER="unix:$base/pulse/native"
    for _ in $(seq 200); do server_works && break; sleep 0.05; done
  fi
  if [ "${SERVER:-}" = pipewire ]; then what="a private PipeWire 1.4 stack and session bus"
  else what="private ones (none was running)"; fi
  echo "audiosession: started $what. From another shell:"
  echo "  export DBUS_SESSION_BUS_ADDRESS='$DBUS_SESSION_BUS_ADDRESS' PULSE_SERVER='${PULSE_SERVER:-}'"
  echo "  audiosessionctl status"
fi

"$daemon" --policies "$here/policies" "$@" &
pids+=($!)
if [ "${DEMO:-0}" = 1 ]; then "$here/scripts/demo.sh"; sleep 0.5; exit 0; fi
wait "${pids[-1]}"
