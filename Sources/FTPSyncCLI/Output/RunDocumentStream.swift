// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncEngine

extension RunDocument {
    /// Reports encoded per call of the encoder: enough to make its cost per call vanish, few
    /// enough to keep one batch's text small (about 200 bytes a report).
    static let actionBatch = 512

    /// Writes the document through `write` in pieces, byte for byte what `jsonText(self)` gives,
    /// holding the devices' other fields and `actionBatch` of one device's reports at a time
    /// (they are read from the device's `ActionLog` as they go). Each piece is whole lines of
    /// JSON with every string in it whole (`OutputFilter.json` can take the pieces one by one).
    ///
    /// The pieces are the encoder's own output: the document with every device's actions left
    /// out (an empty array, `[\n\n      ]` the encoder's way), opened at each device's empty
    /// array to take its reports, encoded in batches at the depth they have in the document.
    func writeJSON(_ write: (String) -> Void) {
        let encoder = jsonEncoder()
        var shell = self
        shell.devices = devices.map {
            var device = $0
            device.actions = ActionLog()
            return device
        }
        let skeleton = jsonText(shell, encoder: encoder)
        // `actions` is the first key of a device. Strings hold no raw line feed, so these lines
        // cannot be inside one: each device's empty array, in the devices' order.
        let slots = skeleton.ranges(of: "\n      \"actions\" : [\n\n      ]")
        guard slots.count == devices.count else { return write(jsonText(self, encoder: encoder)) }
        var done = skeleton.startIndex
        for (device, slot) in zip(devices, slots) {
            write(String(skeleton[done..<slot.lowerBound]) + "\n      \"actions\" : [\n")
            Self.writeActions(of: device, encoder: encoder, write)
            write("\n      ]")
            done = slot.upperBound
        }
        write(String(skeleton[done...]))
    }

    /// Writes the reports of `device` as the elements of its `actions`, separated by commas.
    private static func writeActions(of device: DeviceReport, encoder: JSONEncoder, _ write: (String) -> Void) {
        var batch: [ActionReport] = []
        batch.reserveCapacity(actionBatch)
        var first = true
        func flush() {
            guard !batch.isEmpty else { return }
            let text = jsonText(AtActionsDepth(batch), encoder: encoder)
            let elements = text.dropFirst(AtActionsDepth.head.count).dropLast(AtActionsDepth.tail.count)
            write((first ? "" : ",\n") + elements)
            first = false
            batch.removeAll(keepingCapacity: true)
        }
        for action in device.actions {
            batch.append(action)
            if batch.count >= actionBatch { flush() }
        }
        flush()
    }
}

/// Reports placed as a device's `actions` are in a run's document (`{"devices": [{"actions":
/// …}]}`), so the encoder indents them as the document does; `head` and `tail` are the text
/// around them.
private struct AtActionsDepth: Encodable {
    static let head = "{\n  \"devices\" : [\n    {\n      \"actions\" : [\n"
    static let tail = "\n      ]\n    }\n  ]\n}\n"

    let reports: [ActionReport]

    init(_ reports: [ActionReport]) { self.reports = reports }

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: Encoder) throws {
        var document = encoder.container(keyedBy: Key.self)
        var devices = document.nestedUnkeyedContainer(forKey: Key(stringValue: "devices"))
        var device = devices.nestedContainer(keyedBy: Key.self)
        try device.encode(reports, forKey: Key(stringValue: "actions"))
    }
}

/// Runs `body` with a writer that gathers its pieces and hands them to `sink` in chunks of
/// about `limit` bytes (UTF-8), never splitting a piece; the last chunk when `body` returns.
func writeInChunks(limit: Int = 1 << 16, to sink: @escaping (String) -> Void, _ body: ((String) -> Void) -> Void) {
    var pending = ""
    body { piece in
        pending += piece
        if pending.utf8.count >= limit {
            sink(pending)
            pending = ""
        }
    }
    if !pending.isEmpty { sink(pending) }
}
