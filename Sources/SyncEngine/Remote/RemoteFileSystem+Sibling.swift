// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// Opens one more connection of a device run with `connect` and gives it what the first
/// connection learned from its listings (`RemoteFileSystem.learned`: the server's spelling of
/// names, its clock offset), so the extra connection names files exactly as the first one does.
/// - Throws: what `connect` throws.
func openSibling(of first: RemoteFileSystem, _ connect: () throws -> RemoteFileSystem) throws -> RemoteFileSystem {
    let extra = try connect()
    extra.learned = first.learned
    return extra
}
