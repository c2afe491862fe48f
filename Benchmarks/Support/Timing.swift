// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

// Clocks for the benchmark harnesses (compiled into each by its run.sh).
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// CPU time of this process so far, user + system, in seconds (clock(3)).
func cpuSeconds() -> Double { Double(clock()) / Double(CLOCKS_PER_SEC) }

/// A monotonic wall clock in seconds (CLOCK_MONOTONIC), for differences only.
func wallSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}
