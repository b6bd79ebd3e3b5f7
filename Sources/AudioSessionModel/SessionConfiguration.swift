// SPDX-License-Identifier: Apache-2.0
/// A category, a mode and options that were checked against each other.
public struct SessionConfiguration: Hashable, Sendable, CustomStringConvertible {
    public let category: SessionCategory
    public let mode: SessionMode
    /// The options as given, plus those they or the mode imply.
    public let options: CategoryOptions

    /// What a session has before it sets anything: `soloAmbient`, `default`, no options.
    public static let initial = SessionConfiguration(uncheckedCategory: .default, mode: .default, options: [])

    /// Checks the combination. A mode the category does not allow is
    /// ``ErrorCode/incompatibleCategory``; an option it does not allow is ``ErrorCode/badParam``,
    /// naming the option and the category. Implied options are added: `duckOthers` and
    /// `interruptSpokenAudioAndMixWithOthers` imply `mixWithOthers`; `voiceChat` implies
    /// `allowBluetooth`; `videoChat` implies `allowBluetooth` and `defaultToSpeaker`.
    public init(category: SessionCategory, mode: SessionMode = .default, options: CategoryOptions = [])
        throws(AudioSessionError)
    {
        guard mode.allowedCategories.contains(category) else {
            throw AudioSessionError(
                .incompatibleCategory, "mode '\(mode)' cannot be used with category '\(category)'")
        }
        let refused = CategoryOptions.named
            .filter { options.isSuperset(of: $0.option) && !category.allowedOptions.isSuperset(of: $0.option) }
            .max { $0.option.rawValue.nonzeroBitCount < $1.option.rawValue.nonzeroBitCount }
        if let refused {
            throw AudioSessionError(.badParam, "option '\(refused.name)' is not allowed with category '\(category)'")
        }
        var all = options
        if all.contains(.duckOthers) || all.contains(.interruptSpokenAudioAndMixWithOthers) {
            all.insert(.mixWithOthers)
        }
        all.formUnion(mode.impliedOptions)
        self.init(uncheckedCategory: category, mode: mode, options: all)
    }

    /// Parses and checks strings as they arrive on the bus or in a policy file.
    public init(category: String, mode: String, options: [String]) throws(AudioSessionError) {
        try self.init(
            category: SessionCategory.parse(category), mode: SessionMode.parse(mode),
            options: CategoryOptions.parse(options))
    }

    private init(uncheckedCategory category: SessionCategory, mode: SessionMode, options: CategoryOptions) {
        self.category = category
        self.mode = mode
        self.options = options
    }

    /// The same category and options with another mode: the options the old mode implied go, those of
    /// the new one come (`setMode`).
    public func withMode(_ mode: SessionMode) throws(AudioSessionError) -> SessionConfiguration {
        try SessionConfiguration(category: category, mode: mode, options: options.subtracting(self.mode.impliedOptions))
    }

    /// Whether the session plays along with other non-mixable sessions instead of interrupting them.
    public var mixesWithOthers: Bool {
        category.alwaysMixes || options.contains(.mixWithOthers)
    }

    /// Whether the session is a call: the phone always wins.
    public var isCall: Bool { category == .playAndRecord && mode.isCall }

    public var description: String { "\(category)/\(mode)\(options.isEmpty ? "" : " " + options.description)" }
}
