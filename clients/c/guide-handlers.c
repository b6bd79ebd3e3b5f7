// SPDX-License-Identifier: Apache-2.0
// The interruption and route-change handlers of Apple's audio-session guide, in C on GDBus.
//
// A music player: it asks the audiosession bridge for a playback session, activates it (during a call
// it waits for its turn instead of failing), and prints what happens to it, one line per signal, until
// SIGTERM or SIGINT.
// Usage: guide-handlers [APP_ID]     Build: make -C clients/c

#include <gio/gio.h>
#include <glib-unix.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#define BRIDGE_NAME "io.github.audiosession.Bridge1"
#define BRIDGE_PATH "/io/github/audiosession/Bridge1"
#define SESSION_INTERFACE "io.github.audiosession.Session1"

// Apple's raw values, as AVAudioSession's enums have them.
typedef enum { INTERRUPTION_ENDED = 0, INTERRUPTION_BEGAN = 1 } InterruptionType;
typedef enum { INTERRUPTION_OPTION_SHOULD_RESUME = 1 } InterruptionOptions;
typedef enum {
    ROUTE_CHANGE_UNKNOWN = 0,
    ROUTE_CHANGE_NEW_DEVICE_AVAILABLE = 1,
    ROUTE_CHANGE_OLD_DEVICE_UNAVAILABLE = 2,
    ROUTE_CHANGE_CATEGORY_CHANGE = 3,
    ROUTE_CHANGE_OVERRIDE = 4,
    ROUTE_CHANGE_WAKE_FROM_SLEEP = 6,
    ROUTE_CHANGE_NO_SUITABLE_ROUTE_FOR_CATEGORY = 7,
    ROUTE_CHANGE_ROUTE_CONFIGURATION_CHANGE = 8,
} RouteChangeReason;

typedef struct {
    GDBusConnection *bus;
    char *session_path;
    gboolean headphones_connected;
} Player;

static void say(const char *line) {
    printf("%s\n", line);
    fflush(stdout);
}

static RouteChangeReason route_change_reason(const char *name) {
    static const struct { const char *name; RouteChangeReason reason; } names[] = {
        {"newDeviceAvailable", ROUTE_CHANGE_NEW_DEVICE_AVAILABLE},
        {"oldDeviceUnavailable", ROUTE_CHANGE_OLD_DEVICE_UNAVAILABLE},
        {"categoryChange", ROUTE_CHANGE_CATEGORY_CHANGE},
        {"override", ROUTE_CHANGE_OVERRIDE},
        {"wakeFromSleep", ROUTE_CHANGE_WAKE_FROM_SLEEP},
        {"noSuitableRouteForCategory", ROUTE_CHANGE_NO_SUITABLE_ROUTE_FOR_CATEGORY},
        {"routeConfigurationChange", ROUTE_CHANGE_ROUTE_CONFIGURATION_CHANGE},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(names); i++)
        if (strcmp(names[i].name, name) == 0) return names[i].reason;
    return ROUTE_CHANGE_UNKNOWN;
}

// Whether a route `(aa{sv}aa{sv})` has headphones among its outputs.
static gboolean has_headphones(GVariant *route) {
    g_autoptr(GVariant) outputs = g_variant_get_child_value(route, 1);
    gboolean found = FALSE;
    for (gsize i = 0; i < g_variant_n_children(outputs) && !found; i++) {
        g_autoptr(GVariant) port = g_variant_get_child_value(outputs, i);
        const char *port_type = NULL;
        found = g_variant_lookup(port, "portType", "&s", &port_type) && strcmp(port_type, "Headphones") == 0;
    }
    return found;
}

// The session's current route, read from its CurrentRoute property.
static GVariant *current_route(Player *player) {
    g_autoptr(GError) error = NULL;
    g_autoptr(GVariant) reply = g_dbus_connection_call_sync(
        player->bus, BRIDGE_NAME, player->session_path, "org.freedesktop.DBus.Properties", "Get",
        g_variant_new("(ss)", SESSION_INTERFACE, "CurrentRoute"), G_VARIANT_TYPE("(v)"), G_DBUS_CALL_FLAGS_NONE, -1,
        NULL, &error);
    if (reply == NULL) {
        g_printerr("CurrentRoute: %s\n", error->message);
        return NULL;
    }
    GVariant *route = NULL;
    g_variant_get(reply, "(v)", &route);
    return route;
}

// MARK: The guide's handlers

static void handle_interruption(Player *player, GVariant *parameters) {
    (void)player;
    const char *type_name = NULL;
    g_autoptr(GVariant) info = NULL;
    g_variant_get(parameters, "(&s@a{sv})", &type_name, &info);
    InterruptionType type = strcmp(type_name, "began") == 0 ? INTERRUPTION_BEGAN : INTERRUPTION_ENDED;
    if (type == INTERRUPTION_BEGAN) {
        // Audio has stopped, and the session is no longer active: show it is paused.
        say("began");
        return;
    }
    InterruptionOptions options = 0;
    g_autofree const char **names = NULL;
    if (g_variant_lookup(info, "options", "^a&s", &names))
        for (const char **name = names; *name; name++)
            if (strcmp(*name, "shouldResume") == 0) options |= INTERRUPTION_OPTION_SHOULD_RESUME;
    // The interruption ended: play again only if the bridge says the app should.
    say(options & INTERRUPTION_OPTION_SHOULD_RESUME ? "ended, should resume" : "ended");
}

