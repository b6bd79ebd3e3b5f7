// SPDX-License-Identifier: Apache-2.0
import Foundation
import PulseAudioClient

extension StreamProbe {
    /// Stops a call that nothing acted on within its wait (`error`), and says why: ``CallNeverPlayed``
    /// when the server never started its stream (it reported none of `app`'s, or only paused), which no
    /// silencer acts on (PipeWire 0.3 at a hundred streams now and then fails to map a new stream's
    /// memory: `client_node_set_io: No such file or directory`); else `error` itself.
    ///
    /// Every stream of `app` the server still reports is ended on the server too, and the call is
    /// stopped only once the probe's view shows none: a stream the server announced but never answered
    /// its client for is not deleted by the client's disconnect (``stop(_:)`` waits for an answer that
    /// never comes), and would stay on the server through every later round.
    func stopUnansweredCall(_ call: Int, app: String, after error: Error) throws -> Error {
        let ofTheCall = { (streams: [UInt32: PulseStream]) in streams.values.filter { $0.properties["application.name"] == app } }
        let reported = ofTheCall(streams)
        stop(call)
        for stream in reported { kill(stream.index) }
        _ = try stamp("the unanswered call's stream ended", when: { ofTheCall($0).isEmpty })
        guard !reported.isEmpty else { return CallNeverPlayed(description: "\(error); the call's stream was never reported") }
        return reported.allSatisfy { $0.corked } ? CallNeverPlayed(description: "\(error); the call's stream stayed paused") : error
    }
}

/// A call whose stream the server never started (``StreamProbe/stopUnansweredCall(_:app:after:)``):
/// not a measurement of a silencer; the call is made again, at most ``retakes`` times.
struct CallNeverPlayed: Error, CustomStringConvertible {
    var description: String
    static let retakes = 2
}
