// SPDX-License-Identifier: Apache-2.0
import AudioSessionSoak
import AudioTestHarness
import Foundation

// `make soak`: the reliability runs of DESIGN §4 on every server stack, each against its own private
// server and bridge, printed as a table (runs, failures, figures). Exits 1 when any run failed.
//
//   audiosession-soak [--cycles-scale F] [--only R1|R2|R3|R4|R5|R6|R7] [--stack pulseaudio|pipewire|pipewire-1.4]

let arguments = CommandLine.arguments
func value(_ flag: String) -> String? {
    arguments.firstIndex(of: flag).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
}
let scale = value("--cycles-scale").flatMap(Double.init) ?? 1
let only = value("--only")
let stacks = value("--stack").flatMap(SoundServerKind.init(rawValue:)).map { [$0] } ?? SoundServerKind.allCases
func cycles(_ full: Int) -> Int { max(1, Int((Double(full) * scale).rounded())) }

let runs: [(String, (SoundServerKind) throws -> SoakResult)] = [
    ("R1", { try SoakRuns.kills($0, cycles: cycles(200)) }),
    ("R2", { try SoakRuns.corkRace($0, cycles: cycles(1000)) }),
    ("R3", { try SoakRuns.serverRestarts($0, cycles: cycles(50)) }),
    ("R4", { try SoakRuns.malformedInput($0, calls: cycles(100_000)) }),
    ("R5", { try SoakRuns.otherPeoplesSessions($0, cycles: cycles(50)) }),
    ("R6", { try SoakRuns.policyEdits($0, cycles: cycles(100)) }),
    ("R7", { try SoakRuns.churn($0, cycles: cycles(1000)) }),
]

print("audiosession soak: \(stacks.map(\.rawValue).joined(separator: ", ")) (this takes a while)\n")
var results: [SoakResult] = []
for (name, run) in runs where only == nil || only == name {
    for stack in stacks {
        let started = ContinuousClock.now
        do {
            results.append(try run(stack))
        } catch {
            results.append(SoakResult(run: name, stack: stack, cycles: 0, failures: ["the run stopped: \(error)"]))
        }
        print("\(name) on \(stack): \(results.last!.failures.count) failures in \(ContinuousClock.now - started)")
    }
}
print("\n" + SoakResult.table(results))
exit(results.contains { !$0.failures.isEmpty || !$0.budgetMisses.isEmpty } ? 1 : 0)
