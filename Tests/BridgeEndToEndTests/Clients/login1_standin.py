#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""A stand-in for logind on a private system bus.

Owns org.freedesktop.login1 with two login sessions, "1" and "2" (paths .../session/_31 and _32);
the user's display session is "1". Serves Manager.GetSession, Manager.GetUser, User.Display and each
session's LockedHint; $STANDIN_LOCKED lists the sessions locked at the start ("1", "1 2"). Prints
`ready`, then takes commands through io.github.audiosession.Test.Do on the manager's object:
`lock N`, `unlock N` (PropertiesChanged of session N) and `sleep`, `wake` (PrepareForSleep).
"""
import os

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

LOGIN = "org.freedesktop.login1"
MANAGER = "/org/freedesktop/login1"
PROPERTIES = "org.freedesktop.DBus.Properties"


def session_path(number):
    return dbus.ObjectPath(f"{MANAGER}/session/_3{number}")


class Properties(dbus.service.Object):
    """An object with read-only properties of one interface."""

    def __init__(self, bus, path, interface, values):
        super().__init__(bus, path)
        self.interface, self.values = interface, values

    @dbus.service.method(PROPERTIES, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        return self.values()[name]

    @dbus.service.method(PROPERTIES, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        return self.values()

    @dbus.service.signal(PROPERTIES, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass


class Session(Properties):
    def __init__(self, bus, number, locked):
        self.locked = locked
        super().__init__(bus, session_path(number), f"{LOGIN}.Session",
                         lambda: {"Id": str(number), "LockedHint": dbus.Boolean(self.locked)})

    def set_locked(self, locked):
        self.locked = locked
        self.PropertiesChanged(f"{LOGIN}.Session", {"LockedHint": dbus.Boolean(locked)}, [])


class Manager(dbus.service.Object):
    def __init__(self, bus, sessions):
        super().__init__(bus, MANAGER)
        self.sessions = sessions

    @dbus.service.method(f"{LOGIN}.Manager", in_signature="s", out_signature="o")
    def GetSession(self, number):
        if number not in self.sessions:
            raise dbus.exceptions.DBusException(f"{LOGIN}.NoSuchSession", f"no session {number}")
        return session_path(number)

    @dbus.service.method(f"{LOGIN}.Manager", in_signature="u", out_signature="o")
    def GetUser(self, uid):
        return dbus.ObjectPath(f"{MANAGER}/user/_{uid}")

    @dbus.service.signal(f"{LOGIN}.Manager", signature="b")
    def PrepareForSleep(self, sleeping):
        pass

    @dbus.service.method("io.github.audiosession.Test", in_signature="s", out_signature="")
    def Do(self, command):
        word, _, number = command.partition(" ")
        if word in ("lock", "unlock"):
            self.sessions[number].set_locked(word == "lock")
        else:
            self.PrepareForSleep(word == "sleep")


DBusGMainLoop(set_as_default=True)
bus = dbus.SystemBus()
locked = os.environ.get("STANDIN_LOCKED", "").split()
sessions = {number: Session(bus, number, number in locked) for number in ("1", "2")}
user = Properties(bus, f"{MANAGER}/user/_{os.getuid()}", f"{LOGIN}.User",
                  lambda: {"Display": dbus.Struct(("1", session_path("1")), signature="so")})
manager = Manager(bus, sessions)
name = dbus.service.BusName(LOGIN, bus)
print("ready", flush=True)
GLib.MainLoop().run()
