// SPDX-License-Identifier: Apache-2.0
// Prefixed helpers for libpulse macros, fixed-size arrays and function-pointer members that Swift
// cannot use directly.
#ifndef CPULSE_SHIM_H
#define CPULSE_SHIM_H
#include <pulse/pulseaudio.h>
#include <pulse/ext-stream-restore.h>

/// PA_INVALID_INDEX.
static inline uint32_t cpulse_invalid_index(void) { return PA_INVALID_INDEX; }
/// PA_VOLUME_NORM.
static inline pa_volume_t cpulse_volume_norm(void) { return PA_VOLUME_NORM; }
/// PA_CHANNELS_MAX.
static inline unsigned cpulse_channels_max(void) { return PA_CHANNELS_MAX; }
/// PA_CONTEXT_IS_GOOD(state).
static inline int cpulse_context_is_good(pa_context_state_t state) { return PA_CONTEXT_IS_GOOD(state); }

/// One channel's value of a pa_cvolume.
static inline pa_volume_t cpulse_cvolume_value(const pa_cvolume *v, unsigned i) { return v->values[i]; }
/// Sets one channel's value of a pa_cvolume.
static inline void cpulse_cvolume_set_value(pa_cvolume *v, unsigned i, pa_volume_t value) { v->values[i] = value; }
/// One position of a pa_channel_map.
static inline pa_channel_position_t cpulse_channel_map_position(const pa_channel_map *m, unsigned i) { return m->map[i]; }

/// mainloop_api->io_new.
static inline pa_io_event *cpulse_io_new(pa_mainloop_api *api, int fd, pa_io_event_flags_t flags,
                                         pa_io_event_cb_t cb, void *userdata) {
    return api->io_new(api, fd, flags, cb, userdata);
}
/// mainloop_api->io_free.
static inline void cpulse_io_free(pa_mainloop_api *api, pa_io_event *e) { api->io_free(e); }
/// mainloop_api->io_enable.
static inline void cpulse_io_enable(pa_mainloop_api *api, pa_io_event *e, pa_io_event_flags_t flags) {
    api->io_enable(e, flags);
}
/// mainloop_api->time_new, `usec` microseconds from now (0: disabled until restarted).
static inline pa_time_event *cpulse_time_new_after(pa_mainloop_api *api, pa_usec_t usec, int enabled,
                                                   pa_time_event_cb_t cb, void *userdata) {
    struct timeval tv;
    pa_gettimeofday(&tv);
    pa_timeval_add(&tv, usec);
    return api->time_new(api, enabled ? &tv : NULL, cb, userdata);
}
/// mainloop_api->time_restart, `usec` microseconds from now, or disabled when `enabled` is 0.
static inline void cpulse_time_restart_after(pa_mainloop_api *api, pa_time_event *e, pa_usec_t usec, int enabled) {
    struct timeval tv;
    pa_gettimeofday(&tv);
    pa_timeval_add(&tv, usec);
    api->time_restart(e, enabled ? &tv : NULL);
}
/// mainloop_api->time_restart with an absolute struct timeval (for callers that keep their own).
static inline void cpulse_time_restart(pa_mainloop_api *api, pa_time_event *e, const struct timeval *tv) {
    api->time_restart(e, tv);
}
/// mainloop_api->time_new with an absolute struct timeval or NULL.
static inline pa_time_event *cpulse_time_new(pa_mainloop_api *api, const struct timeval *tv,
                                             pa_time_event_cb_t cb, void *userdata) {
    return api->time_new(api, tv, cb, userdata);
}
/// mainloop_api->time_free.
static inline void cpulse_time_free(pa_mainloop_api *api, pa_time_event *e) { api->time_free(e); }
/// mainloop_api->defer_new.
static inline pa_defer_event *cpulse_defer_new(pa_mainloop_api *api, pa_defer_event_cb_t cb, void *userdata) {
    return api->defer_new(api, cb, userdata);
}
/// mainloop_api->defer_enable.
static inline void cpulse_defer_enable(pa_mainloop_api *api, pa_defer_event *e, int enabled) {
    api->defer_enable(e, enabled);
}
/// mainloop_api->defer_free.
static inline void cpulse_defer_free(pa_mainloop_api *api, pa_defer_event *e) { api->defer_free(e); }
#endif
