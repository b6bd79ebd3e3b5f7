#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""A stand-in for the desktop's screen saver on a private session bus.

`own`: owns org.freedesktop.ScreenSaver, prints `ready`, and announces ActiveChanged(true) on SIGUSR1
and ActiveChanged(false) on SIGUSR2, until SIGTERM.
`forge true|false`: announces ActiveChanged from a connection that does not own the name, then pings
the bridge from the same connection (so the bridge has read the signal when this exits).
"""
import signal
import sys

import dbus


def announce(bus, active):
    message = dbus.lowlevel.SignalMessage("/org/freedesktop/ScreenSaver", "org.freedesktop.ScreenSaver", "ActiveChanged")
    message.append(dbus.Boolean(active))
    bus.send_message(message)
    bus.flush()


bus = dbus.SessionBus()
if sys.argv[1] == "own":
    bus.request_name("org.freedesktop.ScreenSaver", dbus.bus.NAME_FLAG_DO_NOT_QUEUE)
    signal.signal(signal.SIGUSR1, lambda *_: announce(bus, True))
    signal.signal(signal.SIGUSR2, lambda *_: announce(bus, False))
    print("ready", flush=True)
    while True:
        signal.pause()
else:
    announce(bus, sys.argv[2] == "true")
    bus.call_blocking("io.github.audiosession.Bridge1", "/io/github/audiosession/Bridge1", "org.freedesktop.DBus.Peer",
                      "Ping", "", [])
