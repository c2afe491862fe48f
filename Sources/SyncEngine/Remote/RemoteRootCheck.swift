// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import Foundation

/// The device's remote root (`remote:`) is not there: the server listed it as empty (vsftpd and
/// busybox answer LIST of a missing path with an empty 226), but asking about the folder itself
/// (MLST, CWD) says it does not exist. The device run fails with this, never syncs "nothing".
public struct RemoteRootMissing: Error, CustomStringConvertible, Sendable {
    /// The absolute remote path that does not exist, as configured.
    public var path: String

    /// - Parameter path: the absolute remote path that does not exist.
    public init(path: String) { self.path = path }

    public var description: String { "remote folder \(path) does not exist on the device; check `remote:`" }
}

extension FTPRemote {
    /// Whether `path` is an existing folder on the server, asked of the folder itself rather than
    /// trusted from an empty listing: MLST (RFC 3659 §7) when FEAT offers it (`type=dir`/`cdir`:
    /// yes; a file or 550: no), else CWD to it and back to the previous working folder (RFC 959
    /// §4.1.1; 250: yes, 550: no).
    /// - Returns: true or false, or nil when the server's answers do not tell.
    /// - Throws: connection errors only.
    public func folderExists(_ path: String) throws -> Bool? {
        let spelled = serverPath(path)
        // The server's root is always there: no round trip to ask.
        if spelled == "/" { return true }
        if session.features.mlsd {
            let reply = try session.raw("MLST \(spelled)")
            if reply.code == 250 {
                let lowered = reply.lines.joined(separator: "\n").lowercased()
                if lowered.contains("type=dir;") || lowered.contains("type=cdir;") { return true }
                if lowered.contains("type=file;") { return false }
            } else if reply.code == 550 {
                return false
            }
        }
        let before = try session.raw("PWD")
        let reply = try session.raw("CWD \(spelled)")
        if reply.code == 250 || reply.code == 200 {
            if before.code == 257, let previous = Self.quotedPath(before.text), previous != spelled {
                _ = try session.raw("CWD \(previous)")
            }
            return true
        }
        return reply.code == 550 ? false : nil
    }

    /// The folder in a 257 reply (`257 "/home/a ""b""" is current`, RFC 959 Appendix II: quotes
    /// doubled), or nil when there is none.
    static func quotedPath(_ text: String) -> String? {
        guard let open = text.firstIndex(of: "\"") else { return nil }
        var result = ""
        var index = text.index(after: open)
        while index < text.endIndex {
            let character = text[index]
            index = text.index(after: index)
            if character == "\"" {
                guard index < text.endIndex, text[index] == "\"" else { return result }
                index = text.index(after: index)
            }
            result.append(character)
        }
        return nil
    }
}
