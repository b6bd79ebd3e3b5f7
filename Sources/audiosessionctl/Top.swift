// SPDX-License-Identifier: Apache-2.0
import AudioSessionIPC
import ArgumentParser
import CommandLineSupport
import DBusKit
import Foundation
import Glibc
import TopView

extension AudioSessionControl {
    /// `audiosessionctl top`: what plays now, who silenced what and why, live in the terminal.
    struct Top: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show sessions, streams, devices and the last decisions live, full screen (q quits).",
            discussion: """
                It redraws when the bridge reports an event, and never polls. Level meters show each \
                stream's volume, and, for a stream whose sound the bridge watches, whether it sounds (♪) \
                or is silent (·). With NO_COLOR set it uses no colour.
                """)

        func run() throws {
            guard isatty(STDOUT_FILENO) == 1 else {
                writeToStandardError("audiosessionctl top: standard output is not a terminal; use `audiosessionctl status` for a snapshot or `audiosessionctl monitor` for the records\n")
                throw ExitCode(1)
            }
            let bridge = try BridgeCalls()
            try bridge.connection.addMatch(
                "type='signal',sender='\(BusContract.busName)',interface='\(BusContract.managerInterface)',member='Event'")
            _ = try bridge.call(BusContract.managerPath, BusContract.managerInterface, "WatchEvents", [])
            var view = LiveView(bridge: bridge)
            try view.start()
            let terminal = Terminal()
            defer { terminal.restore() }
            try view.run(terminal)
        }
    }
}

/// The state `top` draws and the loop that keeps it: the bridge's snapshot, asked again after each
/// burst of events, and the last decisions from the records.
struct LiveView {
    let bridge: BridgeCalls
    var snapshot: [String: Any] = [:]
    var decisions: [String] = []
    /// How many of the last decisions are kept for the screen.
    static let keptDecisions = 100
    /// How long after a burst of events the view looks once more.
    static let secondLookDelay = Duration.milliseconds(300)

    init(bridge: BridgeCalls) {
        self.bridge = bridge
    }

    /// The first snapshot and the decisions the bridge kept.
    mutating func start() throws {
        let history = try bridge.call(BusContract.managerPath, BusContract.managerInterface, "EventHistory", [.uint64(0), .uint64(0)])
        decisions = (history.first?.arrayItems ?? []).compactMap { $0.stringValue.flatMap(EventSourceOptions.object) }
            .compactMap(TopScreen.decision).suffix(Self.keptDecisions)
        try refresh()
    }

    mutating func refresh() throws {
        let reply = try bridge.call(BusContract.managerPath, BusContract.managerInterface, "Snapshot", [])
        snapshot = reply.first?.stringValue.flatMap(EventSourceOptions.object) ?? [:]
    }

    /// Waits on the terminal and the bus at once; redraws after the bridge's events and on a resize.
    mutating func run(_ terminal: Terminal) throws {
        let colour = ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
        func draw() {
            let size = terminal.size()
            terminal.draw(TopScreen(snapshot: snapshot, decisions: decisions, columns: size.columns, rows: size.rows, colour: colour).lines())
        }
        draw()
        guard let busDescriptor = bridge.connection.socketDescriptor else { return }
        var received: [String] = []
        bridge.connection.onMessage = { message in
            guard message.member == "Event", let json = message.arguments.first?.stringValue else { return false }
            received.append(json)
            return true
        }
        var drawnSize = terminal.size()
        // A fade the bridge starts ends a moment after its record: one more look once a burst of
        // events is over, then none until the next event.
        var secondLook: ContinuousClock.Instant?
        while bridge.connection.isConnected {
            var descriptors = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: busDescriptor, events: Int16(POLLIN), revents: 0)]
            let wait = secondLook.map { max(Int32(($0 - .now) / .milliseconds(1)), 0) } ?? -1
            let ready = poll(&descriptors, 2, wait)
            if ready < 0 && errno != EINTR { break }
            if ready == 0, secondLook != nil {
                secondLook = nil
                try refresh()
                draw()
            }
            if descriptors[0].revents & Int16(POLLIN) != 0, terminal.quitKeyPressed() { return }
            if descriptors[0].revents & Int16(POLLHUP) != 0 { return }
            // Signals that came in while a call was out are queued already: dispatch until none is left.
            repeat {
                bridge.connection.dispatchPending()
                guard !received.isEmpty else { break }
                decisions.append(contentsOf: received.compactMap { EventSourceOptions.object($0).flatMap(TopScreen.decision) })
                decisions = Array(decisions.suffix(LiveView.keptDecisions))
                received = []
                try refresh()
                draw()
                secondLook = .now + LiveView.secondLookDelay
                drawnSize = terminal.size()
            } while true
            if terminal.size() != drawnSize {
                draw()
                drawnSize = terminal.size()
            }
        }
    }
}

/// The terminal `top` runs in: keys without echo or line buffering, the alternate screen, and its size.
final class Terminal {
    private var saved = termios()
    private let hasInput: Bool

    init() {
        hasInput = isatty(STDIN_FILENO) == 1 && tcgetattr(STDIN_FILENO, &saved) == 0
        if hasInput {
            var raw = saved
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
            withUnsafeMutableBytes(of: &raw.c_cc) { cc in
                cc[Int(VMIN)] = 1
                cc[Int(VTIME)] = 0
            }
            tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        }
        // A resize interrupts poll(), which then redraws.
        signal(SIGWINCH) { _ in }
        write("\u{1B}[?1049h\u{1B}[?25l")
    }

    func restore() {
        write("\u{1B}[?25h\u{1B}[?1049l")
        if hasInput { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
    }

    func size() -> (columns: Int, rows: Int) {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return (80, 24) }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// Reads the keys that arrived; true for `q`, `Q`, Ctrl-C or the end of input.
    func quitKeyPressed() -> Bool {
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = read(STDIN_FILENO, &bytes, bytes.count)
        if count <= 0 { return true }
        return bytes[..<count].contains { $0 == UInt8(ascii: "q") || $0 == UInt8(ascii: "Q") || $0 == 3 }
    }

    /// Draws the whole screen: each row cleared to its end, the rest of the screen cleared.
    func draw(_ lines: [String]) {
        write("\u{1B}[H" + lines.map { $0 + "\u{1B}[K" }.joined(separator: "\r\n") + "\u{1B}[J")
    }

    private func write(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written <= 0 { break }
            offset += written
        }
    }
}
