// SPDX-License-Identifier: Apache-2.0
/// Options of `setActive(_:options:)` (`AVAudioSession.SetActiveOptions`).
public struct SetActiveOptions: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// On deactivation, tell the sessions this one interrupted that they may resume.
    public static let notifyOthersOnDeactivation = SetActiveOptions(rawValue: 1)

    /// Parses option strings, refusing an unknown one with ``ErrorCode/badParam``.
    public static func parse(_ names: [String]) throws(AudioSessionError) -> SetActiveOptions {
        var options: SetActiveOptions = []
        for name in names {
            guard name == "notifyOthersOnDeactivation" else {
                throw AudioSessionError(
                    .badParam, "unknown set-active option '\(name)'; expected: notifyOthersOnDeactivation")
            }
            options.insert(.notifyOthersOnDeactivation)
        }
        return options
    }

    /// The option strings.
    public var names: [String] { contains(.notifyOthersOnDeactivation) ? ["notifyOthersOnDeactivation"] : [] }
}
