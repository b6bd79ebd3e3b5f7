// SPDX-License-Identifier: Apache-2.0
@testable import AudioSessionDaemon
import PulseAudioClient
import Testing

/// The order of the adapter's queries, commands and the server's removals on its one connection.
@Suite("The order of queries, commands and removals")
struct QueryOrderTests {
    @Test("an answer to a query sent before a command to its stream's levels is older than the command")
    func answerOlderThanCommand() {
        var order = QueryOrder()
        let asked = order.querySent()
        order.commandSent(.sinkInput, 7)
        #expect(order.commandFollowed(.sinkInput, 7, askedAt: asked))
        #expect(!order.commandFollowed(.sinkInput, 8, askedAt: asked), "another stream's command")
        #expect(!order.commandFollowed(.sourceOutput, 7, askedAt: asked), "another facility's object")
        let askedAgain = order.querySent()
        #expect(!order.commandFollowed(.sinkInput, 7, askedAt: askedAgain), "a query sent after the command")
    }

    @Test("commands are forgotten once no query is out, and with their stream")
    func commandsAreForgotten() {
        var order = QueryOrder()
        order.commandSent(.sinkInput, 7)  // no query out: nothing can be older
        let asked = order.querySent()
        #expect(!order.commandFollowed(.sinkInput, 7, askedAt: asked))
        order.commandSent(.sinkInput, 7)
        order.removed(.sinkInput, 7)
        #expect(!order.commandFollowed(.sinkInput, 7, askedAt: asked), "the stream was removed")
        order.commandSent(.sinkInput, 9)
        order.queryAnswered(asked)
        let next = order.querySent()
        #expect(!order.commandFollowed(.sinkInput, 9, askedAt: asked), "forgotten when the last query was answered")
        #expect(!order.commandFollowed(.sinkInput, 9, askedAt: next))
    }
}
