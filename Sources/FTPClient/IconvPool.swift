// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Open iconv(3) conversion descriptors kept for reuse: `iconv_open` costs far more than
/// converting a short name, and a listing in a legacy encoding decodes a name (or a date field)
/// per line. A descriptor serves one conversion at a time: `withDescriptor` takes one out (or
/// opens one), resets its shift state and puts it back afterwards; at most
/// `maximumIdle` per pair of encodings stay open.
enum IconvPool {
    /// Idle descriptors by `from NUL to`, as bit patterns (a pointer is not Sendable).
    private static let idle = Mutex<[String: [Int]]>([:])
    /// Most idle descriptors kept per pair of encodings (about one per thread that converts).
    static let maximumIdle = 8

    /// Runs `body` with a descriptor converting `source` to `target`.
    /// - Returns: what `body` returns, or nil when iconv does not know one of the encodings.
    static func withDescriptor<Result>(from source: String, to target: String, _ body: (iconv_t) -> Result)
        -> Result?
    {
        let key = source + "\u{0}" + target
        let descriptor: iconv_t
        if let bits = idle.withLock({ $0[key]?.popLast() }), let reused = iconv_t(bitPattern: bits) {
            descriptor = reused
        } else {
            let opened = iconv_open(target, source)
            guard Int(bitPattern: opened) != -1, let opened else { return nil }
            descriptor = opened
        }
        _ = iconv(descriptor, nil, nil, nil, nil)  // the initial shift state
        let result = body(descriptor)
        let bits = Int(bitPattern: descriptor)
        let kept = idle.withLock { pool -> Bool in
            guard pool[key, default: []].count < maximumIdle else { return false }
            pool[key, default: []].append(bits)
            return true
        }
        if !kept { iconv_close(descriptor) }
        return result
    }
}
