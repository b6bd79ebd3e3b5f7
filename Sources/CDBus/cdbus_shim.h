// SPDX-License-Identifier: Apache-2.0
// Prefixed helpers for libdbus macros that Swift cannot import.
#ifndef CDBUS_SHIM_H
#define CDBUS_SHIM_H
#include <dbus/dbus.h>

static inline int cdbus_type_invalid(void) { return DBUS_TYPE_INVALID; }
static inline int cdbus_type_byte(void) { return DBUS_TYPE_BYTE; }
static inline int cdbus_type_boolean(void) { return DBUS_TYPE_BOOLEAN; }
static inline int cdbus_type_int32(void) { return DBUS_TYPE_INT32; }
static inline int cdbus_type_uint32(void) { return DBUS_TYPE_UINT32; }
static inline int cdbus_type_int64(void) { return DBUS_TYPE_INT64; }
static inline int cdbus_type_uint64(void) { return DBUS_TYPE_UINT64; }
static inline int cdbus_type_double(void) { return DBUS_TYPE_DOUBLE; }
static inline int cdbus_type_string(void) { return DBUS_TYPE_STRING; }
static inline int cdbus_type_object_path(void) { return DBUS_TYPE_OBJECT_PATH; }
static inline int cdbus_type_signature(void) { return DBUS_TYPE_SIGNATURE; }
static inline int cdbus_type_array(void) { return DBUS_TYPE_ARRAY; }
static inline int cdbus_type_variant(void) { return DBUS_TYPE_VARIANT; }
static inline int cdbus_type_struct(void) { return DBUS_TYPE_STRUCT; }
static inline int cdbus_type_dict_entry(void) { return DBUS_TYPE_DICT_ENTRY; }
#endif
