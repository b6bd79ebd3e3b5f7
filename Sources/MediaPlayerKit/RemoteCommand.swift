// SPDX-License-Identifier: Apache-2.0
import Foundation

/// What a remote command's handler answers (`MPRemoteCommandHandlerStatus`). Over MPRIS, `success`
/// answers the method call and every other status answers with the error named after it.
public enum RemoteCommandHandlerStatus: Int, Sendable {
    /// The command was carried out.
    case success = 0
    /// The content the command asked for is not there.
    case noSuchContent = 100
    /// Nothing plays that the command could act on.
    case noActionableNowPlayingItem = 110
    /// The device the command needs is not there.
    case deviceNotFound = 120
    /// The command failed.
    case commandFailed = 200

    /// The D-Bus error name a failed command answers with.
    var errorName: String? {
        switch self {
        case .success: nil
        case .noSuchContent: MPRISNames.errorPrefix + "NoSuchContent"
        case .noActionableNowPlayingItem: MPRISNames.errorPrefix + "NoActionableNowPlayingItem"
        case .deviceNotFound: MPRISNames.errorPrefix + "DeviceNotFound"
        case .commandFailed: MPRISNames.errorPrefix + "CommandFailed"
        }
    }
}

/// A command as its handler receives it (`MPRemoteCommandEvent`).
public class RemoteCommandEvent: @unchecked Sendable {
    /// The command that was sent.
    public let command: RemoteCommand
    /// When it arrived.
    public let timestamp: Date
    init(command: RemoteCommand) {
        self.command = command
        timestamp = Date()
    }
}

/// A jump to a position (`MPChangePlaybackPositionCommandEvent`).
public final class ChangePlaybackPositionCommandEvent: RemoteCommandEvent, @unchecked Sendable {
    /// Where to play from, in seconds from the start of the item.
    public let positionTime: TimeInterval
    init(command: RemoteCommand, positionTime: TimeInterval) {
        self.positionTime = positionTime
        super.init(command: command)
    }
}

/// A skip forward or backward (`MPSkipIntervalCommandEvent`).
public final class SkipIntervalCommandEvent: RemoteCommandEvent, @unchecked Sendable {
    /// How far to skip, in seconds (always positive; the command says which way).
    public let interval: TimeInterval
    init(command: RemoteCommand, interval: TimeInterval) {
        self.interval = interval
        super.init(command: command)
    }
}

/// A new playback rate (`MPChangePlaybackRateCommandEvent`).
public final class ChangePlaybackRateCommandEvent: RemoteCommandEvent, @unchecked Sendable {
    /// The rate asked for (1 is normal speed).
    public let playbackRate: Float
    init(command: RemoteCommand, playbackRate: Float) {
        self.playbackRate = playbackRate
        super.init(command: command)
    }
}

/// One remote command (`MPRemoteCommand`): offered to the desktop's controls exactly while it is
/// enabled and has at least one target.
public class RemoteCommand: @unchecked Sendable {
    private let lock = NSLock()
    private var targets: [(token: TargetToken, handler: (RemoteCommandEvent) -> RemoteCommandHandlerStatus)] = []
    private var enabled = true
    /// Told when whether the command is offered may have changed.
    var onChange: () -> Void = {}

    init() {}

    /// Whether the command is offered (true by default, as on Apple's platforms).
    public var isEnabled: Bool {
        get { lock.withLock { enabled } }
        set {
            lock.withLock { enabled = newValue }
            onChange()
        }
    }

    /// Adds a handler; the returned token removes it with ``removeTarget(_:)``.
    @discardableResult
    public func addTarget(handler: @escaping (RemoteCommandEvent) -> RemoteCommandHandlerStatus) -> Any {
        let token = TargetToken()
        lock.withLock { targets.append((token, handler)) }
        onChange()
        return token
    }

    /// Removes a handler added by ``addTarget(handler:)`` (its token), or every handler (nil).
    public func removeTarget(_ target: Any?) {
        lock.withLock {
            if let token = target as? TargetToken { targets.removeAll { $0.token === token } } else { targets.removeAll() }
        }
        onChange()
    }

    /// Whether the command is enabled and has a target.
    var isOffered: Bool { lock.withLock { enabled && !targets.isEmpty } }

    /// Runs every handler in the order they were added and answers with the last one's status;
    /// `commandFailed` when there is none.
    func run(_ event: RemoteCommandEvent) -> RemoteCommandHandlerStatus {
        let handlers = lock.withLock { targets.map(\.handler) }
        return handlers.map { $0(event) }.last ?? .commandFailed
    }

    /// The plain event of this command.
    func makeEvent() -> RemoteCommandEvent { RemoteCommandEvent(command: self) }
}

/// The token ``RemoteCommand/addTarget(handler:)`` returns.
final class TargetToken: @unchecked Sendable {}

/// A skip command with its preferred intervals (`MPSkipIntervalCommand`).
public final class SkipIntervalCommand: RemoteCommand, @unchecked Sendable {
    /// The intervals the app prefers, in seconds (the first is used for a plain skip).
    public var preferredIntervals: [NSNumber] = [15]
}

/// A rate command with the rates it supports (`MPChangePlaybackRateCommand`).
public final class ChangePlaybackRateCommand: RemoteCommand, @unchecked Sendable {
    /// The rates offered; MPRIS reports their minimum and maximum.
    public var supportedPlaybackRates: [NSNumber] = [1]
}
