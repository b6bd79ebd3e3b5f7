// SPDX-License-Identifier: Apache-2.0

/// The user policy file that *Treat as* writes: an ordinary, commented policy file that names one app
/// and takes every setting from the chosen policy (`like`), at the highest precedence. The indicator
/// writes and removes only files it wrote (they begin with ``marker``); a user's own file of the same
/// name is never overwritten.
public enum TreatAsFile {
    /// The first line of every file the indicator writes.
    public static let marker = "# Written by audiosession-indicator (Treat as)."

    /// Why a file cannot be written or removed, in words for the menu and the log.
    public enum Refusal: Error, Equatable, CustomStringConvertible {
        case noName
        case usersOwnFile(String)
        public var description: String {
            switch self {
            case .noName: "This app has no name to write in a policy file"
            case .usersOwnFile(let name): "\(name) is your own file; it was left as it is"
            }
        }
    }

    /// What the names of the files begin with (and so the names of their policies).
    public static let prefix = "treat-as-"

    /// The policy a file the indicator wrote takes its settings from; nil for any other text.
    public static func chosenPolicy(in text: String) -> String? {
        guard text.hasPrefix(marker) else { return nil }
        let line = text.split(separator: "\n").first { $0.hasPrefix("like = \"") }
        return line.map { String($0.dropFirst("like = \"".count).dropLast()) }
    }

    /// The file's name for an app (`treat-as-<app>.toml`, the app's name kept to letters, digits, `.`,
    /// `_` and `-`); refused when nothing of the name is left.
    public static func fileName(for app: String) throws(Refusal) -> String {
        let kept = String(app.map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) ? $0 : "-" })
        let trimmed = kept.split(separator: "-", omittingEmptySubsequences: true).joined(separator: "-")
        guard !trimmed.isEmpty, trimmed.contains(where: { $0.isLetter || $0.isNumber }) else { throw .noName }
        return prefix + trimmed.lowercased() + ".toml"
    }

    /// The file's text: the app named in every way the bridge may know it, governed like `policy`.
    public static func text(app: String, policy: String) -> String {
        let quoted = "\"" + app.flatMap { $0 == "\\" || $0 == "\"" ? ["\\", $0] : [$0] } + "\""
        return """
            \(marker)
            # The app "\(app)" is governed as "\(policy)" apps are, whatever the bridge detects it as.
            # Choose "As detected" in the indicator's menu, or remove this file, to go back.
            schema = 1
            description = "\(app), treated as \(policy)"
            like = "\(policy)"

            [match]
            binaries = [\(quoted)]
            desktop-ids = [\(quoted)]
            flatpak-ids = [\(quoted)]
            application-names = [\(quoted)]
            precedence = 1000

            """
    }

    /// Whether `existing` (the text of a file already at the name) may be replaced or removed: only
    /// a file the indicator wrote.
    public static func check(existing: String?, name: String) throws(Refusal) {
        if let existing, !existing.hasPrefix(marker) { throw .usersOwnFile(name) }
    }
}
