// SPDX-License-Identifier: Apache-2.0
/// Where a session stands on activation: the `ActivationState` property, and the answer of
/// `RequestActivation` (DESIGN §2, *Waiting for a turn*).
public enum ActivationState: String, CaseIterable, Hashable, Sendable {
    /// Not active, and not waiting.
    case inactive
    /// Active.
    case active
    /// Waiting for its turn: it asked with `RequestActivation` while a session of higher priority (a
    /// call) was active, and becomes active by itself when that ends.
    case waiting
}
