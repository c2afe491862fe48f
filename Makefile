# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
# Shortcuts for the scripts in scripts/ (they work without make, too).
.PHONY: all demo test build release release-static install uninstall deb format lint deps check-servers servers-stop clean

all: build

# Installation (make install, make uninstall): where the files go.
PREFIX ?= /usr/local
DESTDIR ?=
STRIP ?= strip --remove-section=.comment --remove-section=.note
STATIC_BUILD = swift build --scratch-path .build/static -c release --static-swift-stdlib --disable-local-rpath \
	-Xlinker -z -Xlinker now --product ftpsync
FTPSYNC_BIN = .build/static/release/ftpsync
DEST_BIN = $(DESTDIR)$(PREFIX)/bin
DEST_MAN1 = $(DESTDIR)$(PREFIX)/share/man/man1
DEST_BASH = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
DEST_ZSH = $(DESTDIR)$(PREFIX)/share/zsh/$(if $(filter /usr,$(PREFIX)),vendor-completions,site-functions)
DEST_FISH = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
DEST_DOC = $(DESTDIR)$(PREFIX)/share/doc/ftpsync

# Two FTP servers on loopback, ftpsync pull, the result (scripts/demo.sh).
demo:
	scripts/demo.sh

# Dependencies, warning-free build, format lint, all tests (same as CI).
test:
	scripts/test.sh

build:
	swift build

release:
	swift build -c release

# The release binary with the Swift runtime and Foundation linked in: it needs only Debian's
# libraries where it runs (no libswift*.so, no RUNPATH), as `install` and the package ship it.
# Symbols resolved at start (-z now). Its own build folder, .build/static: the static standard
# library changes how everything is compiled, so sharing .build/release with `release` (demo,
# benchmarks) would rebuild everything at each switch.
release-static:
	$(STATIC_BUILD)

# Installs the release-static binary (stripped; STRIP=true keeps its symbols), the man page, the
# bash (sourced: no #! line), zsh and fish completions the binary generates, the examples (Examples/ without the Swift
# example programs' *.swift, which build only in this source tree), CHANGELOG.md, the user docs
# (README.md, cli.md, configuration.md, filters.md, server-quirks.md) and the copyright file:
#   make install PREFIX=/usr/local          (the default PREFIX)
#   make install DESTDIR=/tmp/stage PREFIX=/usr   (what scripts/package-deb.sh does)
# zsh: PREFIX=/usr gets $(PREFIX)/share/zsh/vendor-completions (Debian's place for packages),
# any other PREFIX $(PREFIX)/share/zsh/site-functions (in zsh's default fpath for /usr/local).
install: release-static
	install -d "$(DEST_BIN)" "$(DEST_MAN1)" "$(DEST_BASH)" "$(DEST_ZSH)" "$(DEST_FISH)" "$(DEST_DOC)/examples"
	install -m 755 $(FTPSYNC_BIN) "$(DEST_BIN)/ftpsync"
	$(STRIP) "$(DEST_BIN)/ftpsync"
	gzip -9n <docs/ftpsync.1 >"$(DEST_MAN1)/ftpsync.1.gz"
	$(FTPSYNC_BIN) --generate-completion-script bash | sed '1{/^#!/d}' >"$(DEST_BASH)/ftpsync"
	$(FTPSYNC_BIN) --generate-completion-script zsh >"$(DEST_ZSH)/_ftpsync"
	$(FTPSYNC_BIN) --generate-completion-script fish >"$(DEST_FISH)/ftpsync.fish"
	chmod 644 "$(DEST_MAN1)/ftpsync.1.gz" "$(DEST_BASH)/ftpsync" "$(DEST_ZSH)/_ftpsync" "$(DEST_FISH)/ftpsync.fish"
	cd Examples && find . -type f ! -name '*.swift' | while read -r f; do \
		if [ -x "$$f" ]; then m=755; else m=644; fi; install -D -m $$m "$$f" "$(DEST_DOC)/examples/$$f"; done
	install -m 644 packaging/copyright "$(DEST_DOC)/copyright"
	install -m 644 CHANGELOG.md "$(DEST_DOC)/CHANGELOG.md"
	install -m 644 README.md docs/cli.md docs/configuration.md docs/filters.md docs/server-quirks.md "$(DEST_DOC)/"

# Removes what `install` put there (same PREFIX and DESTDIR).
uninstall:
	rm -f "$(DEST_BIN)/ftpsync" "$(DEST_MAN1)/ftpsync.1.gz" "$(DEST_BASH)/ftpsync" "$(DEST_ZSH)/_ftpsync" \
		"$(DEST_FISH)/ftpsync.fish"
	rm -rf "$(DEST_DOC)"

# dist/ftpsync_<version>_<arch>.deb (scripts/package-deb.sh; scripts/check-deb.sh checks it).
deb:
	scripts/package-deb.sh

format:
	swift format -i -r Sources Tests Package.swift Plugins

lint:
	swift format lint --strict -r Sources Tests Package.swift Examples Plugins

deps:
	scripts/install-deps.sh

# Start both test-server kinds and check them with curl and lftp.
check-servers:
	scripts/check-servers.sh

# Stop every test server scripts/ftp-server.sh has recorded.
servers-stop:
	scripts/ftp-server.sh stop --all

# Build products and the demo folder (stops recorded test servers first).
clean: servers-stop
	swift package clean
	rm -rf demo-run dist .build/static
