# SPDX-License-Identifier: Apache-2.0
"""An app's audio session on the audiosession bridge, over GDBus."""

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

from .values import (  # noqa: E402
    INTERRUPTION_OPTION_KEY,
    INTERRUPTION_REASON_KEY,
    INTERRUPTION_TYPE_KEY,
    ROUTE_CHANGE_PREVIOUS_ROUTE_KEY,
    ROUTE_CHANGE_REASON_KEY,
    SILENCE_SECONDARY_AUDIO_HINT_TYPE_KEY,
    InterruptionOptions,
    InterruptionType,
    RouteChangeReason,
    RouteDescription,
    SilenceSecondaryAudioHintType,
)

BRIDGE_NAME = "io.github.audiosession.Bridge1"
BRIDGE_PATH = "/io/github/audiosession/Bridge1"
BRIDGE_INTERFACE = "io.github.audiosession.Bridge1"
SESSION_INTERFACE = "io.github.audiosession.Session1"
ERROR_PREFIX = "io.github.audiosession.Error."


class AudioSessionError(Exception):
    """A call the bridge refused or could not answer.

    `name` is the bridge's error name without its prefix (`BadParam`, `InsufficientPriority`,
    `AccessDenied`…), or `MediaServicesFailed` when no bridge answers; `dbus_name` is the full D-Bus
    error name.
    """

    def __init__(self, name: str, message: str, dbus_name: str = ""):
        super().__init__(f"{name}: {message}")
        self.name = name
        self.message = message
        self.dbus_name = dbus_name or ERROR_PREFIX + name

    @classmethod
    def from_glib(cls, error: GLib.Error) -> "AudioSessionError":
        remote = Gio.DBusError.get_remote_error(error) or ""
        Gio.DBusError.strip_remote_error(error)  # in place: the message without the error's name
        message = error.message
        if remote.startswith(ERROR_PREFIX):
            return cls(remote[len(ERROR_PREFIX):], message, remote)
        if remote in ("org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner"):
            return cls("MediaServicesFailed", f"the audiosession bridge (audiosessiond) is not running: {message}", remote)
        if remote.endswith(".AccessDenied"):
            return cls("AccessDenied", message, remote)
        return cls("Unspecified", message, remote)


@dataclass
class Notification:
    """What an observer receives, as NotificationCenter gives it: a name, the session, user_info."""

    name: str
    object: "AudioSession"
    user_info: Dict[str, Any] = field(default_factory=dict)


