// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc
import Synchronization

/// Turns artwork into the file URL MPRIS gives the desktop (`mpris:artUrl`): a file as it is, data
/// written once to `$XDG_RUNTIME_DIR/audiosession-artwork/` (else the cache folder). Problems (a missing
/// file, data that is neither PNG nor JPEG) are reported once on standard error and leave no art URL.
final class ArtworkFiles {
    /// Numbers the files of every player of the process, so that no two players write the same file.
    private static let counter = Mutex(0)
    private var urls: [ObjectIdentifier: String?] = [:]
    private var written: [String] = []
    private let folder: String

    init() {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_RUNTIME_DIR"] ?? environment["XDG_CACHE_HOME"] ?? NSTemporaryDirectory()
        folder = base + "/audiosession-artwork"
    }

    deinit { written.forEach { unlink($0) } }

    /// The URL of the artwork, written to a file the first time it is asked for.
    func url(for artwork: MediaItemArtwork) -> String? {
        let key = ObjectIdentifier(artwork)
        if let known = urls[key] { return known }
        let url = make(artwork)
        urls[key] = url
        return url
    }

    private func make(_ artwork: MediaItemArtwork) -> String? {
        switch artwork.source {
        case .file(let url):
            guard FileManager.default.isReadableFile(atPath: url.path) else {
                report("the artwork file \(url.path) cannot be read; the now-playing info goes out without it")
                return nil
            }
            return url.absoluteString
        case .data(let data): return write(data)
        case .handler(let handler):
            guard let data = handler(artwork.bounds) else {
                report("the artwork's request handler returned no data; the now-playing info goes out without it")
                return nil
            }
            return write(data)
        }
    }

    private func write(_ data: Data) -> String? {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47], jpeg: [UInt8] = [0xFF, 0xD8, 0xFF]
        let suffix: String
        if data.starts(with: png) { suffix = "png" } else if data.starts(with: jpeg) { suffix = "jpg" } else {
            report("the artwork data is neither PNG nor JPEG (\(data.count) bytes); the now-playing info goes out without it")
            return nil
        }
        let number = Self.counter.withLock { count in
            count += 1
            return count
        }
        let path = "\(folder)/\(getpid())-\(number).\(suffix)"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: path))
        } catch {
            report("the artwork could not be written to \(path): \(error)")
            return nil
        }
        written.append(path)
        return URL(fileURLWithPath: path).absoluteString
    }

    private func report(_ message: String) {
        FileHandle.standardError.write(Data("MediaPlayerKit: \(message)\n".utf8))
    }
}
