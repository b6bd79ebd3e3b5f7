// SPDX-License-Identifier: Apache-2.0
// Stands in for the kernel's Bluetooth SCO sockets in a sound server under test (LD_PRELOAD): the
// machines that run the tests have no Bluetooth in their kernel, and a sound server opens an SCO
// socket itself when a headset's hands-free profile starts (BlueZ hands it everything else, and the
// BlueZ stand-in of the tests serves that). An SCO socket here is one end of a local socket pair whose
// other end nobody reads or writes: the profile switches and its devices appear as with a real
// headset; no sound flows over it. Every other socket goes to the C library untouched.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

enum {
    STANDIN_AF_BLUETOOTH = 31,
    STANDIN_BTPROTO_SCO = 2,
    STANDIN_SOL_SCO = 17,
    STANDIN_SOL_BLUETOOTH = 274,
    STANDIN_SCO_MTU = 48,
    STANDIN_MAX_FD = 65536,
};

// For each descriptor that is an SCO stand-in, its peer's descriptor plus one (0: not a stand-in).
static int standin_peer[STANDIN_MAX_FD];

static int standin_is_sco(int fd) { return fd >= 0 && fd < STANDIN_MAX_FD && standin_peer[fd] != 0; }

typedef int (*socket_function)(int, int, int);
typedef int (*close_function)(int);
typedef int (*bind_function)(int, const struct sockaddr *, socklen_t);
typedef int (*connect_function)(int, const struct sockaddr *, socklen_t);
typedef int (*listen_function)(int, int);
typedef int (*setsockopt_function)(int, int, int, const void *, socklen_t);
typedef int (*getsockopt_function)(int, int, int, void *, socklen_t *);

// The C library's own function `name`, looked up once.
#define STANDIN_REAL(name) \
    static name##_function real_##name; \
    if (!real_##name) real_##name = (name##_function)dlsym(RTLD_NEXT, #name)

int socket(int domain, int type, int protocol) {
    STANDIN_REAL(socket);
    if (domain != STANDIN_AF_BLUETOOTH || protocol != STANDIN_BTPROTO_SCO) return real_socket(domain, type, protocol);
    int pair[2];
    if (socketpair(AF_UNIX, type, 0, pair) < 0) return -1;
    if (pair[0] >= STANDIN_MAX_FD) {
        close(pair[0]);
        close(pair[1]);
        return -1;
    }
    standin_peer[pair[0]] = pair[1] + 1;
    return pair[0];
}

int close(int fd) {
    STANDIN_REAL(close);
    if (standin_is_sco(fd)) {
        real_close(standin_peer[fd] - 1);
        standin_peer[fd] = 0;
    }
    return real_close(fd);
}

int bind(int fd, const struct sockaddr *address, socklen_t length) {
    STANDIN_REAL(bind);
    return standin_is_sco(fd) ? 0 : real_bind(fd, address, length);
}

int connect(int fd, const struct sockaddr *address, socklen_t length) {
    STANDIN_REAL(connect);
    return standin_is_sco(fd) ? 0 : real_connect(fd, address, length);
}

int listen(int fd, int backlog) {
    STANDIN_REAL(listen);
    return standin_is_sco(fd) ? 0 : real_listen(fd, backlog);
}

int setsockopt(int fd, int level, int name, const void *value, socklen_t length) {
    STANDIN_REAL(setsockopt);
    if (standin_is_sco(fd) && (level == STANDIN_SOL_SCO || level == STANDIN_SOL_BLUETOOTH)) return 0;
    return real_setsockopt(fd, level, name, value, length);
}

// SCO_OPTIONS and BT_SNDMTU/BT_RCVMTU: the MTU of a USB adapter's SCO link; other options read as 0.
int getsockopt(int fd, int level, int name, void *value, socklen_t *length) {
    STANDIN_REAL(getsockopt);
    if (!standin_is_sco(fd) || (level != STANDIN_SOL_SCO && level != STANDIN_SOL_BLUETOOTH))
        return real_getsockopt(fd, level, name, value, length);
    if (value && length && *length > 0) {
        memset(value, 0, *length);
        if (*length >= sizeof(uint16_t)) {
            uint16_t mtu = STANDIN_SCO_MTU;
            memcpy(value, &mtu, sizeof mtu);
        }
    }
    return 0;
}
