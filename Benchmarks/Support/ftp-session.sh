# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
# shellcheck shell=bash
# What the benchmark scripts (Benchmarks/run.sh, Benchmarks/scale/run.sh) share, sourced by them:
# the lftp session they time and the one-device configuration they give ftpsync.

# bench_lftp_script FILE ADDR PORT USER PASS: writes FILE (mode 700), a script that runs one lftp
# session on ADDR:PORT over plain FTP (2 retries) doing its first argument, then quits:
# `FILE "mirror /a /tmp/b"`. A script, so that `/usr/bin/time` can run it.
bench_lftp_script() {
    # shellcheck disable=SC2016 # $1 is the written script's argument
    printf '#!/bin/sh\nexec lftp -u "%s,%s" -p "%s" -e "set ftp:ssl-allow no; set net:max-retries 2; $1; quit" "%s"\n' \
        "$4" "$5" "$3" "$2" >"$1"
    chmod 700 "$1"
}

# bench_config FILE ADDR PORT USER PASS REMOTE LOCAL: writes FILE (mode 600), a configuration of
# one device `b` on ADDR:PORT whose folder REMOTE is pulled to LOCAL/b.
bench_config() {
    printf 'local: %s\ndevices:\n  - name: b\n    host: %s\n    port: %s\n    user: %s\n    password: %s\n    remote: %s\n' \
        "$7" "$2" "$3" "$4" "$5" "$6" >"$1"
    chmod 600 "$1"
}
