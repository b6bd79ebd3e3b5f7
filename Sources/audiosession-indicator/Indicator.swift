// SPDX-License-Identifier: Apache-2.0
import AudioSessionIPC
import CMalloc
import CommandLineSupport
import DBusKit
import Foundation
import IndicatorModel

/// The indicator: a client of the bridge that shows its state as a status item with a menu. It
/// follows the bridge's signals and its owner on the bus, reads a `Snapshot` after each burst of
/// them, and otherwise sleeps: no timer, no polling.
final class Indicator {
    let connection: BusConnection
    private let objects: ObjectServer
    private var item: StatusNotifierItem!
    private var menu: DBusMenu!
    private let policyFolder: String
    /// The name the item is known by: `org.kde.StatusNotifierItem-PID-1`.
    let itemName = "org.kde.StatusNotifierItem-\(getpid())-1"
    private var bridgeRunning = false
    /// The last fault to tell the user, until the next thing they do.
    private var notice: String?
    private var state = BridgeState()
    /// Something changed since the last snapshot was read.
    private var stale = true

    init(connection: BusConnection, policyFolder: String) {
        self.connection = connection
        self.policyFolder = policyFolder
        objects = ObjectServer(connection: connection)
    }

    /// Watches the bridge and the panel's watcher, serves the item and the menu, and registers.
    func start() throws {
        for name in [BusContract.busName, StatusNotifierItem.watcherName] {
            try connection.addMatch(BusDriver.nameOwnerChangedRule + ",arg0='\(name)'")
        }
        try connection.addMatch("type='signal',sender='\(BusContract.busName)'")
        item = StatusNotifierItem(objects: objects, showing: .bridgeNotRunning())
        menu = DBusMenu(objects: objects) { [unowned self] command in perform(command) }
        objects.export(path: StatusNotifierItem.path, interfaces: [item.interface()])
        objects.export(path: DBusMenu.path, interfaces: [menu.interface()])
        objects.onOtherMessage = { [unowned self] message in heard(message) }
        guard try connection.requestName(itemName) else { throw BusError.failed("\(itemName) is taken") }
        bridgeCameBack(hasOwner(BusContract.busName))
        registerWithWatcher()
    }

    /// Serves until the bus goes: what came, then a snapshot if something changed, then sleep.
    func run() {
        while connection.isConnected {
            connection.dispatchPending()
            if stale {
                refresh()
                continue
            }
            connection.dispatchPending(waitingUpTo: .seconds(3600))
        }
    }

    private func heard(_ message: BusMessage) -> Bool {
        if let change = BusDriver.nameOwnerChange(message) {
            switch change.name {
            case BusContract.busName: bridgeCameBack(!change.newOwner.isEmpty)
            case StatusNotifierItem.watcherName where !change.newOwner.isEmpty: registerWithWatcher()
            default: return false
            }
            return true
        }
        guard message.kind == .signal, message.sender != nil, message.interface?.hasPrefix("io.github.audiosession") == true
            || message.interface == "org.freedesktop.DBus.Properties"
        else { return false }
        stale = true
        return true
    }

    private func bridgeCameBack(_ running: Bool) {
        bridgeRunning = running
        if running {
            // The bridge sends its event records to the connections that asked for them.
            do { _ = try call(BusContract.managerPath, BusContract.managerInterface, "WatchEvents") } catch {
                log("cannot follow the bridge's events: \(error)")
            }
        } else {
            log("audiosessiond is not running; waiting for it")
        }
        stale = true
    }

    private func hasOwner(_ name: String) -> Bool {
        let reply = try? call(BusDriver.path, BusDriver.name, "NameHasOwner", [.string(name)], destination: BusDriver.name)
        return reply?.first?.boolValue ?? false
    }

    private func registerWithWatcher() {
        do {
            _ = try call(StatusNotifierItem.watcherPath, StatusNotifierItem.watcherName, "RegisterStatusNotifierItem",
                         [.string(itemName)], destination: StatusNotifierItem.watcherName)
            log("registered with \(StatusNotifierItem.watcherName) as \(itemName)")
        } catch {
            log("no panel shows status items yet (\(StatusNotifierItem.watcherName): \(error)); waiting for one")
        }
    }

