# SPDX-License-Identifier: Apache-2.0
"""The values the bridge's signals carry, with Apple's raw values and notification keys."""

from dataclasses import dataclass, field
from enum import IntEnum, IntFlag
from typing import List, Tuple

# The keys of a notification's user_info, spelled as AVAudioSession's.
INTERRUPTION_TYPE_KEY = "AVAudioSessionInterruptionTypeKey"
INTERRUPTION_OPTION_KEY = "AVAudioSessionInterruptionOptionKey"
INTERRUPTION_REASON_KEY = "AVAudioSessionInterruptionReasonKey"
ROUTE_CHANGE_REASON_KEY = "AVAudioSessionRouteChangeReasonKey"
ROUTE_CHANGE_PREVIOUS_ROUTE_KEY = "AVAudioSessionRouteChangePreviousRouteKey"
SILENCE_SECONDARY_AUDIO_HINT_TYPE_KEY = "AVAudioSessionSilenceSecondaryAudioHintTypeKey"


class InterruptionType(IntEnum):
    """Whether an interruption began or ended (Apple's raw values)."""

    ENDED = 0
    BEGAN = 1


class InterruptionOptions(IntFlag):
    """What an ended interruption says: SHOULD_RESUME when the app may play again."""

    NONE = 0
    SHOULD_RESUME = 1

    @classmethod
    def from_names(cls, names):
        return cls.SHOULD_RESUME if "shouldResume" in names else cls.NONE


class RouteChangeReason(IntEnum):
    """Why the route changed (Apple's raw values; the bridge sends the names)."""

    UNKNOWN = 0
    NEW_DEVICE_AVAILABLE = 1
    OLD_DEVICE_UNAVAILABLE = 2
    CATEGORY_CHANGE = 3
    OVERRIDE = 4
    WAKE_FROM_SLEEP = 6
    NO_SUITABLE_ROUTE_FOR_CATEGORY = 7
    ROUTE_CONFIGURATION_CHANGE = 8

    @classmethod
    def from_name(cls, name):
        """`newDeviceAvailable` → NEW_DEVICE_AVAILABLE; an unknown name is UNKNOWN."""
        snake = "".join("_" + c if c.isupper() else c.upper() for c in name)
        return cls.__members__.get(snake, cls.UNKNOWN)


class SilenceSecondaryAudioHintType(IntEnum):
    """Whether other audio asks secondary audio to be silenced (Apple's raw values)."""

    END = 0
    BEGIN = 1


@dataclass(frozen=True)
class PortDescription:
    """One input or output of a route: `port_type` is Apple's string (`Headphones`, `Speaker`…)."""

    port_type: str
    port_name: str
    uid: str
    channels: Tuple[str, ...] = ()

    @classmethod
    def from_variant(cls, port):
        return cls(port.get("portType", ""), port.get("portName", ""), port.get("uid", ""),
                   tuple(port.get("channels", ())))


@dataclass(frozen=True)
class RouteDescription:
    """A route: its inputs and outputs."""

    inputs: List[PortDescription] = field(default_factory=list)
    outputs: List[PortDescription] = field(default_factory=list)

    @classmethod
    def from_variant(cls, route):
        inputs, outputs = route
        return cls([PortDescription.from_variant(p) for p in inputs],
                   [PortDescription.from_variant(p) for p in outputs])
