// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel
import Foundation

extension AudioSession {
    public typealias Category = SessionCategory
    public typealias Mode = SessionMode
    public typealias CategoryOptions = AudioSessionModel.CategoryOptions
    public typealias SetActiveOptions = AudioSessionModel.SetActiveOptions
    public typealias InterruptionOptions = AudioSessionModel.InterruptionOptions
    public typealias Port = PortType
    public typealias ErrorCode = AudioSessionModel.ErrorCode

    /// `AVAudioSession.InterruptionType`, with Apple's raw values.
    public enum InterruptionType: UInt, Sendable {
        case ended = 0
        case began = 1

        init(_ type: AudioSessionModel.InterruptionType) { self = type == .began ? .began : .ended }
    }

    /// `AVAudioSession.InterruptionReason`, with Apple's raw values.
    public enum InterruptionReason: UInt, Sendable {
        case `default` = 0
        case appWasSuspended = 1
        case builtInMicMuted = 2
        case routeDisconnected = 4

        init(_ reason: AudioSessionModel.InterruptionReason) { self = Self(rawValue: reason.appleValue) ?? .default }
    }

    /// `AVAudioSession.RouteChangeReason`, with Apple's raw values.
    public enum RouteChangeReason: UInt, Sendable {
        case unknown = 0
        case newDeviceAvailable = 1
        case oldDeviceUnavailable = 2
        case categoryChange = 3
        case override = 4
        case wakeFromSleep = 6
        case noSuitableRouteForCategory = 7
        case routeConfigurationChange = 8

        init(_ reason: AudioSessionModel.RouteChangeReason) { self = Self(rawValue: reason.appleValue) ?? .unknown }
    }

    /// `AVAudioSession.SilenceSecondaryAudioHintType`, with Apple's raw values.
    public enum SilenceSecondaryAudioHintType: UInt, Sendable {
        case end = 0
        case begin = 1
    }

    /// `AVAudioSession.PortOverride`.
    public enum PortOverride: UInt, Sendable {
        case none = 0
        case speaker = 0x73706b72  // 'spkr'
    }

    // MARK: Notifications

    public static let interruptionNotification = Notification.Name("AudioSessionInterruptionNotification")
    public static let routeChangeNotification = Notification.Name("AudioSessionRouteChangeNotification")
    public static let silenceSecondaryAudioHintNotification = Notification.Name("AudioSessionSilenceSecondaryAudioHintNotification")
    public static let mediaServicesWereLostNotification = Notification.Name("AudioSessionMediaServicesWereLostNotification")
    public static let mediaServicesWereResetNotification = Notification.Name("AudioSessionMediaServicesWereResetNotification")

    // MARK: Typed events, for Swift concurrency

    /// An interruption, as the `interruptionNotification` carries it.
    public struct Interruption: Sendable {
        public var type: InterruptionType
        public var options: InterruptionOptions
        public var reason: InterruptionReason
        /// The app id of the session that interrupted, when known.
        public var interrupter: String?
    }

    /// A route change, as the `routeChangeNotification` carries it.
    public struct RouteChange: Sendable {
        public var reason: RouteChangeReason
        public var previousRoute: AudioSessionRouteDescription
    }

    /// The loss or reset of media services.
    public enum MediaServicesEvent: Sendable {
        case lost
        case reset
    }
}

/// `userInfo` keys of the notifications, as Apple names them (`AVAudioSession…Key` renamed).
public let AudioSessionInterruptionTypeKey = "AVAudioSessionInterruptionTypeKey"
public let AudioSessionInterruptionOptionKey = "AVAudioSessionInterruptionOptionKey"
public let AudioSessionInterruptionReasonKey = "AVAudioSessionInterruptionReasonKey"
public let AudioSessionRouteChangeReasonKey = "AVAudioSessionRouteChangeReasonKey"
public let AudioSessionRouteChangePreviousRouteKey = "AVAudioSessionRouteChangePreviousRouteKey"
public let AudioSessionSilenceSecondaryAudioHintTypeKey = "AVAudioSessionSilenceSecondaryAudioHintTypeKey"
