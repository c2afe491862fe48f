// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

extension FTPServer {
    /// The lab's run folder of this server (`$FTPSYNC_LAB/run/KIND-ADDR-PORT`).
    var runFolder: String {
        let lab = ProcessInfo.processInfo.environment["FTPSYNC_LAB"] ?? "/tmp/ftpsync-lab"
        return "\(lab)/run/\(kind.rawValue)-\(address.replacingOccurrences(of: ":", with: "_"))-\(port)"
    }

    /// `KEY=value` of the server's info file, nil when missing.
    func info(_ key: String) -> String? {
        guard let text = try? String(contentsOfFile: runFolder + "/info", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(key + "=") {
            return String(line.dropFirst(key.count + 1))
        }
        return nil
    }

    /// The SHA-256 fingerprint of a TLS server's certificate, `sha256:AB:CD:...` (from openssl).
    var fingerprint: String? { info("FINGERPRINT") }
}
