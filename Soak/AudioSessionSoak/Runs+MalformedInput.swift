// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import DBusKit
import Foundation

/// R4: malformed and hostile input from many connections.
extension SoakRuns {
    static let bridge = BusClient.bridge, manager = BusClient.manager, sessionInterface = BusClient.sessionInterface

    /// One generated call: where it goes and what it carries.
    struct GeneratedCall {
        var path: String
        var interface: String
        var member: String
        var arguments: [BusValue]
    }

    /// A call of one of the hostile kinds (or a valid one, now and then), against `sessions` the
    /// connection may hold; uses `random` so that a run can be repeated.
    static func generateCall(sessions: [String], random: inout some RandomNumberGenerator) -> GeneratedCall {
        let session = sessions.randomElement(using: &random) ?? manager + "/session/1"
        func text(_ count: Int) -> String { String((0..<count).map { _ in "abcxyzé☃\u{1}/".randomElement(using: &random)! }) }
        let weird: [Double] = [.nan, .infinity, -.infinity, -1, 1e308, 0, 48000]
        switch Int.random(in: 0..<12, using: &random) {
        case 0: return GeneratedCall(path: manager, interface: bridge, member: "NoSuch" + String((0..<4).map { _ in "abcXYZ_09".randomElement(using: &random)! }), arguments: [])
        case 1: return GeneratedCall(path: "/io/github/audiosession/Bridge1/session/\(Int.random(in: 0...99999, using: &random))",
                                     interface: sessionInterface, member: "SetActive", arguments: [.bool(true), .strings([])])
        case 2: return GeneratedCall(path: manager, interface: bridge, member: "CreateSession", arguments: [.int32(7), .string("x")])
        case 3: return GeneratedCall(path: manager, interface: bridge, member: "CreateSession",
                                     arguments: [.string(text(Int.random(in: 200...5000, using: &random))), .vardict([])])
        case 4: return GeneratedCall(path: session, interface: sessionInterface, member: "SetCategory",
                                     arguments: [.string("playback"), .string("default"),
                                                 .strings((0..<Int.random(in: 0...100, using: &random)).map { _ in text(12) })])
        case 5: return GeneratedCall(path: session, interface: sessionInterface, member: "SetPreferredSampleRate",
                                     arguments: [.double(weird.randomElement(using: &random)!)])
        case 6: return GeneratedCall(path: session, interface: sessionInterface, member: "SetInputGain",
                                     arguments: [.double(weird.randomElement(using: &random)!)])
        case 7: return GeneratedCall(path: session, interface: "org.freedesktop.DBus.Properties", member: "Set",
                                     arguments: [.string(sessionInterface), .string("Category"), .variant(.string("record"))])
        case 8: return GeneratedCall(path: session, interface: "org.freedesktop.DBus.Properties", member: "Get",
                                     arguments: [.string(sessionInterface), .string(text(8))])
        case 9: return GeneratedCall(path: session, interface: sessionInterface, member: "SetCategory",
                                     arguments: [.string(text(6)), .string(text(6)), .strings([text(6)])])
        case 10:  // valid, up to the limit of sessions per connection and beyond; or with a stranger's pid
            let hints: [(String, BusValue)] = Bool.random(using: &random) ? [] : [("pid", .uint32(UInt32.random(in: 0...4_000_000, using: &random)))]
            return GeneratedCall(path: manager, interface: bridge, member: "CreateSession", arguments: [.string("soak-fuzz"), .vardict(hints)])
        default: return GeneratedCall(path: session, interface: sessionInterface, member: "SetActive",
                                      arguments: [.bool(Bool.random(using: &random)), .strings(["notifyOthersOnDeactivation"])])
        }
    }

    /// R4: `calls` generated calls from `connections` connections, one in a hundred of which vanishes
    /// in the middle of a call (and is replaced). Every call awaited must be answered; the bridge's
    /// memory may grow by less than 1 MB after the first tenth; and once the connections are gone, no
    /// session may be left.
    public static func malformedInput(_ kind: SoundServerKind, calls: Int, connections: Int = 8) throws -> SoakResult {
        let rig = try SoakRig(kind)
        defer { rig.stop() }
        var result = SoakResult(run: "R4 malformed input", stack: kind, cycles: calls)
        var random = SystemRandomNumberGenerator()
        func connect() throws -> (BusConnection, [String]) { (try BusConnection(.address(rig.server.busAddress!)), []) }
        var pool = try (0..<connections).map { _ in try connect() }
        var answered = 0, errors = 0, vanished = 0
        var warmRSS = 0
        for call in 1...calls {
            if call == max(1, calls / 10) { warmRSS = ProcessFigures(pid: rig.daemon.process.pid).residentBytes / 1024 }
            let slot = Int.random(in: 0..<connections, using: &random)
            let generated = generateCall(sessions: pool[slot].1, random: &random)
            let message = BusMessage.methodCall(destination: bridge, path: generated.path, interface: generated.interface,
                                                member: generated.member, generated.arguments)
            if Int.random(in: 0..<100, using: &random) == 0 {
                pool[slot].0.send(message)  // and gone before the answer
                pool[slot].0.flush()
                pool[slot].0.close()
                pool[slot] = try connect()
                vanished += 1
                continue
            }
            do {
                let reply = try pool[slot].0.call(message, timeout: .seconds(10))
                answered += 1
                if generated.member == "CreateSession", let path = reply.arguments.first?.stringValue { pool[slot].1.append(path) }
            } catch where error.name != "org.freedesktop.DBus.Error.NoReply"
                && error.name != "org.freedesktop.DBus.Error.Timeout"
            {
                answered += 1
                errors += 1
            } catch {
                result.failures.append("call \(call) (\(generated.member) on \(generated.path)) was not answered: \(error)")
            }
        }
        let endRSS = ProcessFigures(pid: rig.daemon.process.pid).residentBytes / 1024
        for (connection, _) in pool { connection.close() }
        pool = []
        let observer = try rig.client()
        let left = timeUntil {
            try observer.call(manager, bridge, "ListSessions").first?.arrayItems?.isEmpty == true
        }
        if left == nil {
            let count = (try? observer.call(manager, bridge, "ListSessions").first?.arrayItems?.count) ?? -1
            result.failures.append("\(count) sessions left after every connection closed")
        }
        if !rig.daemon.process.isRunning { result.failures.append("the bridge is gone: \(rig.daemon.process.output.suffix(400))") }
        let growth = endRSS - warmRSS
        if growth >= 1024 { result.budgetMisses.append("the bridge grew by \(growth) kB after warm-up (budget < 1024 kB)") }
        result.figures = [("answered", "\(answered)/\(calls - vanished)"), ("errors", "\(errors)"),
                          ("vanished mid-call", "\(vanished)"), ("RSS growth after warm-up", "\(growth) kB")]
        return result
    }
}
