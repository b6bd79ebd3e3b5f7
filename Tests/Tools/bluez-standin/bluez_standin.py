#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""A stand-in for BlueZ on a private system bus, with one adapter and one paired headset.

Owns org.bluez and serves what a sound server's Bluetooth support asks of BlueZ: the object
manager, the adapter (Adapter1, Media1) and the profile manager. A sound server registers its media
endpoints (Media1.RegisterApplication or RegisterEndpoint) and its hands-free profile
(ProfileManager1.RegisterProfile); once both are there, the headset "connects": its A2DP sink is
configured on the server's SBC source endpoint with a MediaTransport1 whose Acquire hands out one end
of a socket pair (a server that switches codecs configures the headset's endpoint again, and gets a
new transport, as from BlueZ), and its hands-free unit opens an RFCOMM stand-in (a socket pair) to
the server's HFP audio gateway profile and speaks the headset's side of the AT handshake. The server then makes a
card with both profiles, as it does for a real headset.

Prints `ready` once it owns the name, and `connected` once the server answered both connections.
Takes commands through io.github.audiosession.Test.Do on /org/bluez: `disconnect` (the headset goes,
as a paired headset switched off goes from BlueZ: its transport, its endpoint and its hands-free
connection go, and its device stays listed, paired and no longer connected) and `reconnect` (it goes,
and half a second later it comes back and connects both profiles anew, as a headset switched off and
on again).
"""
import faulthandler
import os
import signal
import socket
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

from managed_objects import OBJECT_MANAGER, Objects, Properties

BLUEZ = "org.bluez"
ADAPTER = dbus.ObjectPath("/org/bluez/hci0")
HEADSET_ADDRESS = os.environ.get("STANDIN_HEADSET", "00:1B:66:AA:BB:CC")
DEVICE = dbus.ObjectPath(f"{ADAPTER}/dev_{HEADSET_ADDRESS.replace(':', '_')}")
REMOTE_SEP = dbus.ObjectPath(f"{DEVICE}/sep1")

A2DP_SOURCE = "0000110a-0000-1000-8000-00805f9b34fb"
A2DP_SINK = "0000110b-0000-1000-8000-00805f9b34fb"
AVRCP_TARGET = "0000110c-0000-1000-8000-00805f9b34fb"
AVRCP = "0000110e-0000-1000-8000-00805f9b34fb"
HFP_HF = "0000111e-0000-1000-8000-00805f9b34fb"
HFP_AG = "0000111f-0000-1000-8000-00805f9b34fb"

# SBC: 44.1 kHz joint stereo, 16 blocks, 8 subbands, loudness, bitpool 2..53.
SBC_CAPABILITIES = dbus.Array([dbus.Byte(b) for b in (0xFF, 0xFF, 2, 53)], signature="y")
SBC_CONFIGURATION = dbus.Array([dbus.Byte(b) for b in (0x21, 0x15, 2, 53)], signature="y")


def log(*words):
    print(*words, file=sys.stderr, flush=True)


class Root(Properties):
    """/org/bluez: the profile manager, and the test's commands."""

    def __init__(self):
        super().__init__(objects, "/org/bluez")
        self.profiles = {}  # uuid -> (sender, path)

    @dbus.service.method("org.bluez.ProfileManager1", in_signature="osa{sv}", sender_keyword="sender")
    def RegisterProfile(self, path, uuid, options, sender):
        log("RegisterProfile", sender, path, uuid)
        self.profiles[str(uuid).lower()] = (sender, path)
        GLib.idle_add(headset.connect_when_ready)

    @dbus.service.method("org.bluez.ProfileManager1", in_signature="o", sender_keyword="sender")
    def UnregisterProfile(self, path, sender):
        self.profiles = {u: p for u, p in self.profiles.items() if p != (sender, path)}

    @dbus.service.method("io.github.audiosession.Test", in_signature="s", out_signature="")
    def Do(self, command):
        log("Do", command)
        if command == "disconnect":
            headset.disconnect()
        elif command == "reconnect":
            headset.disconnect()
            GLib.timeout_add(500, headset.connect)
        else:
            raise dbus.exceptions.DBusException("io.github.audiosession.Test.Error", f"unknown command {command}")


