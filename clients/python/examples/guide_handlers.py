#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The interruption and route-change handlers of Apple's audio-session guide, in Python.

A music player: it asks for the playback category, activates (during a call it waits for its turn
instead of failing), and prints what happens to it, one line per notification, until SIGTERM or SIGINT. Usage: guide_handlers.py [APP_ID]
"""

import signal
import sys

from gi.repository import GLib

import audiosession
from audiosession import (
    INTERRUPTION_OPTION_KEY,
    INTERRUPTION_TYPE_KEY,
    ROUTE_CHANGE_PREVIOUS_ROUTE_KEY,
    ROUTE_CHANGE_REASON_KEY,
    AudioSession,
    InterruptionOptions,
    InterruptionType,
    RouteChangeReason,
)


def say(line):
    print(line, flush=True)


class Player:
    def __init__(self, session):
        self.session = session
        self.headphones_connected = False

    def handle_interruption(self, notification):
        user_info = notification.user_info
        kind = user_info.get(INTERRUPTION_TYPE_KEY)
        if kind is None:
            return
        if kind == InterruptionType.BEGAN:
            # Audio has stopped, and the session is no longer active: show it is paused.
            say("began")
        elif kind == InterruptionType.ENDED:
            options = user_info.get(INTERRUPTION_OPTION_KEY)
            if options is None:
                return
            if options & InterruptionOptions.SHOULD_RESUME:
                # The interruption ended, and the app may play again.
                say("ended, should resume")
            else:
                say("ended")

    def handle_route_change(self, notification):
        reason = notification.user_info.get(ROUTE_CHANGE_REASON_KEY)
        if reason is None:
            return
        if reason == RouteChangeReason.NEW_DEVICE_AVAILABLE:
            self.headphones_connected = self.has_headphones(self.session.current_route)
            say(f"new device, headphones: {str(self.headphones_connected).lower()}")
        elif reason == RouteChangeReason.OLD_DEVICE_UNAVAILABLE:
            previous_route = notification.user_info.get(ROUTE_CHANGE_PREVIOUS_ROUTE_KEY)
            if previous_route is not None:
                self.headphones_connected = self.has_headphones(previous_route)
                say(f"old device gone, it was headphones: {str(self.headphones_connected).lower()}")
        else:
            say(f"route: {int(reason)}")

    @staticmethod
    def has_headphones(route):
        return any(port.port_type == "Headphones" for port in route.outputs)


def main():
    session = AudioSession(sys.argv[1] if len(sys.argv) > 1 else "guide-player-python")
    player = Player(session)
    try:
        session.set_category("playback", "default", [])
        session.add_observer(AudioSession.INTERRUPTION_NOTIFICATION, player.handle_interruption)
        session.add_observer(AudioSession.ROUTE_CHANGE_NOTIFICATION, player.handle_route_change)
        session.add_observer(AudioSession.MEDIA_SERVICES_WERE_LOST_NOTIFICATION, lambda _: say("media services were lost"))
        session.add_observer(AudioSession.MEDIA_SERVICES_WERE_RESET_NOTIFICATION, lambda _: say("media services were reset"))
        session.add_observer(AudioSession.ACTIVATION_GRANTED_NOTIFICATION, lambda _: say("activation granted"))
        say(f"activation: {session.request_activation()}")
    except audiosession.AudioSessionError as error:
        say(f"error {error.name}: {error.message}")
        return 1
    say(f"ready {session.path}")
    loop = GLib.MainLoop()
    for number in (signal.SIGTERM, signal.SIGINT):
        GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, number, loop.quit)
    loop.run()
    session.release()
    return 0


if __name__ == "__main__":
    sys.exit(main())
