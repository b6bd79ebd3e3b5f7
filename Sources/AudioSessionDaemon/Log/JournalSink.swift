// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import Glibc

/// Sends event-log records to the systemd journal over its native socket, one datagram per record
/// with structured fields (`MESSAGE`, `PRIORITY` by kind, `MESSAGE_ID` per event, `SYSLOG_IDENTIFIER`,
/// `AUDIOSESSION_EVENT`, and one `AUDIOSESSION_<FIELD>` per record field).
final class JournalSink {
    /// The journal's socket (`$AUDIOSESSION_JOURNAL_SOCKET` overrides it, for tests).
    static var socketPath: String {
        ProcessInfo.processInfo.environment["AUDIOSESSION_JOURNAL_SOCKET"] ?? "/run/systemd/journal/socket"
    }

    private let fd: Int32
    private var address = sockaddr_un()

    /// A sink, or nil when there is no journal socket.
    init?() {
        let path = Self.socketPath
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
        }
    }

    deinit { close(fd) }

    /// Sends one record (best effort: the journal may drop it).
    func send(_ record: LogRecord) {
        var fields = ["MESSAGE=\(record.text)", "PRIORITY=\(JournalFields.priority(record))",
                      "MESSAGE_ID=\(JournalFields.messageID(record.event))", "SYSLOG_IDENTIFIER=audiosessiond",
                      "AUDIOSESSION_EVENT=\(record.event)"]
        for (key, value) in record.fields {
            let name = "AUDIOSESSION_" + key.uppercased().map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
            fields.append("\(name)=\(String(value.plain.map { $0 == "\n" ? " " : $0 }))")
        }
        let datagram = Array((fields.joined(separator: "\n") + "\n").utf8)
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                datagram.withUnsafeBytes { bytes in
                    sendto(fd, bytes.baseAddress, bytes.count, 0, socketAddress, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
        }
    }
}
