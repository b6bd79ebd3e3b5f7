// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import Glibc
@testable import PulseAudioClient
import Testing

/// A context without shared memory is made while `PULSE_CLIENTCONFIG` names the bridge's configuration.
/// That variable belongs to the whole process: a test process runs many bridges' connections at once,
/// and every program a process starts copies its environment.
@Suite("Contexts without shared memory, and the process's environment")
struct NoSharedMemoryConfigurationTests {
    /// The variable as it is outside the moment a context is made (other suites make contexts too).
    static func variable() -> String? {
        NoSharedMemoryConfiguration.settingVariable.withLock { _ in getenv("PULSE_CLIENTCONFIG").map { String(cString: $0) } }
    }

    /// Two threads that each set the variable and put back what they found could leave it set for good:
    /// the second found the first one's value and put it back last. Every program the process started
    /// after that read its own descriptor of that number as its libpulse configuration.
    @Test("contexts made without shared memory on many threads at once leave the environment as it was")
    func environmentPutBack() throws {
        let before = Self.variable()
        let threads = 4, contextsEach = 300
        let failures = Recorder<String>()
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            do {
                let loop = try PulseLoop()
                for _ in 0..<contextsEach { _ = try PulseContext(loop: loop, name: "environment-test", sharedMemory: false) }
            } catch {
                failures.append("\(error)")
            }
        }
        #expect(failures.items.isEmpty)
        #expect(Self.variable() == before)
    }

    /// A program started while the variable is set inherits it. The name must then still lead to the
    /// bridge's configuration: a `/proc/self/fd` name would lead to the program's own descriptor of that
    /// number, and headless Firefox, reading a pipe there, never opened its microphone.
    @Test("while it is set, the variable names the configuration for another process too")
    func nameReadableElsewhere() throws {
        let name = NoSharedMemoryConfiguration.applying { getenv("PULSE_CLIENTCONFIG").map { String(cString: $0) } }
        let value = try #require(name)
        let (status, output) = try TestProcess.run("/bin/cat", [value], environment: ProcessInfo.processInfo.environment)
        #expect(status == 0, "cat \(value): \(output)")
        #expect(output.contains("enable-shm = no"), "cat \(value): \(output)")
    }
}
