// SPDX-License-Identifier: Apache-2.0
/// A word of the audio-session vocabulary: a closed set of values, each spelled by one string on the
/// bus, in policy files and in the event log.
public protocol VocabularyWord: RawRepresentable, CaseIterable, Hashable, Sendable, CustomStringConvertible
where RawValue == String {
    /// What the word names, for error messages ("category", "mode", …).
    static var vocabularyName: String { get }
}

extension VocabularyWord {
    /// Parses the word's string, refusing unknown strings with ``ErrorCode/badParam`` and a message
    /// that lists the accepted spellings.
    public static func parse(_ text: String) throws(AudioSessionError) -> Self {
        guard let value = Self(rawValue: text) else {
            throw AudioSessionError(
                .badParam, "unknown \(vocabularyName) '\(text)'; expected one of: \(spellings)")
        }
        return value
    }

    public var description: String { rawValue }

    /// Every spelling of the word, comma-separated, for help texts and error messages.
    public static var spellings: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
