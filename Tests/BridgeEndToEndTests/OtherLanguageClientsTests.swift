// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import ServerTestTraits
import Testing

/// The Python module (`clients/python`) and the C example on GDBus (`clients/c`), each running the
/// guide's interruption and route-change handlers as a separate program against the real bridge: a
/// call interrupts them and ends with shouldResume, headphones come and go.
@Suite("Clients beyond Swift", .serialized, .threadOfItsOwn)
struct OtherLanguageClientsTests {
    static let python = Repository.root + "/clients/python"

    enum Client: String, CaseIterable, CustomTestStringConvertible {
        case python, c
        var testDescription: String { rawValue }
    }

    /// The program and its arguments: the Python example as it is, the C example built by its Makefile.
    func command(for client: Client, in folder: String) throws -> (String, [String]) {
        switch client {
        case .python:
            return ("/usr/bin/python3", [Self.python + "/examples/guide_handlers.py", "guide-python"])
        case .c:
            let (status, output) = try TestProcess.run(
                "/usr/bin/make", ["-C", Repository.root + "/clients/c", "--no-print-directory", "BUILD=\(folder)"],
                environment: ProcessInfo.processInfo.environment)
            guard status == 0 else { throw HarnessError("make -C clients/c: \(output)") }
            return (folder + "/guide-handlers", ["guide-c"])
        }
    }

    /// Waits for the player's `ready` line. A wait it does not end says what the player and the bridge
    /// were doing: under `make stress` the Python player once printed nothing in the wait's 10 s.
    func waitUntilReady(_ player: TestProcess, _ client: Client, _ daemon: BridgeDaemon) throws {
        try waitUntil("the \(client) player to be ready (its output: \(player.output); the player: \(player.processState); "
            + "\(daemon.diagnosis(lastRecords: 6)))") { player.output.contains("ready /io/github/audiosession/") }
    }

    static var cases: [(Client, SoundServerKind)] {
        Client.allCases.flatMap { client in SoundServerKind.underTest.map { (client, $0) } }
    }

    @Test("the guide's handlers, in another language, see a call and headphones come and go", arguments: cases)
    func guideHandlers(client: Client, kind: SoundServerKind) throws {
        let server = try SoundServer(kind)
        defer { server.stop() }
        let daemon = try BridgeDaemon(server: server)
        defer { daemon.terminate() }
        var environment = server.environment
        environment["PYTHONPATH"] = Self.python
        let (program, arguments) = try command(for: client, in: server.root)
        let player = try TestProcess(program, arguments, environment: environment, logDirectory: server.root + "/logs")
        defer { player.stop() }
        try waitUntilReady(player, client, daemon)
        func lines() -> [String] { player.output.split(separator: "\n").map(String.init) }

        let bus = try BusClient(address: server.busAddress!, listening: false)
        let call = try bus.createSession("call").path
        try bus.setCategory(call, "playAndRecord", mode: "voiceChat")
        try bus.setActive(call, true)
        try waitUntil("began (\(lines()))") { lines().contains("began") }
        try bus.setActive(call, false, options: ["notifyOthersOnDeactivation"])
        try waitUntil("ended with shouldResume (\(lines()))") { lines().contains("ended, should resume") }

        let modules = try server.plug(.wiredHeadphones)
        try server.setDefaultSink("headphones")
        try waitUntil("a new device (\(lines()))") { lines().contains("new device, headphones: true") }
        for module in modules { try server.unloadModule(module) }
        try waitUntil("the old device gone (\(lines()))") { lines().contains("old device gone, it was headphones: true") }
        #expect(!lines().contains { $0.hasPrefix("error") }, "\(lines())")

        kill(player.pid, SIGTERM)
        #expect(player.waitUntilExit() == 0, "\(player.output)")
        try waitUntil("the player's session released") {
            !daemon.records.filter { $0["event"] as? String == "session.released" }.compactMap { $0["app"] as? String }
                .filter { $0.hasPrefix("guide-") }.isEmpty
        }
    }