class AudioSession:
    """One app's session. Created on the bridge at the first call that needs it.

    Observe it with `add_observer(name, handler)`, where name is one of the `*_NOTIFICATION`
    constants; handlers run in the thread default GLib main context, so run a `GLib.MainLoop`.
    """

    INTERRUPTION_NOTIFICATION = "AVAudioSessionInterruptionNotification"
    ROUTE_CHANGE_NOTIFICATION = "AVAudioSessionRouteChangeNotification"
    SILENCE_SECONDARY_AUDIO_HINT_NOTIFICATION = "AVAudioSessionSilenceSecondaryAudioHintNotification"
    MEDIA_SERVICES_WERE_LOST_NOTIFICATION = "AVAudioSessionMediaServicesWereLostNotification"
    MEDIA_SERVICES_WERE_RESET_NOTIFICATION = "AVAudioSessionMediaServicesWereResetNotification"
    # A request to wait for the turn became active (no AVAudioSession counterpart).
    ACTIVATION_GRANTED_NOTIFICATION = "AudioSessionActivationGrantedNotification"

    def __init__(self, app_id: str, bus_address: Optional[str] = None, policy: Optional[str] = None):
        """`app_id` names the app (its desktop id, where it has one); `bus_address` defaults to the
        session bus; `policy` starts from that policy file's category, mode and options."""
        self.app_id = app_id
        self._policy = policy
        try:
            if bus_address:
                flags = (Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT
                         | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION)
                self._bus = Gio.DBusConnection.new_for_address_sync(bus_address, flags, None, None)
            else:
                self._bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
        except GLib.Error as error:
            raise AudioSessionError("MediaServicesFailed", f"no session bus: {error.message}") from None
        self._path: Optional[str] = None
        self.stream_token = ""
        self._observers: Dict[str, List[Callable[[Notification], None]]] = {}
        self._subscriptions: List[int] = []

    # MARK: Calls

    def _call(self, path: str, interface: str, method: str, parameters: Optional[GLib.Variant],
              reply: Optional[str] = None) -> Any:
        try:
            result = self._bus.call_sync(BRIDGE_NAME, path, interface, method, parameters,
                                         GLib.VariantType.new(reply) if reply else None,
                                         Gio.DBusCallFlags.NONE, 10_000, None)
        except GLib.Error as error:
            raise AudioSessionError.from_glib(error) from None
        return result.unpack() if result is not None else None

    @property
    def path(self) -> str:
        """The session's object path, creating the session on the bridge the first time."""
        if self._path is None:
            hints = {"policy": GLib.Variant("s", self._policy)} if self._policy else {}
            self._path, self.stream_token = self._call(BRIDGE_PATH, BRIDGE_INTERFACE, "CreateSession",
                                                       GLib.Variant("(sa{sv})", (self.app_id, hints)), "(os)")
            self._subscribe()
        return self._path

    def _session_call(self, method: str, signature: str = "", *arguments: Any) -> Any:
        parameters = GLib.Variant(f"({signature})", arguments) if signature else None
        return self._call(self.path, SESSION_INTERFACE, method, parameters)

    def set_category(self, category: str, mode: str = "default", options: List[str] = ()) -> None:
        """`category` is AVAudioSession's name (`playback`, `playAndRecord`…), as are mode and options."""
        self._session_call("SetCategory", "ssas", category, mode, list(options))

    def set_mode(self, mode: str) -> None:
        self._session_call("SetMode", "s", mode)

    def set_active(self, active: bool, options: List[str] = ()) -> None:
        """Activates or deactivates; `["notifyOthersOnDeactivation"]` tells interrupted apps to resume."""
        self._session_call("SetActive", "bas", active, list(options))

    def request_activation(self, options: List[str] = ()) -> str:
        """Activates now if allowed, else waits for the turn: returns `"active"` or `"waiting"`. A
        waiting session plays nothing and silences nothing; it becomes active by itself when what
        blocked it (a call) ends, with `ACTIVATION_GRANTED_NOTIFICATION`. `set_active(False)`
        withdraws the request. Options are `set_active`'s."""
        return self._call(self.path, SESSION_INTERFACE, "RequestActivation",
                          GLib.Variant("(as)", (list(options),)), "(s)")[0]

    def override_output_audio_port(self, port: str) -> None:
        """`speaker` or `none`."""
        self._session_call("OverrideOutputAudioPort", "s", port)

    def set_preferred_input(self, uid: str) -> None:
        self._session_call("SetPreferredInput", "s", uid)

    def release(self) -> None:
        """Ends the session on the bridge (also done when the connection closes)."""
        if self._path is not None:
            for subscription in self._subscriptions:
                self._bus.signal_unsubscribe(subscription)
            self._subscriptions = []
            self._session_call("Release")
            self._path = None

    # MARK: Properties

    def _property(self, name: str) -> Any:
        return self._call(self.path, "org.freedesktop.DBus.Properties", "Get",
                          GLib.Variant("(ss)", (SESSION_INTERFACE, name)), "(v)")[0]

    @property
    def category(self) -> str:
        return self._property("Category")

    @property
    def mode(self) -> str:
        return self._property("Mode")

    @property
    def is_active(self) -> bool:
        return self._property("IsActive")

    @property
    def activation_state(self) -> str:
        """`"inactive"`, `"active"` or `"waiting"` (for the turn)."""
        return self._property("ActivationState")

    @property
    def is_other_audio_playing(self) -> bool:
        return self._property("IsOtherAudioPlaying")

    @property
    def secondary_audio_should_be_silenced_hint(self) -> bool:
        return self._property("SecondaryAudioShouldBeSilencedHint")

    @property
    def output_volume(self) -> float:
        return self._property("OutputVolume")

    @property
    def current_route(self) -> RouteDescription:
        return RouteDescription.from_variant(self._property("CurrentRoute"))

    # MARK: Notifications

    def add_observer(self, name: str, handler: Callable[[Notification], None]) -> None:
        """Calls `handler(notification)` for each notification of that name about this session."""
        self._observers.setdefault(name, []).append(handler)
        _ = self.path  # the signals come from the session's object

    def _post(self, name: str, user_info: Dict[str, Any]) -> None:
        notification = Notification(name, self, user_info)
        for handler in list(self._observers.get(name, [])):
            handler(notification)

    def _subscribe(self) -> None:
        def subscribe(member: str, callback: Callable[[Any], None]) -> None:
            def on_signal(_bus, _sender, _path, _interface, _member, parameters):
                callback(parameters.unpack())
            self._subscriptions.append(self._bus.signal_subscribe(
                BRIDGE_NAME, SESSION_INTERFACE, member, self._path, None, Gio.DBusSignalFlags.NONE, on_signal))

        subscribe("Interruption", self._on_interruption)
        subscribe("RouteChange", self._on_route_change)
        subscribe("SilenceSecondaryAudioHint", lambda args: self._post(
            self.SILENCE_SECONDARY_AUDIO_HINT_NOTIFICATION,
            {SILENCE_SECONDARY_AUDIO_HINT_TYPE_KEY: SilenceSecondaryAudioHintType.BEGIN if args[0] == "begin"
             else SilenceSecondaryAudioHintType.END}))
        subscribe("MediaServicesWereLost", lambda _: self._post(self.MEDIA_SERVICES_WERE_LOST_NOTIFICATION, {}))
        subscribe("MediaServicesWereReset", lambda _: self._post(self.MEDIA_SERVICES_WERE_RESET_NOTIFICATION, {}))
        subscribe("ActivationGranted", lambda _: self._post(self.ACTIVATION_GRANTED_NOTIFICATION, {}))

    def _on_interruption(self, arguments) -> None:
        kind, info = arguments
        user_info: Dict[str, Any] = {
            INTERRUPTION_TYPE_KEY: InterruptionType.BEGAN if kind == "began" else InterruptionType.ENDED,
            INTERRUPTION_REASON_KEY: info.get("reason", "default"),
        }
        if kind == "ended":
            user_info[INTERRUPTION_OPTION_KEY] = InterruptionOptions.from_names(info.get("options", []))
        if "interrupter" in info:
            user_info["interrupter"] = info["interrupter"]
        self._post(self.INTERRUPTION_NOTIFICATION, user_info)

    def _on_route_change(self, arguments) -> None:
        reason, previous = arguments
        self._post(self.ROUTE_CHANGE_NOTIFICATION, {
            ROUTE_CHANGE_REASON_KEY: RouteChangeReason.from_name(reason),
            ROUTE_CHANGE_PREVIOUS_ROUTE_KEY: RouteDescription.from_variant(previous),
        })
