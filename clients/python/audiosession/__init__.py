# SPDX-License-Identifier: Apache-2.0
"""Python client of the audiosession bridge (io.github.audiosession.Bridge1 on the session bus).

An app declares a category, a mode and options, activates its session, and is told what happened to
it: interruptions, route changes, the secondary-audio hint, and the sound server's loss and reset.
The names follow AVAudioSession's, in Python's spelling; the notifications carry the same keys and
raw values as Apple's, so the handlers of Apple's guide port line by line.
"""

from .values import (
    INTERRUPTION_OPTION_KEY,
    INTERRUPTION_REASON_KEY,
    INTERRUPTION_TYPE_KEY,
    ROUTE_CHANGE_PREVIOUS_ROUTE_KEY,
    ROUTE_CHANGE_REASON_KEY,
    SILENCE_SECONDARY_AUDIO_HINT_TYPE_KEY,
    InterruptionOptions,
    InterruptionType,
    PortDescription,
    RouteChangeReason,
    RouteDescription,
    SilenceSecondaryAudioHintType,
)
from .session import AudioSession, AudioSessionError, Notification

__all__ = [
    "AudioSession",
    "AudioSessionError",
    "Notification",
    "InterruptionType",
    "InterruptionOptions",
    "RouteChangeReason",
    "SilenceSecondaryAudioHintType",
    "PortDescription",
    "RouteDescription",
    "INTERRUPTION_TYPE_KEY",
    "INTERRUPTION_OPTION_KEY",
    "INTERRUPTION_REASON_KEY",
    "ROUTE_CHANGE_REASON_KEY",
    "ROUTE_CHANGE_PREVIOUS_ROUTE_KEY",
    "SILENCE_SECONDARY_AUDIO_HINT_TYPE_KEY",
]
__version__ = "0.1.0"
