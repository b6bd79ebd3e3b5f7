// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import AudioSessionModel
import DBusKit

extension BusService {
    /// The session methods about the route and the hardware: the preferences (sample rate, IO buffer,
    /// input), the input gain and the output override.
    func hardwareSessionMethods() -> [String: ExportedMethod] {
        [
            "SetPreferredSampleRate": method("d") { [unowned self] call in
                owned(call) { id, _ in
                    forward(call) { .setPreferredSampleRate($0, id, caller: call.sender, call.arguments[0].doubleValue ?? -1) }
                }
            },
            "SetPreferredIOBufferDuration": method("d") { [unowned self] call in
                owned(call) { id, _ in
                    forward(call) {
                        .setPreferredIOBufferDuration($0, id, caller: call.sender, call.arguments[0].doubleValue ?? -1)
                    }
                }
            },
            "SetPreferredInput": method("s") { [unowned self] call in
                owned(call) { id, _ in
                    forward(call) { .setPreferredInput($0, id, caller: call.sender, uid: call.arguments[0].stringValue ?? "") }
                }
            },
            "SetInputGain": method("d") { [unowned self] call in
                owned(call) { id, _ in
                    forward(call) { .setInputGain($0, id, caller: call.sender, call.arguments[0].doubleValue ?? -1) }
                }
            },
            "OverrideOutputAudioPort": method("s") { [unowned self] call in
                owned(call) { id, _ in
                    guard let port = call.arguments[0].stringValue.flatMap(OutputOverride.init(rawValue:)) else {
                        return Self.fail(.badParam, "unknown port override '\(call.arguments[0].stringValue ?? "")'; expected none or speaker")
                    }
                    return forward(call) { .overrideOutput($0, id, caller: call.sender, port) }
                }
            },
        ]
    }
}
