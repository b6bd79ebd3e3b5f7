// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The app's remote commands (`MPRemoteCommandCenter`): the desktop's media keys, lock screen, panel
/// controls and `playerctl` send them through the app's MPRIS player.
public final class RemoteCommandCenter: @unchecked Sendable {
    public let playCommand = RemoteCommand()
    public let pauseCommand = RemoteCommand()
    public let togglePlayPauseCommand = RemoteCommand()
    public let stopCommand = RemoteCommand()
    public let nextTrackCommand = RemoteCommand()
    public let previousTrackCommand = RemoteCommand()
    public let skipForwardCommand = SkipIntervalCommand()
    public let skipBackwardCommand = SkipIntervalCommand()
    public let changePlaybackPositionCommand = RemoteCommand()
    public let changePlaybackRateCommand = ChangePlaybackRateCommand()

    /// Where handlers run: the main queue by default, as on Apple's platforms (an app that does not run
    /// its main queue sets another).
    public var handlerQueue: DispatchQueue = .main

    /// The shared center of the app's player on the session bus.
    public static func shared() -> RemoteCommandCenter { MPRISPlayer.shared.commandCenter }

    /// Told when any command's offer may have changed.
    var onChange: () -> Void = {}

    init() {
        for command in allCommands { command.onChange = { [unowned self] in onChange() } }
    }

    var allCommands: [RemoteCommand] {
        [playCommand, pauseCommand, togglePlayPauseCommand, stopCommand, nextTrackCommand, previousTrackCommand,
         skipForwardCommand, skipBackwardCommand, changePlaybackPositionCommand, changePlaybackRateCommand]
    }

    /// Which commands are offered now.
    var offers: RemoteCommandOffers {
        RemoteCommandOffers(
            play: playCommand.isOffered, pause: pauseCommand.isOffered, togglePlayPause: togglePlayPauseCommand.isOffered,
            stop: stopCommand.isOffered, next: nextTrackCommand.isOffered, previous: previousTrackCommand.isOffered,
            skipForward: skipForwardCommand.isOffered, skipBackward: skipBackwardCommand.isOffered,
            changePosition: changePlaybackPositionCommand.isOffered, changeRate: changePlaybackRateCommand.isOffered,
            rates: changePlaybackRateCommand.supportedPlaybackRates.map(\.doubleValue))
    }
}
