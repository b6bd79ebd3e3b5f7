// SPDX-License-Identifier: Apache-2.0
@testable import AudioSessionDaemon
import AudioTestHarness
import Foundation
import PulseAudioClient
import ServerTestTraits
import Testing

/// The watch on the server's socket that lets the bridge connect to a restarted server as soon as it
/// binds its socket (R3 in `make soak` measures how soon a client hears of it).
@Suite("The watch on the server's socket", .threadOfItsOwn)
struct ServerSocketWatchTests {
    @Test("the socket a server address names", arguments: [
        ("unix:/run/user/1000/pulse/native", [:], "/run/user/1000/pulse/native"),
        ("/tmp/x/native", [:], "/tmp/x/native"),
        ("tcp:localhost:4713", [:], nil),
        (nil, ["PULSE_SERVER": "unix:/srv/pulse/native"], "/srv/pulse/native"),
        (nil, ["XDG_RUNTIME_DIR": "/run/user/7"], "/run/user/7/pulse/native"),
        (nil, [:], nil),
    ] as [(String?, [String: String], String?)])
    func socketPath(server: String?, environment: [String: String], expected: String?) {
        #expect(ServerSocketWatch.socketPath(of: server, variable: { environment[$0] }) == expected)
    }

    @Test("a socket made in its folder is reported, also after the folder itself was made again")
    func socketMade() throws {
        let root = NSTemporaryDirectory() + "socket-watch-\(UUID().uuidString.prefix(8))"
        let folder = root + "/pulse"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let loop = try PulseLoop()
        loop.start()
        defer { loop.stop() }
        let count = Counter()
        let holder = WatchHolder()
        onLoop(loop) { holder.watch = ServerSocketWatch(loop: loop, socketPath: folder + "/native") { count.add() } }
        #expect(holder.watch != nil)

        let first = try ListeningSocket(path: folder + "/native")
        try waitUntil("the socket to be reported") { count.value >= 1 }
        first.close()
        try FileManager.default.removeItem(atPath: folder)
        let before = count.value
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let second = try ListeningSocket(path: folder + "/native")
        defer { second.close() }
        try waitUntil("the socket in the folder made again to be reported (reports: \(count.value))") { count.value > before }
        onLoop(loop) { holder.watch = nil }
    }
}

/// Runs `body` on the loop thread and waits for it.
func onLoop(_ loop: PulseLoop, _ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    loop.perform {
        body()
        done.signal()
    }
    done.wait()
}

/// The watch under test, made and dropped on the loop thread.
final class WatchHolder: @unchecked Sendable {
    var watch: ServerSocketWatch?
}

/// A Unix socket bound and listening at a path, as a server's.
struct ListeningSocket {
    let descriptor: Int32

    init(path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard descriptor >= 0, bound == 0, listen(descriptor, 4) == 0 else { throw HarnessError("cannot listen at \(path)") }
    }

    func close() { _ = Glibc.close(descriptor) }
}

/// A thread-safe count of callbacks.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func add() { lock.withLock { count += 1 } }
}
