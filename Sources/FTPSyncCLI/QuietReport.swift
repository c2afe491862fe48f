/// What `--quiet` prints: nothing when every device is ok; otherwise, on stderr, each device that
/// is not ok with its error and each failed action.
func quietReport(_ document: RunDocument, console: Console) {
    for device in document.devices where device.status != .ok {
        console.error("\(device.name): \(device.status.rawValue)" + (device.error.map { ": " + printable($0) } ?? ""))
        for action in device.actions where action.status == .failed {
            console.error("  " + actionLine(action))
        }
    }
}
