import AudioPolicy
import DBusKit

/// Pauses and plays the players of policy sessions through MPRIS: the player is the
/// `org.mpris.MediaPlayer2.*` name whose process is the stream's process or one of its ancestors.
final class MPRISController {
    let connection: BusConnection
    static let prefix = "org.mpris.MediaPlayer2."

    init(connection: BusConnection) { self.connection = connection }

    /// Calls `Pause` or `Play` on the player of a process chain, if one is on the bus.
    func send(_ member: String, toPlayerOf chain: [Int32]) {
        guard !chain.isEmpty else { return }
        connection.call(.methodCall(destination: BusDriver.name, path: BusDriver.path, interface: BusDriver.name,
                                    member: "ListNames")) { [connection] result in
            let names = ((try? result.get())?.arguments.first?.stringArray ?? []).filter { $0.hasPrefix(Self.prefix) }
            for name in names {
                BusDriver.processID(of: name, on: connection) { pid in
                    guard let pid, chain.contains(Int32(bitPattern: pid)) else { return }
                    connection.call(.methodCall(destination: name, path: "/org/mpris/MediaPlayer2",
                                                interface: "org.mpris.MediaPlayer2.Player", member: member)) { _ in }
                }
            }
        }
    }
}
