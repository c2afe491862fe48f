// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// A digest a server computed over a whole file.
public struct ServerHash: Sendable, Equatable {
    /// The algorithm the server used.
    public var algorithm: ServerHashAlgorithm
    /// The digest bytes (`algorithm.digestLength` of them).
    public var digest: [UInt8]

    /// A digest as read from a reply.
    public init(algorithm: ServerHashAlgorithm, digest: [UInt8]) {
        self.algorithm = algorithm
        self.digest = digest
    }
}

extension FTPFeatures {
    /// The algorithms `HASH` offers (FEAT line `HASH SHA-256*;SHA-1;MD5;CRC32`,
    /// draft-bryan-ftpext-hash §3.1) that ftpsync knows, strongest first.
    public var hashAlgorithms: [ServerHashAlgorithm] {
        let offered = Set(hashNames.map { $0.hasSuffix("*") ? String($0.dropLast()) : $0 })
        return ServerHashAlgorithm.allCases.filter { offered.contains($0.rawValue) }
    }

    /// The algorithm `HASH` uses until `OPTS HASH` chooses another: the one FEAT marks with `*`.
    public var defaultHashAlgorithm: ServerHashAlgorithm? {
        hashNames.first { $0.hasSuffix("*") }.flatMap { ServerHashAlgorithm(rawValue: String($0.dropLast())) }
    }

    /// The algorithms offered by the older one-algorithm commands (`XSHA256`, `XSHA1`, `XMD5`,
    /// `XCRC`), strongest first.
    public var legacyHashAlgorithms: [ServerHashAlgorithm] {
        ServerHashAlgorithm.allCases.filter { has($0.legacyCommand) }
    }

    /// True when the server offers some way to hash a whole file.
    public var offersFileHash: Bool { !hashAlgorithms.isEmpty || !legacyHashAlgorithms.isEmpty }

    private var hashNames: [String] {
        var names: [String] = []
        for line in entries["HASH"] ?? [] {
            for name in line.split(separator: ";") {
                let trimmed = String(name).trimmingSpaces().uppercased()
                if !trimmed.isEmpty { names.append(trimmed) }
            }
        }
        return names
    }
}
