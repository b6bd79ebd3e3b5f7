// SPDX-License-Identifier: Apache-2.0
import Foundation

/// What a user does in a mixer, and what the server reports of streams and devices.
extension SoundServer {
    /// The server's report of the stream of a `pacat` started as `app`, once it exists.
    public func reportedStream(of app: String, record: Bool = false, timeout: Duration = .seconds(10)) throws
        -> ReportedStream
    {
        ReportedStream(try stream(of: app, record: record, timeout: timeout))!
    }

    /// The server's report of the stream with this index, or nil when it is gone.
    public func reportedStream(index: UInt32, record: Bool = false) throws -> ReportedStream? {
        try streams(record: record).compactMap(ReportedStream.init).first { $0.index == index }
    }

    /// Moves a sink-input to a sink as a user would in a mixer, and waits until the server reports it
    /// there. The move is asked again while it has not landed: WirePlumber may still be placing a
    /// new stream by its own policy and put it back.
    public func move(sinkInput index: UInt32, to sink: String, timeout: Duration = .seconds(10)) throws {
        try askUntil("sink-input \(index) to land on \(sink)", every: .milliseconds(500), timeout: timeout,
                     landed: { try reportedStream(index: index)?.device == deviceIndex(named: sink) },
                     ask: { try pactl(["move-sink-input", "\(index)", sink]) })
    }

    /// Makes `name` the default sink as a user would in a mixer, and waits until the server reports it.
    /// The change is asked again while it has not landed: WirePlumber may not accept a sink it has
    /// just been given until it has set the sink up.
    public func setDefaultSink(_ name: String, timeout: Duration = .seconds(10)) throws {
        try askUntil("\(name) to be the default sink (the server: \((try? pactl(["get-default-sink"])) ?? "?"))",
                     every: .milliseconds(300), timeout: timeout,
                     landed: { try pactl(["get-default-sink"]).trimmingCharacters(in: .whitespacesAndNewlines) == name },
                     ask: { _ = try? pactl(["set-default-sink", name]) })
    }

    /// Asks for a change (`ask`), again every `interval` while it has not `landed`, as a user who
    /// clicks again would, until it has or `timeout` passes.
    private func askUntil(_ what: @autoclosure () -> String, every interval: Duration, timeout: Duration,
                          landed: () throws -> Bool, ask: () throws -> Void) throws {
        var lastAsked = ContinuousClock.now - interval
        try waitUntil(what(), timeout: timeout) {
            if try landed() { return true }
            if ContinuousClock.now - lastAsked >= interval {
                try ask()
                lastAsked = .now
            }
            return false
        }
    }

    /// The index of a sink or source by name.
    public func deviceIndex(named name: String, sink: Bool = true) throws -> UInt32? {
        let list = try pactlJSON(["list", sink ? "sinks" : "sources"]) as? [[String: Any]] ?? []
        return list.first { $0["name"] as? String == name }.flatMap { $0["index"] as? Int }.map { UInt32($0) }
    }
}
