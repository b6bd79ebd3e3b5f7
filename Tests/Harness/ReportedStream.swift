// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A sink-input or source-output as `pactl --format=json` reports it.
public struct ReportedStream: Sendable {
    public var index: UInt32
    public var app: String
    public var mute: Bool
    public var corked: Bool
    /// Raw volume per channel name.
    public var volume: [String: UInt32]
    /// The sink or source index.
    public var device: UInt32
    public var properties: [String: String]

    public init?(_ json: [String: Any]) {
        guard let index = json["index"] as? Int else { return nil }
        self.index = UInt32(index)
        properties = (json["properties"] as? [String: Any] ?? [:]).compactMapValues { $0 as? String }
        app = properties["application.name"] ?? ""
        mute = json["mute"] as? Bool ?? false
        corked = json["corked"] as? Bool ?? false
        device = UInt32(json["sink"] as? Int ?? json["source"] as? Int ?? -1)
        volume = (json["volume"] as? [String: Any] ?? [:]).compactMapValues {
            (($0 as? [String: Any])?["value"] as? Int).map { UInt32($0) }
        }
    }
}