class Adapter(Properties):
    """hci0: Adapter1 and Media1."""

    def __init__(self):
        super().__init__(objects, ADAPTER)
        self.endpoints = []  # (sender, path, uuid, codec)

    @dbus.service.method("org.bluez.Media1", in_signature="oa{sv}", sender_keyword="sender")
    def RegisterEndpoint(self, path, options, sender):
        log("RegisterEndpoint", sender, path, options.get("UUID"), options.get("Codec"))
        self.endpoints.append((sender, path, str(options.get("UUID", "")).lower(), int(options.get("Codec", 0))))
        GLib.idle_add(headset.connect_when_ready)

    @dbus.service.method("org.bluez.Media1", in_signature="o", sender_keyword="sender")
    def UnregisterEndpoint(self, path, sender):
        self.endpoints = [e for e in self.endpoints if (e[0], e[1]) != (sender, path)]

    @dbus.service.method("org.bluez.Media1", in_signature="oa{sv}", sender_keyword="sender",
                         async_callbacks=("reply", "error"))
    def RegisterApplication(self, root, options, sender, reply, error):
        log("RegisterApplication", sender, root)

        def listed(managed):
            for path, interfaces in managed.items():
                endpoint = interfaces.get("org.bluez.MediaEndpoint1")
                if endpoint is not None:
                    self.endpoints.append((sender, path, str(endpoint.get("UUID", "")).lower(), int(endpoint.get("Codec", 0))))
            log("endpoints:", len(self.endpoints))
            reply()
            GLib.idle_add(headset.connect_when_ready)

        bus.get_object(sender, root, introspect=False).GetManagedObjects(
            dbus_interface=OBJECT_MANAGER, reply_handler=listed, error_handler=error)

    @dbus.service.method("org.bluez.Media1", in_signature="o", sender_keyword="sender")
    def UnregisterApplication(self, root, sender):
        self.endpoints = [e for e in self.endpoints if e[0] != sender]


class Transport(Properties):
    """An A2DP transport: Acquire hands out one end of a socket pair, whose other end is drained."""

    def __init__(self, path):
        super().__init__(objects, path)
        self.peer = None
        self.watch = None

    def close(self):
        """The transport goes: its socket, its object and its place on the bus."""
        self.release()
        self.unpublish()

    def acquire(self):
        self.release()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        ours.setblocking(False)
        self.peer = ours
        self.watch = GLib.io_add_watch(ours.fileno(), GLib.IO_IN | GLib.IO_HUP | GLib.IO_ERR, self.drain)
        objects.set(self.path, "org.bluez.MediaTransport1", "State", "active")
        fd = dbus.types.UnixFd(theirs.fileno())
        theirs.close()
        return (fd, dbus.UInt16(672), dbus.UInt16(672))

    def release(self):
        if self.watch is not None:
            GLib.source_remove(self.watch)
            self.watch = None
        if self.peer is not None:
            self.peer.close()
            self.peer = None

    def drain(self, fd, condition):
        try:
            while self.peer.recv(4096):
                pass
        except BlockingIOError:
            return True
        except OSError:
            pass
        self.watch = None
        return False

    @dbus.service.method("org.bluez.MediaTransport1", out_signature="hqq")
    def Acquire(self):
        return self.acquire()

    @dbus.service.method("org.bluez.MediaTransport1", out_signature="hqq")
    def TryAcquire(self):
        return self.acquire()

    @dbus.service.method("org.bluez.MediaTransport1")
    def Release(self):
        self.release()
        objects.set(self.path, "org.bluez.MediaTransport1", "State", "idle")


class RemoteEndpoint(Properties):
    """The headset's A2DP sink endpoint. A server that switches codecs (or profiles) configures it
    again, naming its own endpoint; as BlueZ does, the old transport goes, a new one is configured on
    that endpoint, and the call returns once the server took it."""

    @dbus.service.method("org.bluez.MediaEndpoint1", in_signature="oa{sv}", sender_keyword="sender",
                         async_callbacks=("reply", "error"))
    def SetConfiguration(self, endpoint, options, sender, reply, error):
        log("SetConfiguration on the headset's endpoint from", sender, endpoint)
        headset.configure_a2dp((sender, endpoint), options.get("Capabilities", SBC_CONFIGURATION), reply, error)


