// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import Foundation

extension FTPError {
    /// A permanent refusal (5xx) of a command: the server does not do it, try another way.
    var isRefusal: Bool {
        if case .reply(let code, _, _) = self { return (500..<600).contains(code) }
        return false
    }
}
