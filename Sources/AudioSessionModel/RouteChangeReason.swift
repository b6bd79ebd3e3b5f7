// SPDX-License-Identifier: Apache-2.0
/// Why a session's route changed (`AVAudioSession.RouteChangeReason`).
public enum RouteChangeReason: String, VocabularyWord {
    case unknown
    case newDeviceAvailable
    case oldDeviceUnavailable
    case categoryChange
    case override
    case wakeFromSleep
    case noSuitableRouteForCategory
    case routeConfigurationChange

    public static let vocabularyName = "route-change reason"

    /// Apple's raw value (5 is unused, as on Apple's platforms).
    public var appleValue: UInt {
        switch self {
        case .unknown: 0
        case .newDeviceAvailable: 1
        case .oldDeviceUnavailable: 2
        case .categoryChange: 3
        case .override: 4
        case .wakeFromSleep: 6
        case .noSuitableRouteForCategory: 7
        case .routeConfigurationChange: 8
        }
    }

    /// The reason for one of Apple's raw values.
    public init?(appleValue: UInt) {
        guard let match = Self.allCases.first(where: { $0.appleValue == appleValue }) else { return nil }
        self = match
    }
}
