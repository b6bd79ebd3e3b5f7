#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""An app that owns audio sessions and then just stays connected, until it is killed.

Usage: session_owner.py APP CATEGORY MODE OPTIONS[,...] [APP CATEGORY MODE OPTIONS ...]
Prints one line per session, "PATH TOKEN", then "ready".
"""
import sys
import time

import dbus

bus = dbus.SessionBus()
manager = bus.get_object("io.github.audiosession.Bridge1", "/io/github/audiosession/Bridge1")
arguments = sys.argv[1:]
for i in range(0, len(arguments), 4):
    app, category, mode, options = arguments[i:i + 4]
    path, token = manager.CreateSession(app, dbus.Dictionary({}, signature="sv"),
                                        dbus_interface="io.github.audiosession.Bridge1")
    session = bus.get_object("io.github.audiosession.Bridge1", path)
    session.SetCategory(category, mode, dbus.Array([o for o in options.split(",") if o], signature="s"),
                        dbus_interface="io.github.audiosession.Session1")
    session.SetActive(True, dbus.Array([], signature="s"), dbus_interface="io.github.audiosession.Session1")
    print(path, token, flush=True)
print("ready", flush=True)
while True:
    time.sleep(60)