class Headset:
    """The headset's side: the A2DP configuration and the hands-free unit's AT handshake."""

    def __init__(self):
        self.transport = None  # the A2DP transport, with the server endpoint it was configured on
        self.configurations = 0  # transports made so far, to name each new one
        self.hfp = None  # our end of the RFCOMM stand-in
        self.buffer = b""
        self.sent = []
        self.answers = set()  # "a2dp", "hfp": the connections the server took

    @property
    def connected(self):
        """The device's Connected, as published: False while the headset is switched off."""
        return bool(objects.interfaces[DEVICE]["org.bluez.Device1"]["Connected"])

    def set_connected(self, connected):
        """Publishes the device as connected (with its services resolved) or not."""
        names = ["Connected", "ServicesResolved"]  # the link comes first, and goes last
        for name in names if connected else reversed(names):
            objects.set(DEVICE, "org.bluez.Device1", name, dbus.Boolean(connected))

    def connect_when_ready(self):
        """Connects what is not connected yet and the server is ready for; nothing while the headset is away."""
        if not self.connected:
            return False
        source = next((e for e in adapter.endpoints if e[2] == A2DP_SOURCE and e[3] == 0), None)
        gateway = root.profiles.get(HFP_AG)
        if self.transport is None and source is not None:
            self.configure_a2dp((source[0], source[1]), SBC_CONFIGURATION)
        if self.hfp is None and gateway is not None:
            self.connect_hfp(gateway)
        return False

    def configure_a2dp(self, endpoint, configuration, done=None, failed=None):
        """Configures a new A2DP transport on a server endpoint (sender, path), in place of the old one."""
        self.clear_a2dp()
        sender, path = endpoint
        transport_path = dbus.ObjectPath(f"{REMOTE_SEP}/fd{self.configurations}")
        self.configurations += 1
        transport = {
            "Device": DEVICE, "UUID": A2DP_SOURCE, "Codec": dbus.Byte(0), "Configuration": configuration,
            "State": "idle", "Volume": dbus.UInt16(100), "Endpoint": REMOTE_SEP,
        }
        self.transport = (Transport(transport_path), endpoint)
        objects.add(transport_path, {"org.bluez.MediaTransport1": transport})

        def taken():
            self.answered("a2dp")
            if done is not None:
                done()

        def refused(e):
            log("SetConfiguration failed:", e)
            if failed is not None:
                failed(e)

        bus.get_object(sender, path, introspect=False).SetConfiguration(
            transport_path, dbus.Dictionary(transport, signature="sv"), dbus_interface="org.bluez.MediaEndpoint1",
            signature="oa{sv}", reply_handler=taken, error_handler=refused)

    def clear_a2dp(self):
        """The A2DP transport goes, and the server endpoint it was configured on is told."""
        if self.transport is None:
            return
        transport, (sender, path) = self.transport
        self.transport = None
        bus.get_object(sender, path, introspect=False).ClearConfiguration(
            transport.path, dbus_interface="org.bluez.MediaEndpoint1",
            reply_handler=lambda: None, error_handler=lambda e: log("ClearConfiguration failed:", e))
        transport.close()

    def connect_hfp(self, gateway):
        sender, path = gateway
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        self.hfp = ours
        GLib.io_add_watch(ours.fileno(), GLib.IO_IN | GLib.IO_HUP | GLib.IO_ERR, self.at_readable)
        fd = dbus.types.UnixFd(theirs.fileno())
        theirs.close()
        bus.get_object(sender, path, introspect=False).NewConnection(
            DEVICE, fd, dbus.Dictionary({"Version": dbus.UInt16(0x0107), "Features": dbus.UInt16(0)}, signature="sv"),
            dbus_interface="org.bluez.Profile1",
            reply_handler=self.send_next_at, error_handler=lambda e: log("NewConnection failed:", e))

    # The hands-free unit's commands, each sent once the gateway answered the one before with OK.
    AT_COMMANDS = ["AT+BRSF=0", "AT+CIND=?", "AT+CIND?", "AT+CMER=3,0,0,1"]

    def send_next_at(self):
        if len(self.sent) < len(self.AT_COMMANDS):
            command = self.AT_COMMANDS[len(self.sent)]
            self.sent.append(command)
            self.hfp.send((command + "\r").encode())
        else:
            self.answered("hfp")

    def at_readable(self, fd, condition):
        # An earlier connection's socket (the headset reconnected): its watch ends with it. Reading the
        # current socket here blocked the stand-in for good when that one had nothing to read.
        if self.hfp is None or fd != self.hfp.fileno():
            return False
        try:
            data = self.hfp.recv(4096, socket.MSG_DONTWAIT)
        except BlockingIOError:
            return True
        except OSError:
            data = b""
        if not data:
            log("the gateway closed the RFCOMM stand-in")
            return False
        self.buffer += data
        while b"\r\n" in self.buffer:
            line, _, self.buffer = self.buffer.partition(b"\r\n")
            line = line.strip()
            if not line:
                continue
            log("AG:", line.decode(errors="replace"))
            if line == b"OK":
                self.send_next_at()
            elif line == b"ERROR":
                log("the gateway refused", self.sent[-1] if self.sent else "?")
        return True

    def answered(self, what):
        log("answered:", what)
        if what not in self.answers:
            self.answers.add(what)
            if self.answers == {"a2dp", "hfp"}:
                print("connected", flush=True)

    def connect(self):
        """The headset comes back: its device is connected again and both profiles connect anew."""
        log("the headset comes back")
        if not self.connected:
            objects.add(REMOTE_SEP, remote_endpoint_interfaces())
            self.set_connected(True)
        self.buffer = b""
        self.sent = []
        self.answers = set()
        return self.connect_when_ready()

    def disconnect(self):
        """The headset is switched off. Its device stays, as BlueZ keeps a paired device: removing it
        with the transport crashed PipeWire 1.6's Bluetooth plugin in WirePlumber in three of four runs,
        which no headset switched off does (DECISIONS 137)."""
        self.clear_a2dp()
        objects.remove(REMOTE_SEP)
        if self.hfp is not None:
            self.hfp.close()
            self.hfp = None
        if not self.connected:
            # Switched off again before it came back (a reconnection asked again): nothing more goes.
            log("the headset is away already")
            return
        self.set_connected(False)


