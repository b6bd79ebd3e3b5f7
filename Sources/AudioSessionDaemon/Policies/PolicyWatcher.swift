// SPDX-License-Identifier: Apache-2.0
import PulseAudioClient

/// Watches the policy folders and calls `changed` (on the loop thread) once edits have settled for
/// 200 ms, so that an editor's several writes make one reload.
final class PolicyWatcher {
    /// How long edits must have settled before a reload: an editor saves in several writes.
    static let settleTime = Duration.milliseconds(200)
    private let watch: FolderWatch
    private let settle: PulseTimer

    init?(loop: PulseLoop, folders: [String], changed: @escaping () -> Void) {
        let settle = PulseTimer(loop: loop, changed)
        guard let watch = FolderWatch(loop: loop, folders: folders, changed: { settle.arm(after: Self.settleTime) }) else {
            return nil
        }
        self.settle = settle
        self.watch = watch
    }
}