static void handle_route_change(Player *player, GVariant *parameters) {
    const char *reason_name = NULL;
    g_autoptr(GVariant) previous_route = NULL;
    g_variant_get(parameters, "(&s@(aa{sv}aa{sv}))", &reason_name, &previous_route);
    char line[96];
    switch (route_change_reason(reason_name)) {
    case ROUTE_CHANGE_NEW_DEVICE_AVAILABLE: {
        g_autoptr(GVariant) route = current_route(player);
        player->headphones_connected = route != NULL && has_headphones(route);
        snprintf(line, sizeof line, "new device, headphones: %s", player->headphones_connected ? "true" : "false");
        break;
    }
    case ROUTE_CHANGE_OLD_DEVICE_UNAVAILABLE:
        player->headphones_connected = has_headphones(previous_route);
        snprintf(line, sizeof line, "old device gone, it was headphones: %s",
                 player->headphones_connected ? "true" : "false");
        break;
    default:
        snprintf(line, sizeof line, "route: %d", (int)route_change_reason(reason_name));
    }
    say(line);
}

static void on_session_signal(GDBusConnection *bus, const char *sender, const char *path, const char *interface,
                              const char *member, GVariant *parameters, gpointer data) {
    (void)bus, (void)sender, (void)path, (void)interface;
    Player *player = data;
    if (strcmp(member, "Interruption") == 0) handle_interruption(player, parameters);
    else if (strcmp(member, "RouteChange") == 0) handle_route_change(player, parameters);
    else if (strcmp(member, "MediaServicesWereLost") == 0) say("media services were lost");
    else if (strcmp(member, "MediaServicesWereReset") == 0) say("media services were reset");
    else if (strcmp(member, "ActivationGranted") == 0) say("activation granted");
}

// MARK: The session

// Calls a method of the session and returns its reply (NULL on an error, after printing the bridge's
// error name and message).
static GVariant *session_call_reply(Player *player, const char *method, GVariant *parameters) {
    g_autoptr(GError) error = NULL;
    GVariant *reply = g_dbus_connection_call_sync(player->bus, BRIDGE_NAME, player->session_path, SESSION_INTERFACE,
                                                  method, parameters, NULL, G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
    if (reply != NULL) return reply;
    g_autofree char *name = g_dbus_error_get_remote_error(error);
    g_dbus_error_strip_remote_error(error);
    printf("error %s: %s\n", name ? name : "?", error->message);
    return NULL;
}

static gboolean session_call(Player *player, const char *method, GVariant *parameters) {
    g_autoptr(GVariant) reply = session_call_reply(player, method, parameters);
    return reply != NULL;
}

static gboolean quit(gpointer loop) {
    g_main_loop_quit(loop);
    return G_SOURCE_REMOVE;
}

int main(int argc, char **argv) {
    const char *app_id = argc > 1 ? argv[1] : "guide-player-c";
    g_autoptr(GError) error = NULL;
    Player player = {.bus = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, &error)};
    if (player.bus == NULL) {
        printf("error MediaServicesFailed: no session bus: %s\n", error->message);
        return 1;
    }
    g_autoptr(GVariant) created = g_dbus_connection_call_sync(
        player.bus, BRIDGE_NAME, BRIDGE_PATH, "io.github.audiosession.Bridge1", "CreateSession",
        g_variant_new("(s@a{sv})", app_id, g_variant_new_array(G_VARIANT_TYPE("{sv}"), NULL, 0)),
        G_VARIANT_TYPE("(os)"), G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
    if (created == NULL) {
        g_autofree char *name = g_dbus_error_get_remote_error(error);
        printf("error %s: %s\n", name ? name : "?", error->message);
        return 1;
    }
    g_variant_get(created, "(os)", &player.session_path, NULL);
    g_dbus_connection_signal_subscribe(player.bus, BRIDGE_NAME, SESSION_INTERFACE, NULL, player.session_path, NULL,
                                       G_DBUS_SIGNAL_FLAGS_NONE, on_session_signal, &player, NULL);
    const char *no_options[] = {NULL};
    if (!session_call(&player, "SetCategory", g_variant_new("(ss^as)", "playback", "default", no_options))) return 1;
    // Play as soon as the turn comes: during a call the session waits, and ActivationGranted says when.
    g_autoptr(GVariant) activation = session_call_reply(&player, "RequestActivation", g_variant_new("(^as)", no_options));
    if (activation == NULL) return 1;
    const char *state = NULL;
    g_variant_get(activation, "(&s)", &state);
    printf("activation: %s\n", state);
    printf("ready %s\n", player.session_path);
    fflush(stdout);

    GMainLoop *loop = g_main_loop_new(NULL, FALSE);
    g_unix_signal_add(SIGTERM, quit, loop);
    g_unix_signal_add(SIGINT, quit, loop);
    g_main_loop_run(loop);
    g_main_loop_unref(loop);
    session_call(&player, "Release", NULL);
    g_free(player.session_path);
    g_object_unref(player.bus);
    return 0;
}
