// SPDX-License-Identifier: Apache-2.0
@testable import AudioTestHarness
import Testing

/// How the harness reads `pw-dump`: one array, or, when the graph changed while pw-dump read it, the
/// arrays of changes it prints after the first, applied in order (seen with PipeWire 0.3.65 while
/// WirePlumber restarted).
@Suite("pw-dump's output as the harness reads it")
struct PipeWireDumpTests {
    private static let first = """
        [
          {
            "id": 0,
            "type": "PipeWire:Interface:Core"
          },
          {
            "id": 34,
            "type": "PipeWire:Interface:Client"
          }
        ]

        """

    private func ids(_ output: String) -> [Int]? {
        SoundServer.graph(dumpedAs: output)?.compactMap { $0["id"] as? Int }
    }

    @Test("one array is the graph")
    func oneArray() {
        #expect(ids(Self.first) == [0, 34])
    }

    @Test("a later array's null info removes its object, a whole object is added or replaces its own")
    func laterArrays() throws {
        let removed = Self.first + "[\n  {\n    \"id\": 34,\n    \"info\": null\n  }\n]\n"
        #expect(ids(removed) == [0])
        let added = removed + "[\n  {\n    \"id\": 40,\n    \"type\": \"PipeWire:Interface:Client\"\n  },\n"
            + "  {\n    \"id\": 34,\n    \"type\": \"PipeWire:Interface:Metadata\"\n  }\n]\n"
        #expect(ids(added) == [0, 34, 40])
        let graph = try #require(SoundServer.graph(dumpedAs: added))
        #expect(graph[1]["type"] as? String == "PipeWire:Interface:Metadata")
    }

    @Test("what is not pw-dump's arrays is no graph", arguments: ["", "pw-dump: error\n", "[\n  {\n", "[\n]\nnot json\n"])
    func notArrays(output: String) {
        #expect(SoundServer.graph(dumpedAs: output) == nil)
    }
}
