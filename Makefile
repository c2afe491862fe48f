# Shortcuts for the scripts in scripts/ (they work without make, too).
.PHONY: all demo test build release format lint deps check-servers servers-stop clean

all: build

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

format:
	swift format -i -r Sources Tests Package.swift

lint:
	swift format lint --strict -r Sources Tests Package.swift Examples

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
	rm -rf demo-run
