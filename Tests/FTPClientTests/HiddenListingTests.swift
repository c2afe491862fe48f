// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Testing

@testable import FTPClient

/// Issue 19: which outcomes of `LIST -a` mean the server does not understand `-a`.
struct HiddenListingTests {
    @Test func theArgumentPutsTheOptionBeforeThePath() {
        #expect(HiddenListing.argument(for: "") == "-a")
        #expect(HiddenListing.argument(for: "/DCIM/two words") == "-a /DCIM/two words")
    }

    @Test(arguments: [450, 500, 501, 550])
    func refusalsAndMissingFoldersTryPlainList(code: Int) {
        #expect(HiddenListing.retriesPlain(afterReply: code))
    }

    @Test(arguments: [421, 425, 426, 451, 502, 530, 552])
    func otherRepliesAreTheListingsError(code: Int) {
        #expect(!HiddenListing.retriesPlain(afterReply: code))
    }

    @Test func aRefusedOptionSettlesPlainListWhateverListGives() {
        #expect(HiddenListing.settlesPlain(optionReply: 500, plainIsEmpty: true))
        #expect(HiddenListing.settlesPlain(optionReply: 501, plainIsEmpty: false))
    }

    @Test func aMissingFolderOrEmptyListingSettlesOnlyWhenListShowsEntries() {
        #expect(HiddenListing.settlesPlain(optionReply: 550, plainIsEmpty: false))
        #expect(HiddenListing.settlesPlain(optionReply: 450, plainIsEmpty: false))
        #expect(HiddenListing.settlesPlain(optionReply: nil, plainIsEmpty: false))
        // The folder may just be empty: `-a` is kept.
        #expect(!HiddenListing.settlesPlain(optionReply: 550, plainIsEmpty: true))
        #expect(!HiddenListing.settlesPlain(optionReply: nil, plainIsEmpty: true))
    }

    @Test func emptyListingsHoldOnlyBlankAndTotalLines() {
        #expect(HiddenListing.isEmpty([]))
        #expect(HiddenListing.isEmpty(Array("total 0\r\n\r\n".utf8)))
        #expect(!HiddenListing.isEmpty(Array("-rw-r--r-- 1 u g 1 Jan 05 2024 a\r\n".utf8)))
        #expect(!HiddenListing.isEmpty(Array("drwxr-xr-x 2 u g 4096 Jan 05 2024 .\r\n".utf8)))
        #expect(
            !HiddenListing.isEmpty(Array(repeating: UInt8(ascii: "\n"), count: HiddenListing.emptyListingLimit + 1)))
    }
}
