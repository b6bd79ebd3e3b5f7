// SPDX-License-Identifier: Apache-2.0
import Glibc

/// Where the event log's lines go: standard output, or a file opened for appending.
final class LogOutput {
    private let descriptor: Int32
    private let ownsDescriptor: Bool

    /// Standard output.
    init() {
        descriptor = STDOUT_FILENO
        ownsDescriptor = false
    }

    /// Nowhere: the records go to the journal alone.
    static var nowhere: LogOutput { LogOutput(descriptor: -1) }

    private init(descriptor: Int32) {
        self.descriptor = descriptor
        ownsDescriptor = false
    }

    /// The file at `path`, created if needed, written at its end.
    init(appendingTo path: String) throws(DaemonError) {
        descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw DaemonError("cannot write the log file \(path): \(String(cString: strerror(errno)))") }
        ownsDescriptor = true
    }

    deinit { if ownsDescriptor { close(descriptor) } }

    /// Writes all of `text`.
    func write(_ text: String) {
        guard descriptor >= 0 else { return }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
