// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// The soft limit of open descriptors a run asks for (never above the hard limit).
let wantedDescriptorLimit: rlim_t = 8192

/// Descriptors a running device may hold at once (its connections, its folders, its spool
/// files: 12 to 16 measured with 2 connections), and those the process keeps for itself.
let descriptorsPerJob: rlim_t = 16
let descriptorsReserved: rlim_t = 64

/// Raises the soft limit of open descriptors towards `wantedDescriptorLimit`, within the hard
/// limit. A device that runs holds about 16 descriptors (its connections, its folders, its
/// spool files), so a run of `--jobs 128` needs some 2,000, and the usual soft limit of 1,024
/// ended such a run with "Too many open files" on most of its devices. Descriptors are
/// watched with poll(2), never select(2), so numbers above 1,023 are fine.
func raiseDescriptorLimit() {
    var limit = rlimit()
    guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
    let wanted = min(limit.rlim_max, wantedDescriptorLimit)
    guard limit.rlim_cur < wanted else { return }
    limit.rlim_cur = wanted
    _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
}

/// The devices that may run at once within the soft limit of open descriptors (after
/// `raiseDescriptorLimit`): `jobs`, or fewer when the limit cannot hold them, with the note
/// that says so (a hard limit of 1,024 failed 216 of 600 devices with `--jobs 200`).
/// - Returns: the jobs to run, and a note for stderr when they are fewer than asked.
func jobsWithinDescriptorLimit(_ jobs: Int) -> (jobs: Int, note: String?) {
    var limit = rlimit()
    guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max
    else { return (jobs, nil) }
    let room = limit.rlim_cur > descriptorsReserved ? (limit.rlim_cur - descriptorsReserved) / descriptorsPerJob : 0
    let fit = Int(clamping: max(1, room))
    guard jobs > fit else { return (jobs, nil) }
    return (
        fit,
        "ftpsync: note: --jobs \(jobs) lowered to \(fit): this process may open \(limit.rlim_cur) files"
            + " (ulimit -n) and a running device needs up to \(descriptorsPerJob); raise the limit"
            + " (ulimit -Hn, LimitNOFILE= in a systemd unit) to run more at once"
    )
}
