// SPDX-License-Identifier: Apache-2.0
import AudioSessionSoak
import AudioTestHarness
import ServerTestTraits
import Testing

/// The short versions of `make soak`'s runs: a few cycles of each, on every server stack, with no
/// failure. The figures are `make soak`'s to print, not this test's to judge.
@Suite("Soak, short", .serialized, .threadOfItsOwn)
struct ShortSoakTests {
    static func expectNoFailures(_ result: SoakResult) {
        #expect(result.failures.isEmpty, "\(result.run) on \(result.stack): \(result.failures.joined(separator: "; "))")
    }

    @Test("R1: the bridge killed while it ducks and mutes leaves nothing behind", arguments: SoundServerKind.underTest)
    func kills(kind: SoundServerKind) throws { Self.expectNoFailures(try SoakRuns.kills(kind, cycles: 4)) }

    @Test("R2: short calls next to music never leave it silenced", arguments: SoundServerKind.underTest)
    func corkRace(kind: SoundServerKind) throws { Self.expectNoFailures(try SoakRuns.corkRace(kind, cycles: 40)) }

    @Test("R3: sound-server restarts reach a client as Lost then Reset", arguments: SoundServerKind.underTest)
    func serverRestarts(kind: SoundServerKind) throws { Self.expectNoFailures(try SoakRuns.serverRestarts(kind, cycles: 2)) }

    @Test("R4: malformed calls from vanishing connections are all answered and leave no session", arguments: SoundServerKind.underTest)
    func malformedInput(kind: SoundServerKind) throws { Self.expectNoFailures(try SoakRuns.malformedInput(kind, calls: 2000)) }

    @Test("R5: other people's sessions are AccessDenied; an owner's death undoes its effects", arguments: SoundServerKind.underTest)
    func otherPeoplesSessions(kind: SoundServerKind) throws {
        Self.expectNoFailures(try SoakRuns.otherPeoplesSessions(kind, cycles: 2))
    }

    @Test("R6: broken policy edits are reported and the last good set stays", arguments: SoundServerKind.underTest)
    func policyEdits(kind: SoundServerKind) throws { Self.expectNoFailures(try SoakRuns.policyEdits(kind, cycles: 5)) }

    @Test("R7: after streams and devices churn, the bridge's view equals the server's", arguments: SoundServerKind.underTest)
    func churn(kind: SoundServerKind) throws { Self.expectNoFailures(try SoakRuns.churn(kind, cycles: 3)) }
}
