// SPDX-License-Identifier: Apache-2.0
import Foundation

/// `MPMediaItemPropertyTitle` and its siblings: keys of ``NowPlayingInfoCenter/nowPlayingInfo``.
/// The item's title (a `String`).
public let MediaItemPropertyTitle = "title"
/// The item's artist (a `String`).
public let MediaItemPropertyArtist = "artist"
/// The item's album (a `String`).
public let MediaItemPropertyAlbumTitle = "albumTitle"
/// The item's length in seconds (`NSNumber` or `Double`).
public let MediaItemPropertyPlaybackDuration = "playbackDuration"
/// A ``MediaItemArtwork``.
public let MediaItemPropertyArtwork = "artwork"
/// Seconds played when the info was set; the position advances from there at the playback rate.
public let NowPlayingInfoPropertyElapsedPlaybackTime = "MPNowPlayingInfoPropertyElapsedPlaybackTime"
/// The playback rate (1 normal, 0 paused).
public let NowPlayingInfoPropertyPlaybackRate = "MPNowPlayingInfoPropertyPlaybackRate"

/// Where playback stands (`MPNowPlayingPlaybackState`); MPRIS shows it as `PlaybackStatus`.
public enum NowPlayingPlaybackState: UInt, Sendable {
    /// Not said yet.
    case unknown = 0
    /// Playing.
    case playing
    /// Paused by the user or the app.
    case paused
    /// Stopped: nothing to resume.
    case stopped
    /// Paused by an interruption (MPRIS shows it as Paused).
    case interrupted
}

/// An item's picture (`MPMediaItemArtwork`): an image file, PNG or JPEG data, or a handler that
/// returns such data. MPRIS gives it to the desktop as a file URL (`mpris:artUrl`).
public final class MediaItemArtwork: @unchecked Sendable {
    /// The size of the image, as the app gave it.
    public let bounds: CGSize
    let source: Source

    enum Source {
        case file(URL)
        case data(Data)
        case handler((CGSize) -> Data?)
    }

    /// Artwork from an image file (PNG or JPEG).
    public init(contentsOf url: URL) {
        bounds = .zero
        source = .file(url)
    }

    /// Artwork from PNG or JPEG data.
    public init(data: Data) {
        bounds = .zero
        source = .data(data)
    }

    /// Artwork whose data the handler returns for a size (Apple's `boundsSize:requestHandler:`,
    /// returning image data instead of a `UIImage`).
    public init(boundsSize: CGSize, requestHandler: @escaping (CGSize) -> Data?) {
        bounds = boundsSize
        source = .handler(requestHandler)
    }
}

/// What the app is playing (`MPNowPlayingInfoCenter`), published as the MPRIS player's `Metadata`,
/// `Position`, `Rate` and `PlaybackStatus`.
public final class NowPlayingInfoCenter: @unchecked Sendable {
    private let lock = NSLock()
    private var info: [String: Any]?
    private var state: NowPlayingPlaybackState = .unknown
    private var infoSetAt = Date()
    /// Told after every change.
    var onChange: () -> Void = {}

    init() {}

    /// The shared center of the app's player on the session bus.
    public static func `default`() -> NowPlayingInfoCenter { MPRISPlayer.shared.nowPlayingInfoCenter }

    /// The current item's properties (keys such as ``MediaItemPropertyTitle``), or nil when nothing plays.
    public var nowPlayingInfo: [String: Any]? {
        get { lock.withLock { info } }
        set {
            lock.withLock {
                info = newValue
                infoSetAt = Date()
            }
            onChange()
        }
    }

    /// Whether the app is playing, paused, stopped or interrupted.
    public var playbackState: NowPlayingPlaybackState {
        get { lock.withLock { state } }
        set {
            lock.withLock { state = newValue }
            onChange()
        }
    }

    /// The info as plain values, with when it was set.
    var snapshot: NowPlaying {
        lock.withLock { NowPlaying(info: info, state: state, setAt: infoSetAt) }
    }
}
