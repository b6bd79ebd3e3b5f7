// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import Glibc

/// What the journal learns of a record besides its fields: its syslog priority by kind, and a
/// `MESSAGE_ID` per event kind, so `journalctl MESSAGE_ID=…` or `-p warning` finds what matters.
enum JournalFields {
    /// Errors 3 (a broken policy or permissions file, a refused activation, a failed command), losses 4
    /// (the sound server gone), decisions 6 (sessions, interruptions, routes, actions, permissions,
    /// policies, the server's return), detail 7 (streams and devices coming and going).
    static func priority(_ record: LogRecord) -> Int {
        if record.event.hasSuffix(".error") { return 3 }
        if record.fields.contains(where: { $0.0 == "ok" && $0.1 == .bool(false) }) { return 3 }
        if record.event.hasSuffix(".lost") { return 4 }
        if record.event.hasPrefix("stream.") || record.event.hasPrefix("device.") { return 7 }
        return 6
    }

    /// A stable 128-bit id for an event kind, as 32 hex digits: two 64-bit FNV-1a hashes of
    /// `io.github.audiosession:EVENT` with different offsets, the same on every machine and release.
    static func messageID(_ event: String) -> String {
        let bytes = Array("io.github.audiosession:\(event)".utf8)
        func fnv(_ offset: UInt64) -> UInt64 {
            bytes.reduce(offset) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
        }
        let hex = { (value: UInt64) in
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return hex(fnv(0xcbf2_9ce4_8422_2325)) + hex(fnv(0x6c62_272e_07bb_0142))
    }

    /// Whether standard output or standard error is the journal's stream (`$JOURNAL_STREAM` names its
    /// device and inode, as systemd sets it for a service): records then go to the journal natively,
    /// and not a second time as text.
    static var standardStreamIsJournal: Bool {
        guard let value = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] else { return false }
        let parts = value.split(separator: ":").compactMap { UInt64($0) }
        guard parts.count == 2 else { return false }
        return [STDOUT_FILENO, STDERR_FILENO].contains { descriptor in
            var status = stat()
            return fstat(descriptor, &status) == 0 && UInt64(status.st_dev) == parts[0] && UInt64(status.st_ino) == parts[1]
        }
    }
}
