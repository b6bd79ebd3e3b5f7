// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import DBusKit

/// Pauses and plays sessions' players through MPRIS: an explicit session's registered player; for a
/// policy session the `org.mpris.MediaPlayer2.*` name whose process (from the bus) is the stream's
/// process or one of its ancestors, failing that, for a Flatpak app, the name that carries the app
/// id's last part (`com.spotify.Client` → `org.mpris.MediaPlayer2.spotify`).
final class MPRISController {
    let connection: BusConnection
    static let prefix = "org.mpris.MediaPlayer2."

    init(connection: BusConnection) { self.connection = connection }

    /// The player of a session, if it is on the bus: calls `member` (`Pause` or `Play`) on it. An
    /// explicit session's player is the one it registered.
    func send(_ member: String, toPlayerOf session: Session) {
        if let registered = session.nowPlayingPlayer { return call(member, on: registered) }
        let chain = session.processChain
        let flatpakHint = session.appID.contains(".") ? session.appID.split(separator: ".").last.map { $0.lowercased() } : nil
        connection.call(.methodCall(destination: BusDriver.name, path: BusDriver.path, interface: BusDriver.name,
                                    member: "ListNames")) { [self] result in
            let names = ((try? result.get())?.arguments.first?.stringArray ?? []).filter { $0.hasPrefix(Self.prefix) }
            guard !names.isEmpty else { return }
            var pending = names.count
            var byProcess: String?
            for name in names {
                BusDriver.processID(of: name, on: connection) { [self] pid in
                    if let pid, chain.contains(Int32(bitPattern: pid)), byProcess == nil { byProcess = name }
                    pending -= 1
                    guard pending == 0 else { return }
                    let byFlatpak = flatpakHint.flatMap { hint in
                        names.first { $0.dropFirst(Self.prefix.count).lowercased().hasPrefix(hint) }
                    }
                    guard let player = byProcess ?? byFlatpak else { return }
                    call(member, on: player)
                }
            }
        }
    }

    private func call(_ member: String, on player: String) {
        connection.call(.methodCall(destination: player, path: "/org/mpris/MediaPlayer2",
                                    interface: "org.mpris.MediaPlayer2.Player", member: member)) { _ in }
    }
}
