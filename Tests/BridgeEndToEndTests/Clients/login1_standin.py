#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""A stand-in for logind on a private system bus: owns org.freedesktop.login1 for a moment and emits
one signal: `lock` / `unlock` (a session's LockedHint) or `sleep` / `wake` (PrepareForSleep)."""
import sys

import dbus

word = sys.argv[1]
bus = dbus.SystemBus()
bus.request_name("org.freedesktop.login1")
if word in ("lock", "unlock"):
    message = dbus.lowlevel.SignalMessage("/org/freedesktop/login1/session/_31", "org.freedesktop.DBus.Properties",
                                          "PropertiesChanged")
    message.append("org.freedesktop.login1.Session",
                   dbus.Dictionary({"LockedHint": dbus.Boolean(word == "lock")}, signature="sv"),
                   dbus.Array([], signature="s"))
else:
    message = dbus.lowlevel.SignalMessage("/org/freedesktop/login1", "org.freedesktop.login1.Manager", "PrepareForSleep")
    message.append(dbus.Boolean(word == "sleep"))
bus.send_message(message)
bus.flush()
