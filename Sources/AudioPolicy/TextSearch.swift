// SPDX-License-Identifier: Apache-2.0

extension StringProtocol {
    /// Whether `part` (a name in ASCII: a call engine, a profile, a port, a server) occurs in the
    /// string; with `ignoringCase`, as `lowercased().contains(part.lowercased())` says. Over ASCII it
    /// compares UTF-8 bytes and allocates nothing, where the standard library's `contains` builds a
    /// searcher on every call: some microseconds on paths that every stream report takes. Text that is
    /// not ASCII is compared by the standard library, as before.
    public func containsASCII(_ part: String, ignoringCase: Bool = false) -> Bool {
        let answer = utf8.withContiguousStorageIfAvailable { text in
            part.utf8.withContiguousStorageIfAvailable { Self.find($0, in: text, ignoringCase: ignoringCase) }
        }
        // An answer at every level: both texts contiguous, and both ASCII.
        if case let found??? = answer { return found }
        return ignoringCase ? lowercased().contains(part.lowercased()) : contains(part)
    }

    /// Whether `needle` occurs in `text`; nil when either is not ASCII.
    private static func find(_ needle: UnsafeBufferPointer<UInt8>, in text: UnsafeBufferPointer<UInt8>,
                             ignoringCase: Bool) -> Bool? {
        guard !needle.contains(where: { $0 >= 0x80 }), !text.contains(where: { $0 >= 0x80 }) else { return nil }
        guard !needle.isEmpty, needle.count <= text.count else { return false }
        func folded(_ byte: UInt8) -> UInt8 { ignoringCase && byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
        search: for start in 0...(text.count - needle.count) {
            for offset in 0..<needle.count where folded(text[start + offset]) != folded(needle[offset]) { continue search }
            return true
        }
        return false
    }
}
