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
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/\(pid)/exe", &buffer, buffer.count - 1)
        if length > 0 {
            var path = String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if path.hasSuffix(" (deleted)") { path.removeLast(" (deleted)".count) }
            return path.split(separator: "/").last.map(String.init)
        }
        let name = firstLine(of: "/proc/\(pid)/comm") ?? ""
        return name.isEmpty ? nil : name
    }

    /// The parent id from `/proc/PID/stat` (the field after the parenthesised command name).
    static func parentID(of pid: Int32) -> Int32? {
        guard let line = firstLine(of: "/proc/\(pid)/stat"), let close = line.lastIndex(of: ")") else { return nil }
        let fields = line[line.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? Int32(fields[1]) : nil
    }

    /// The first line of a small file (`fopen`, `fgets`), without its newline.
    private static func firstLine(of path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 1024)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
