// SPDX-License-Identifier: Apache-2.0
import Foundation

/// What a file holds so far, or "" when it does not exist (yet): logs that a process is still writing.
public func textSoFar(_ path: String) -> String {
    (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
}

/// The JSON objects of a JSON Lines text (an event log, a monitor's output); lines that are not one are skipped.
public func jsonLines(_ text: String) -> [[String: Any]] {
    text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
}