def device_interfaces():
    """The headset's Device1, paired and connected."""
    return {
        "org.bluez.Device1": {
            "Address": HEADSET_ADDRESS, "AddressType": "public", "Name": "Stand-in Headset",
            "Alias": "Stand-in Headset", "Class": dbus.UInt32(0x240404), "Icon": "audio-headset",
            "Paired": dbus.Boolean(True), "Bonded": dbus.Boolean(True), "Trusted": dbus.Boolean(True),
            "Blocked": dbus.Boolean(False), "LegacyPairing": dbus.Boolean(False), "Connected": dbus.Boolean(True),
            # Only the profiles the stand-in connects: a sound server waits a few seconds for every
            # audio profile a device offers and tries to connect the missing ones itself
            # (Device1.ConnectProfile, which the stand-in does not serve) before it makes the card.
            "UUIDs": dbus.Array([A2DP_SINK, HFP_HF, AVRCP, AVRCP_TARGET], signature="s"),
            "Adapter": ADAPTER, "ServicesResolved": dbus.Boolean(True), "Modalias": "bluetooth:v000Ap0001d0001",
        },
    }


def remote_endpoint_interfaces():
    """The headset's A2DP sink endpoint: a fresh copy each time the headset (re)appears."""
    return {
        "org.bluez.MediaEndpoint1": {
            "UUID": A2DP_SINK, "Codec": dbus.Byte(0), "Capabilities": SBC_CAPABILITIES, "Device": DEVICE,
            "DelayReporting": dbus.Boolean(False),
        },
    }


faulthandler.enable()
faulthandler.register(signal.SIGUSR1)  # where it is, on request
DBusGMainLoop(set_as_default=True)
bus = dbus.SystemBus()
objects = Objects(bus)
root = Root()
adapter = Adapter()
Properties(objects, DEVICE)
RemoteEndpoint(objects, REMOTE_SEP)
headset = Headset()

objects.interfaces = {
    dbus.ObjectPath("/org/bluez"): {"org.bluez.ProfileManager1": {}, "org.bluez.AgentManager1": {}},
    ADAPTER: {
        "org.bluez.Adapter1": {
            "Address": "00:1A:7D:DA:71:13", "AddressType": "public", "Name": "standin", "Alias": "standin",
            "Class": dbus.UInt32(0x6C010C), "Powered": dbus.Boolean(True), "Discoverable": dbus.Boolean(False),
            "Pairable": dbus.Boolean(True), "Discovering": dbus.Boolean(False),
            "UUIDs": dbus.Array([A2DP_SOURCE, A2DP_SINK, HFP_AG, AVRCP, AVRCP_TARGET], signature="s"),
            "Modalias": "usb:v1D6Bp0246d0540",
        },
        "org.bluez.Media1": {"SupportedUUIDs": dbus.Array([A2DP_SOURCE, A2DP_SINK], signature="s")},
    },
    DEVICE: device_interfaces(),
    REMOTE_SEP: remote_endpoint_interfaces(),
}

bus.request_name(BLUEZ)
print("ready", flush=True)
GLib.MainLoop().run()