    @Test("the guide's player, started during a call, waits for its turn and is granted it when the call ends",
          arguments: cases)
    func waitsForItsTurn(client: Client, kind: SoundServerKind) throws {
        let server = try SoundServer(kind)
        defer { server.stop() }
        let daemon = try BridgeDaemon(server: server)
        defer { daemon.terminate() }
        let bus = try BusClient(address: server.busAddress!, listening: false)
        let call = try bus.createSession("call").path
        try bus.setCategory(call, "playAndRecord", mode: "voiceChat")
        try bus.setActive(call, true)
        var environment = server.environment
        environment["PYTHONPATH"] = Self.python
        // Watched with stock tools: gdbus for the signal, busctl for the property.
        let monitor = try server.spawn("gdbus", ["monitor", "--address", server.busAddress!, "--dest", BusClient.bridge])
        try waitUntil("gdbus monitor to listen") { monitor.output.contains("Monitoring") }
        func activationState(_ path: String) throws -> String {
            try TestProcess.run("busctl", ["--address=\(server.busAddress!)", "get-property", BusClient.bridge, path,
                                           BusClient.sessionInterface, "ActivationState"], environment: server.environment)
                .output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let (program, arguments) = try command(for: client, in: server.root)
        let player = try TestProcess(program, arguments, environment: environment, logDirectory: server.root + "/logs")
        defer { player.stop() }
        func lines() -> [String] { player.output.split(separator: "\n").map(String.init) }
        try waitUntilReady(player, client, daemon)
        #expect(lines().contains("activation: waiting"), "\(lines())")
        let path = try #require(lines().first { $0.hasPrefix("ready ") }.map { String($0.dropFirst("ready ".count)) })
        #expect(try activationState(path) == "s \"waiting\"")
        try bus.setActive(call, false)
        try waitUntil("activation granted (\(lines()))") { lines().contains("activation granted") }
        try waitUntil("ActivationGranted seen by gdbus monitor") { monitor.output.contains("\(path): io.github.audiosession.Session1.ActivationGranted") }
        #expect(try activationState(path) == "s \"active\"")
        #expect(!lines().contains { $0.hasPrefix("error") }, "\(lines())")
    }

    @Test("the Python module raises the bridge's error names, and MediaServicesFailed with no bridge",
          arguments: SoundServerKind.underTest)
    func pythonErrors(kind: SoundServerKind) throws {
        let server = try SoundServer(kind)
        defer { server.stop() }
        var environment = server.environment
        environment["PYTHONPATH"] = Self.python
        let script = """
            import audiosession
            session = audiosession.AudioSession("errors")
            for attempt in (lambda: session.set_category("loud"),
                            lambda: session.set_category("playback", "voiceChat"),
                            lambda: session.override_output_audio_port("ceiling")):
                try:
                    attempt()
                    print("accepted")
                except audiosession.AudioSessionError as error:
                    print(error.name, "|", error.message)
            """
        func run() throws -> [String] {
            let (status, output) = try TestProcess.run("/usr/bin/python3", ["-c", script], environment: environment)
            #expect(status == 0, "\(output)")
            return output.split(separator: "\n").map(String.init)
        }
        let withoutBridge = try run()
        #expect(withoutBridge.count == 3 && withoutBridge.allSatisfy { $0.hasPrefix("MediaServicesFailed | ") && $0.contains("audiosessiond") },
                "\(withoutBridge)")
        let daemon = try BridgeDaemon(server: server)
        defer { daemon.terminate() }
        let answers = try run()
        #expect(answers.map { $0.components(separatedBy: " | ")[0] } == ["BadParam", "IncompatibleCategory", "BadParam"], "\(answers)")
        #expect(answers.first?.contains("loud") == true, "\(answers)")
    }
}
