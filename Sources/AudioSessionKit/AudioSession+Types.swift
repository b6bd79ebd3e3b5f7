// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel
import Foundation

extension AudioSession {
    /// `AVAudioSession.Category`: what kind of audio the app makes (`.playback`, `.playAndRecord`, …).
    public typealias Category = SessionCategory
    /// `AVAudioSession.Mode`: a specialisation of the category (`.voiceChat`, `.spokenAudio`, …).
    public typealias Mode = SessionMode
    /// `AVAudioSession.CategoryOptions`: how the category mixes, ducks and routes (`.mixWithOthers`, …).
    public typealias CategoryOptions = AudioSessionModel.CategoryOptions
    /// `AVAudioSession.SetActiveOptions`: `.notifyOthersOnDeactivation`.
    public typealias SetActiveOptions = AudioSessionModel.SetActiveOptions
    /// `AVAudioSession.InterruptionOptions`: `.shouldResume` at the end of an interruption.
    public typealias InterruptionOptions = AudioSessionModel.InterruptionOptions
    /// `AVAudioSession.Port`: the type of a port (`.headphones`, `.builtInSpeaker`, …).
    public typealias Port = PortType
    /// `AVAudioSession.ErrorCode`: the code of an `AudioSessionError`.
    public typealias ErrorCode = AudioSessionModel.ErrorCode

    /// `AVAudioSession.InterruptionType`, with Apple's raw values.
    public enum InterruptionType: UInt, Sendable {
        /// The interruption ended; see the options for `.shouldResume`.
        case ended = 0
        /// Another session took the audio: the session is no longer active.
        case began = 1

        init(_ type: AudioSessionModel.InterruptionType) { self = type == .began ? .began : .ended }
    }

    /// `AVAudioSession.InterruptionReason`, with Apple's raw values.
    public enum InterruptionReason: UInt, Sendable {
        /// Another session's activation, or the system's.
        case `default` = 0
        /// The app was suspended (never sent on Linux; kept for Apple's raw values).
        case appWasSuspended = 1
        /// The microphone the session records from was muted.
        case builtInMicMuted = 2
        /// The route the session used (a Bluetooth headset during a call) went away.
        case routeDisconnected = 4

        init(_ reason: AudioSessionModel.InterruptionReason) { self = Self(rawValue: reason.appleValue) ?? .default }
    }

    /// `AVAudioSession.RouteChangeReason`, with Apple's raw values.
    public enum RouteChangeReason: UInt, Sendable {
        /// The reason is not known.
        case unknown = 0
        /// A device became available and the route moved to it (headphones plugged in).
        case newDeviceAvailable = 1
        /// The device the route used went away (headphones unplugged): pause if it was personal.
        case oldDeviceUnavailable = 2
        /// The session's category changed, and with it the route.
        case categoryChange = 3
        /// The output was overridden (`overrideOutputAudioPort(_:)`).
        case override = 4
        /// The system woke from sleep.
        case wakeFromSleep = 6
        /// No route suits the category (a category that records, with no input).
        case noSuitableRouteForCategory = 7
        /// The set of inputs or outputs changed without a device coming or going (a profile switch).
        case routeConfigurationChange = 8

        init(_ reason: AudioSessionModel.RouteChangeReason) { self = Self(rawValue: reason.appleValue) ?? .unknown }
    }

    /// `AVAudioSession.SilenceSecondaryAudioHintType`, with Apple's raw values.
    public enum SilenceSecondaryAudioHintType: UInt, Sendable {
        /// Other audio stopped: the app may play its secondary audio again.
        case end = 0
        /// Other audio that is primary started: silence secondary audio such as a game's soundtrack.
        case begin = 1
    }

    /// `AVAudioSession.PortOverride`.
    public enum PortOverride: UInt, Sendable {
        /// No override: the category's own route.
        case none = 0
        /// The built-in speaker, whatever else is plugged in.
        case speaker = 0x73706b72  // 'spkr'
    }

    // MARK: Notifications

    /// Posted when an interruption begins or ends; `userInfo` holds ``AudioSessionInterruptionTypeKey``,
    /// ``AudioSessionInterruptionOptionKey`` and ``AudioSessionInterruptionReasonKey``.
    public static let interruptionNotification = Notification.Name("AudioSessionInterruptionNotification")
    /// Posted when the route changes; `userInfo` holds ``AudioSessionRouteChangeReasonKey`` and
    /// ``AudioSessionRouteChangePreviousRouteKey``.
    public static let routeChangeNotification = Notification.Name("AudioSessionRouteChangeNotification")
    /// Posted when other audio that is primary starts or stops; `userInfo` holds
    /// ``AudioSessionSilenceSecondaryAudioHintTypeKey``.
    public static let silenceSecondaryAudioHintNotification = Notification.Name("AudioSessionSilenceSecondaryAudioHintNotification")
    /// Posted when the sound server or the bridge went away; calls fail until the reset.
    public static let mediaServicesWereLostNotification = Notification.Name("AudioSessionMediaServicesWereLostNotification")
    /// Posted when they are back and the library has set the session up again.
    public static let mediaServicesWereResetNotification = Notification.Name("AudioSessionMediaServicesWereResetNotification")

    // MARK: Typed events, for Swift concurrency

    /// An interruption, as the `interruptionNotification` carries it.
    public struct Interruption: Sendable {
        /// Whether it began or ended.
        public var type: InterruptionType
        /// At its end: `.shouldResume` when the app may play again.
        public var options: InterruptionOptions
        /// Why it began.
        public var reason: InterruptionReason
        /// The app id of the session that interrupted, when known.
        public var interrupter: String?
    }

    /// A route change, as the `routeChangeNotification` carries it.
    public struct RouteChange: Sendable {
        /// Why the route changed.
        public var reason: RouteChangeReason
        /// The route before the change (look for `.headphones` in its outputs).
        public var previousRoute: AudioSessionRouteDescription
    }

    /// The loss or reset of media services.
    public enum MediaServicesEvent: Sendable {
        /// The sound server or the bridge went away.
        case lost
        /// They are back, and the session has been set up again.
        case reset
    }
}

// `userInfo` keys of the notifications, as Apple names them (`AVAudioSession…Key` renamed).

/// The interruption's type, a `UInt` raw value of ``AudioSession/InterruptionType``.
public let AudioSessionInterruptionTypeKey = "AVAudioSessionInterruptionTypeKey"
/// At the end of an interruption, its options as a `UInt` (``AudioSession/InterruptionOptions``).
public let AudioSessionInterruptionOptionKey = "AVAudioSessionInterruptionOptionKey"
/// Why the interruption began, a `UInt` raw value of ``AudioSession/InterruptionReason``.
public let AudioSessionInterruptionReasonKey = "AVAudioSessionInterruptionReasonKey"
/// Why the route changed, a `UInt` raw value of ``AudioSession/RouteChangeReason``.
public let AudioSessionRouteChangeReasonKey = "AVAudioSessionRouteChangeReasonKey"
/// The route before the change, an ``AudioSessionRouteDescription``.
public let AudioSessionRouteChangePreviousRouteKey = "AVAudioSessionRouteChangePreviousRouteKey"
/// Whether to silence secondary audio, a `UInt` raw value of ``AudioSession/SilenceSecondaryAudioHintType``.
public let AudioSessionSilenceSecondaryAudioHintTypeKey = "AVAudioSessionSilenceSecondaryAudioHintTypeKey"
