// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A private X display for programs that need one (a browser in a web meeting), ended with the server.
extension SoundServer {
    /// Starts `Xvfb` on a free display number and returns the `DISPLAY` value once it accepts clients.
    public func startDisplay() throws -> String {
        for _ in 0..<20 {
            let number = Int.random(in: 200..<1000)
            let socket = "/tmp/.X11-unix/X\(number)"
            guard !FileManager.default.fileExists(atPath: socket), !FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock")
            else { continue }
            let xvfb = try spawn("Xvfb", [":\(number)", "-screen", "0", "1024x768x24", "-nolisten", "tcp"])
            do {
                try waitUntil("Xvfb :\(number) to accept clients (it printed: \(xvfb.output.suffix(300)))", timeout: .seconds(15)) {
                    guard xvfb.isRunning else { throw HarnessError("Xvfb :\(number) exited: \(xvfb.output.suffix(300))") }
                    return unixSocketAccepts(socket)
                }
                return ":\(number)"
            } catch let error as HarnessError where !xvfb.isRunning {
                _ = error  // another run took the number first: try another
                continue
            }
        }
        throw HarnessError("no free X display for Xvfb")
    }
}
