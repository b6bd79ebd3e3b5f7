// SPDX-License-Identifier: Apache-2.0

/// What the bridge reads from the system about a stream's or client's process: the process and its
/// ancestors, and the Flatpak app whose sandbox it runs in. The sandbox is read only for a process id
/// the server vouches for (PipeWire's `pipewire.sec.pid`), never for one a client declares.
struct ProcessFacts {
    var pid: Int32?
    var chain: [Int32] = []
    var sandboxAppID: String?

    /// The facts of the process a stream's or client's properties name.
    static func read(_ properties: [String: String]) -> ProcessFacts {
        guard let pid = ServerTranslation.processID(properties) else { return ProcessFacts() }
        let vouched = properties["pipewire.sec.pid"] != nil
        return ProcessFacts(pid: pid, chain: ProcessAncestry.chain(of: pid),
                            sandboxAppID: vouched ? SandboxIdentity.flatpakID(ofProcess: pid) : nil)
    }
}
