#!/usr/bin/env bash
# make run: runs audiosessiond in the foreground against the user's sound server and session bus.
# Where there is none (a fresh or headless machine) it first starts a private PulseAudio with a null
# "Speaker" sink and a private session bus (the embedded default), and says how to reach them.
#   AUDIOSESSIOND   the daemon to run (default: .build/release/audiosessiond)
#   DEMO=1          use private servers whatever runs already, play the scripted scene of
#                   `make demo` (scripts/demo.sh), and stop
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

if [ "${DEMO:-0}" = 1 ]; then unset DBUS_SESSION_BUS_ADDRESS PULSE_SERVER; fi
if ! bus_works || ! server_works; then
  base="${XDG_RUNTIME_DIR:-/tmp}/audiosession-embedded-$$"
  mkdir -p "$base/pulse" && chmod 700 "$base"
  if ! bus_works; then
    dbus-daemon --session --nofork --nopidfile --address="unix:path=$base/bus" >"$base/dbus.log" 2>&1 &
    pids+=($!)
    export DBUS_SESSION_BUS_ADDRESS="unix:path=$base/bus"
    for _ in $(seq 200); do [ -S "$base/bus" ] && break; sleep 0.05; done
  fi
  if ! server_works; then
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
  echo "audiosession: no sound server or session bus was running; started private ones. From another shell:"
  echo "  export DBUS_SESSION_BUS_ADDRESS='$DBUS_SESSION_BUS_ADDRESS' PULSE_SERVER='${PULSE_SERVER:-}'"
  echo "  audiosessionctl status"
fi

"$daemon" --policies "$here/policies" "$@" &
pids+=($!)
if [ "${DEMO:-0}" = 1 ]; then "$here/scripts/demo.sh"; sleep 0.5; exit 0; fi
wait "${pids[-1]}"
