// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

@testable import AudioSessionDaemon

/// The event log and snapshots are always valid JSON, whatever numbers a caller sent.
@Suite("JSON values")
struct JSONValueTests {
    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func numbersJSONCannotHoldAreNull(_ number: Double) throws {
        let text = JSONValue.object([("volume", .number(number)), ("ok", .number(0.5))]).serialized
        #expect(text == #"{"volume":null,"ok":0.5}"#)
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        #expect(parsed?["volume"] is NSNull)
    }
}
