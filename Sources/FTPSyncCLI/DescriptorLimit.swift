// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// The soft limit of open descriptors a run asks for (never above the hard limit).
let wantedDescriptorLimit: rlim_t = 8192

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
