// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The app's remote commands (`MPRemoteCommandCenter`): the desktop's media keys, lock screen, panel
/// controls and `playerctl` send them through the app's MPRIS player.
public final class RemoteCommandCenter: @unchecked Sendable {
    /// Play (MPRIS `Play`).
    public let playCommand = RemoteCommand()
    /// Pause (MPRIS `Pause`).
    public let pauseCommand = RemoteCommand()
    /// Play or pause (MPRIS `PlayPause`).
    public let togglePlayPauseCommand = RemoteCommand()
    /// Stop (MPRIS `Stop`).
    public let stopCommand = RemoteCommand()
    /// The next item (MPRIS `Next`).
    public let nextTrackCommand = RemoteCommand()
    /// The previous item (MPRIS `Previous`).
    public let previousTrackCommand = RemoteCommand()
    /// Skip forward by its interval (MPRIS `Seek` with a positive offset).
    public let skipForwardCommand = SkipIntervalCommand()
    /// Skip back by its interval (MPRIS `Seek` with a negative offset).
    public let skipBackwardCommand = SkipIntervalCommand()
    /// Go to a position (MPRIS `SetPosition`); the event carries it.
    public let changePlaybackPositionCommand = RemoteCommand()
    /// Change the playback rate (MPRIS `Rate`).
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