    /// Reads the bridge's state and shows it.
    private func refresh() {
        stale = false
        let presentation: Presentation
        if bridgeRunning, let json = try? call(BusContract.managerPath, BusContract.managerInterface, "Snapshot").first?.stringValue,
            let snapshot = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        {
            state = BridgeState(snapshot: snapshot)
            for index in state.apps.indices {
                guard let file = try? TreatAsFile.fileName(for: state.apps[index].name),
                    let text = try? String(contentsOfFile: policyFolder + "/" + file, encoding: .utf8)
                else { continue }
                state.apps[index].treatedAs = TreatAsFile.chosenPolicy(in: text)
            }
            presentation = Presentation(state, notice: notice)
        } else {
            presentation = .bridgeNotRunning(notice: notice)
        }
        item.show(presentation)
        menu.show(presentation.menu)
        // The snapshot of a busy bridge is large and read once per burst; give its memory back to the
        // system rather than keep it in the allocator's free lists while the indicator sleeps.
        malloc_trim(0)
    }

    // MARK: What the menu does

    private func perform(_ command: MenuCommand) {
        notice = nil
        do {
            switch command {
            case .setSilentMode(let on):
                _ = try call(BusContract.managerPath, "org.freedesktop.DBus.Properties", "Set",
                             [.string(BusContract.managerInterface), .string("SilentMode"), .variant(.bool(on))])
            case .treatAs(let app, let policy): try treat(app, as: policy)
            case .asDetected(let app): try removeTreatment(of: app)
            case .showTimeline: try showTimeline()
            }
        } catch {
            notice = "\(error)"
            log("\(command): \(error)")
        }
        stale = true
    }

    private func treat(_ app: String, as policy: String) throws {
        let path = policyFolder + "/" + (try TreatAsFile.fileName(for: app))
        try TreatAsFile.check(existing: try? String(contentsOfFile: path, encoding: .utf8), name: path)
        do {
            try FileManager.default.createDirectory(atPath: policyFolder, withIntermediateDirectories: true)
            try TreatAsFile.text(app: app, policy: policy).write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw Fault("cannot write \(path): \(error.localizedDescription)")
        }
        log("\(app) is treated as \(policy) (\(path))")
    }

    private func removeTreatment(of app: String) throws {
        let path = policyFolder + "/" + (try TreatAsFile.fileName(for: app))
        guard let existing = try? String(contentsOfFile: path, encoding: .utf8) else { return }
        try TreatAsFile.check(existing: existing, name: path)
        do { try FileManager.default.removeItem(atPath: path) } catch {
            throw Fault("cannot remove \(path): \(error.localizedDescription)")
        }
        log("\(app) is governed as detected again (\(path) removed)")
    }

    /// Draws the last ten minutes with `audiosessionctl timeline` and opens the picture.
    private func showTimeline() throws {
        let folder = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"] ?? NSTemporaryDirectory()
        let picture = folder + "/audiosession-timeline.svg"
        let control = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("audiosessionctl").path
        let draw = Process()
        draw.executableURL = URL(fileURLWithPath: FileManager.default.isExecutableFile(atPath: control) ? control : "/usr/bin/env")
        draw.arguments = (draw.executableURL?.path == control ? [] : ["audiosessionctl"]) + ["timeline", "--since", "10m", "-o", picture]
        do { try draw.run() } catch { throw Fault("cannot run audiosessionctl timeline: \(error.localizedDescription)") }
        draw.waitUntilExit()
        guard draw.terminationStatus == 0 else { throw Fault("audiosessionctl timeline failed (exit \(draw.terminationStatus))") }
        let open = Process()
        open.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        open.arguments = ["xdg-open", picture]
        do { try open.run() } catch { throw Fault("cannot open \(picture): \(error.localizedDescription)") }
    }

    // MARK: Calls

    private func call(_ path: String, _ interface: String, _ member: String, _ arguments: [BusValue] = [],
                      destination: String = BusContract.busName) throws -> [BusValue] {
        try connection.call(.methodCall(destination: destination, path: path, interface: interface, member: member, arguments),
                            timeout: .seconds(5)).arguments
    }

    private func log(_ text: String) { writeToStandardError("audiosession-indicator: \(text)\n") }
}

/// A fault to tell the user, in words.
struct Fault: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
