// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Testing

@testable import SyncEngine

/// `remotePath(root:relative:)`, the one join of remote paths.
struct RemotePathTests {
    @Test(arguments: [
        ("/", "a/b", "/a/b"), ("", "a", "/a"), ("/DCIM", "a", "/DCIM/a"), ("/DCIM/", "a", "/DCIM/a"),
        ("/DCIM//", "", "/DCIM"), ("/", "", "/"),
    ])
    func joins(root: String, relative: String, expected: String) {
        #expect(remotePath(root: root, relative: relative) == expected)
    }
}
