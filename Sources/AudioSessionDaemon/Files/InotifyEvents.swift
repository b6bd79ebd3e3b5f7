// SPDX-License-Identifier: Apache-2.0
import Glibc

/// The events waiting on a non-blocking inotify descriptor.
enum InotifyEvents {
    /// One event: the watch it came from and the name of the entry it is about ("" for the folder itself).
    struct Event {
        var watch: Int32
        var name: String
    }

    /// Reads every pending event of `fd`.
    static func drain(_ fd: Int32) -> [Event] {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var events: [Event] = []
        while true {
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let (event, length) = buffer.withUnsafeBytes { raw -> (Event, Int) in
                    let header = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    let start = offset + MemoryLayout<inotify_event>.size
                    let bytes = raw[start..<min(start + Int(header.len), count)].prefix { $0 != 0 }
                    return (Event(watch: header.wd, name: String(decoding: bytes, as: UTF8.self)), Int(header.len))
                }
                events.append(event)
                offset += MemoryLayout<inotify_event>.size + length
            }
        }
        return events
    }
}
