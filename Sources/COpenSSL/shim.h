// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

/* Swift cannot call OpenSSL's function-like macros; these wrappers expose them. */

static inline int ftpsync_SSL_set_tlsext_host_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

static inline int ftpsync_SSL_CTX_set_min_proto_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_min_proto_version(ctx, version);
}

static inline int ftpsync_SSL_CTX_set_max_proto_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_max_proto_version(ctx, version);
}

static inline uint64_t ftpsync_SSL_CTX_set_options(SSL_CTX *ctx, uint64_t options) {
    return (uint64_t)SSL_CTX_set_options(ctx, options);
}

static inline long ftpsync_SSL_CTX_set_mode(SSL_CTX *ctx, long mode) {
    return SSL_CTX_set_mode(ctx, mode);
}

static inline long ftpsync_SSL_CTX_set_session_cache_mode(SSL_CTX *ctx, long mode) {
    return SSL_CTX_set_session_cache_mode(ctx, mode);
}

/* The option and mode bits, as plain constants. */
static const uint64_t ftpsync_SSL_OP_IGNORE_UNEXPECTED_EOF = SSL_OP_IGNORE_UNEXPECTED_EOF;
static const uint64_t ftpsync_SSL_OP_NO_COMPRESSION = SSL_OP_NO_COMPRESSION;
static const long ftpsync_SSL_MODE_AUTO_RETRY = SSL_MODE_AUTO_RETRY;
static const long ftpsync_SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER = SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER;
static const long ftpsync_SSL_MODE_ENABLE_PARTIAL_WRITE = SSL_MODE_ENABLE_PARTIAL_WRITE;
static const long ftpsync_SSL_SESS_CACHE_CLIENT = SSL_SESS_CACHE_CLIENT;
static const int ftpsync_TLS1_2_VERSION = TLS1_2_VERSION;
static const int ftpsync_TLS1_3_VERSION = TLS1_3_VERSION;
