// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import FTPListing

extension FTPRemote {
    /// Most SIZE commands one listing spends on sizes it gives only roughly: the files beyond
    /// keep an unknown size.
    static let maximumSizeConfirmations = 200

    /// Replaces the sizes `listing` gives only roughly (`sizeIsExact == false`: `12.5M` from
    /// embedded servers, a 32-bit server's negative size read as value + 2^32) with the
    /// server's exact size by SIZE (RFC 3659 §4), for files, when FEAT offers SIZE, for at most
    /// `maximumSizeConfirmations` files of the listing. A file whose SIZE is refused, answered
    /// without a number (`213 5 junk`, `213 -12`, over 2^64), or whose name cannot be sent
    /// (CR, LF, NUL, not encodable) keeps its rough size, marked inexact (the engine takes it
    /// as unknown).
    /// - Parameter folder: the folder as the server spells it.
    /// - Throws: connection errors of SIZE (`.timedOut`, `.connectionClosed`, ...); a refusal
    ///   (`.reply`), a reply without a number and a name that cannot be sent are no error.
    func confirmSizes(of listing: inout ParsedListing, in folder: String) throws {
        guard session.features.size else { return }
        var asked = 0
        for index in listing.entries.indices {
            let entry = listing.entries[index]
            guard entry.type == .file, !entry.sizeIsExact, asked < Self.maximumSizeConfirmations else { continue }
            asked += 1
            do throws(FTPError) {
                listing.entries[index].size = try session.size(remotePath(root: folder, relative: entry.name))
                listing.entries[index].sizeIsExact = true
            } catch {
                switch error {
                case .reply, .invalidName: continue
                // A whole reply without a number: the dialogue is still in step.
                case .protocolViolation where session.isConnected: continue
                default: throw error
                }
            }
        }
    }
}
