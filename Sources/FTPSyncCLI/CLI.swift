import Foundation

/// Entry point of the `ftpsync` command.
public enum FTPSyncCLI {
    /// Runs one command line and returns the exit code (CONTRACT.md, "Exit codes").
    public static func main(_ arguments: [String]) -> Int32 { 0 }
}
