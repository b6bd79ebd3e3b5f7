// Prefixed helpers for libpulse macros that Swift cannot import.
#ifndef CPULSE_SHIM_H
#define CPULSE_SHIM_H
#include <pulse/pulseaudio.h>
#include <pulse/ext-stream-restore.h>

/// PA_INVALID_INDEX.
static inline uint32_t cpulse_invalid_index(void) { return PA_INVALID_INDEX; }
/// PA_VOLUME_NORM.
static inline pa_volume_t cpulse_volume_norm(void) { return PA_VOLUME_NORM; }
/// PA_VOLUME_MUTED.
static inline pa_volume_t cpulse_volume_muted(void) { return PA_VOLUME_MUTED; }
/// PA_CONTEXT_IS_GOOD(state).
static inline int cpulse_context_is_good(pa_context_state_t state) { return PA_CONTEXT_IS_GOOD(state); }
#endif
