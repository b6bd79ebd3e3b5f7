# SPDX-License-Identifier: Apache-2.0
"""The D-Bus object manager and per-object properties the BlueZ stand-in publishes its objects with:
what org.freedesktop.DBus.ObjectManager and org.freedesktop.DBus.Properties clients of BlueZ read."""
import dbus
import dbus.service

PROPERTIES = "org.freedesktop.DBus.Properties"
OBJECT_MANAGER = "org.freedesktop.DBus.ObjectManager"


class Objects(dbus.service.Object):
    """The object manager at "/" and the properties of every object it lists."""

    def __init__(self, bus):
        super().__init__(bus, "/")
        self.bus = bus
        self.interfaces = {}  # path -> {interface: {name: value}}
        self.published = {}  # path -> the Properties object that serves it

    def add(self, path, interfaces):
        self.interfaces[path] = interfaces
        self.InterfacesAdded(path, interfaces)

    def remove(self, path):
        interfaces = self.interfaces.pop(path, None)
        if interfaces is not None:
            self.InterfacesRemoved(path, dbus.Array(list(interfaces), signature="s"))

    def set(self, path, interface, name, value):
        self.interfaces[path][interface][name] = value
        self.published[path].PropertiesChanged(interface, {name: value}, dbus.Array([], signature="s"))

    @dbus.service.method(OBJECT_MANAGER, out_signature="a{oa{sa{sv}}}")
    def GetManagedObjects(self):
        return self.interfaces

    @dbus.service.signal(OBJECT_MANAGER, signature="oa{sa{sv}}")
    def InterfacesAdded(self, path, interfaces):
        pass

    @dbus.service.signal(OBJECT_MANAGER, signature="oas")
    def InterfacesRemoved(self, path, interfaces):
        pass


class Properties(dbus.service.Object):
    """Properties of one managed object, read from its object manager's `interfaces`."""

    def __init__(self, objects, path):
        super().__init__(objects.bus, path)
        self.objects = objects
        self.path = path
        objects.published[path] = self

    def unpublish(self):
        """The object leaves the bus: its interfaces, and the object itself."""
        self.objects.remove(self.path)
        self.objects.published.pop(self.path, None)
        self.remove_from_connection()

    @dbus.service.method(PROPERTIES, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        try:
            return self.objects.interfaces[self.path][interface][name]
        except KeyError:
            raise dbus.exceptions.DBusException("org.freedesktop.DBus.Error.UnknownProperty", name)

    @dbus.service.method(PROPERTIES, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        return self.objects.interfaces.get(self.path, {}).get(interface, {})

    @dbus.service.method(PROPERTIES, in_signature="ssv")
    def Set(self, interface, name, value):
        self.objects.set(self.path, interface, name, value)

    @dbus.service.signal(PROPERTIES, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass
