// SPDX-License-Identifier: Apache-2.0
import Glibc

/// Reads a process's ancestors from `/proc`, for attributing streams to the session of a parent.
enum ProcessAncestry {
    /// `pid` followed by its ancestors, nearest first, up to (not including) pid 1.
    static func chain(of pid: Int32) -> [Int32] {
        var chain: [Int32] = []
        var current = pid
        while current > 1 && chain.count < 64 && !chain.contains(current) {
            chain.append(current)
            guard let parent = parentID(of: current) else { break }
            current = parent
        }
        return chain
    }

    /// The file name of a process's executable (`/proc/PID/exe`), else its command name
    /// (`/proc/PID/comm`, at most 15 characters).
    static func executableName(of pid: Int32) -> String? {
        let linked = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 4096) { buffer -> String? in
            let length = readlink("/proc/\(pid)/exe", buffer.baseAddress!, buffer.count)
            guard length > 0 else { return nil }
            var path = String(decoding: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[..<length]), as: UTF8.self)
            if path.hasSuffix(" (deleted)") { path.removeLast(" (deleted)".count) }
            return path.split(separator: "/").last.map(String.init)
        }
        if let linked { return linked }
        let name = firstLine(of: "/proc/\(pid)/comm") ?? ""
        return name.isEmpty ? nil : name
    }

    /// The parent id from `/proc/PID/stat`: the first number after the parenthesised command name
    /// (which may itself hold spaces and parentheses), read with one `read` into a stack buffer.
    static func parentID(of pid: Int32) -> Int32? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 512) { buffer -> Int32? in
            let length = readSmallFile("/proc/\(pid)/stat", into: buffer)
            guard length > 0, let close = buffer[..<length].lastIndex(of: UInt8(ascii: ")")) else { return nil }
            // ") S 1234 …": skip the state letter, then read the number.
            var position = close + 1
            var fieldsSeen = 0
            while position < length, fieldsSeen < 2 {
                if buffer[position] == UInt8(ascii: " ") { fieldsSeen += 1 }
                position += 1
            }
            var parent: Int32 = 0
            var digits = 0
            while position < length, buffer[position] >= UInt8(ascii: "0"), buffer[position] <= UInt8(ascii: "9") {
                parent = parent &* 10 &+ Int32(buffer[position] - UInt8(ascii: "0"))
                position += 1
                digits += 1
            }
            return digits > 0 ? parent : nil
        }
    }

    /// The first line of a small file, without its newline.
    private static func firstLine(of path: String) -> String? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { buffer -> String? in
            let length = readSmallFile(path, into: buffer)
            guard length >= 0 else { return nil }
            let end = buffer[..<length].firstIndex(of: 10) ?? length
            return String(decoding: UnsafeMutableBufferPointer(rebasing: buffer[..<end]), as: UTF8.self)
        }
    }

    /// Reads up to the buffer's size from the start of a file (`open`, `read`, `close`); the byte count,
    /// or -1 when the file cannot be read (the process is gone).
    private static func readSmallFile(_ path: String, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return -1 }
        defer { close(descriptor) }
        return read(descriptor, buffer.baseAddress, buffer.count)
    }
}
