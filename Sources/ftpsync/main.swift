import FTPSyncCLI
import Foundation

exit(FTPSyncCLI.main(CommandLine.arguments))
