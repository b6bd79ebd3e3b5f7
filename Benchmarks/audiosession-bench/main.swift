import Foundation

// `make bench`: the performance budget of DESIGN.md §3, measured against private PulseAudio servers
// that the benchmark starts itself, each figure next to a baseline measured in the same run.
//
//   audiosession-bench [--quick] [--only role-cork|calls|scale]
//
// `--quick` takes fewer rounds and a smaller scale, to check that the benchmarks run.

let arguments = CommandLine.arguments
let quick = arguments.contains("--quick")
let only = arguments.firstIndex(of: "--only").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
func wanted(_ name: String) -> Bool { only == nil || only == name }

print("audiosession benchmarks (PulseAudio; a few minutes)\n")
var lines: [ReportLine] = []
do {
    if wanted("role-cork") { lines += try Benchmarks.roleCork(musicStreams: [1, 10], rounds: quick ? 5 : 30) }
    if wanted("calls") { lines += try Benchmarks.routeChangeAndCalls(rounds: quick ? 5 : 30, calls: quick ? 50 : 500) }
    if wanted("scale") {
        lines += try Benchmarks.scale(streams: quick ? 200 : 2000, sessions: quick ? 100 : 1000, events: quick ? 50 : 1000)
    }
} catch {
    ReportLine.print(lines)
    print("\nbenchmark failed: \(error)")
    exit(1)
}
ReportLine.print(lines)
