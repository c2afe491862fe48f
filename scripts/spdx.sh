#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
#
# The licence header of every source file (LICENSE: Apache-2.0), in the REUSE form:
#   // SPDX-License-Identifier: Apache-2.0          (#, or .\" in the man page)
#   // SPDX-FileCopyrightText: 2026 The ftpsync Authors
# at the top, after a `#!` line or Package.swift's `// swift-tools-version` line.
#
#   scripts/spdx.sh           list the tracked sources without it; exit 1 when there is one
#   scripts/spdx.sh --add     add it to those (and to the untracked ones git would add)
#
# Sources: *.swift, *.sh, *.py, *.h, *.modulemap, Makefile, .ci/run, the systemd units, the man
# page. Test data (Fixtures, Data), the examples' YAML and the docs are not sources.
set -euo pipefail
cd "$(dirname "$0")/.."
add=false
[ "${1:-}" = "--add" ] && add=true

sources() {
    git ls-files --cached --others --exclude-standard \
        | grep -E '(\.(swift|sh|py|h|modulemap|service|timer)|^Makefile|^\.ci/run|^docs/ftpsync\.1)$' \
        | grep -vE '/(Fixtures|Data)/' || true
}

missing=()
while IFS= read -r file; do
    [ -f "$file" ] || continue
    head -n 4 "$file" | grep -q 'SPDX-License-Identifier: Apache-2.0' && continue
    missing+=("$file")
done < <(sources)

if ! $add; then
    if [ ${#missing[@]} -gt 0 ]; then
        printf 'no SPDX licence header (fix with scripts/spdx.sh --add): %s\n' "${missing[@]}" >&2
        exit 1
    fi
    exit 0
fi

for file in "${missing[@]}"; do
    case "$file" in
    *.swift | *.h | *.modulemap) mark='//' ;;
    docs/ftpsync.1) mark='.\"' ;;
    *) mark='#' ;;
    esac
    header="$mark SPDX-License-Identifier: Apache-2.0
$mark SPDX-FileCopyrightText: 2026 The ftpsync Authors"
    first=$(head -n 1 "$file")
    tmp="$file.spdx.$$"
    if [[ "$first" == '#!'* || "$first" == '// swift-tools-version'* ]]; then
        { printf '%s\n%s\n' "$first" "$header"; tail -n +2 "$file"; } >"$tmp"
    elif [ "$mark" = '//' ]; then
        { printf '%s\n\n' "$header"; cat "$file"; } >"$tmp"
    else
        { printf '%s\n' "$header"; cat "$file"; } >"$tmp"
    fi
    chmod --reference="$file" "$tmp"
    mv "$tmp" "$file"
    echo "added: $file"
done
