// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPSyncCLI
import Foundation

exit(FTPSyncCLI.main(CommandLine.arguments))
