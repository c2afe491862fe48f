#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
# An ftpsync on_failure hook: mails a summary of a failed run.
#
#   on_failure: /usr/local/lib/ftpsync/mail-on-failure.sh ops@example.com
#
# Install: install -D -m 755 Examples/hooks/mail-on-failure.sh /usr/local/lib/ftpsync/mail-on-failure.sh
#
# ftpsync writes the run's JSON document (the one `--json` prints) on the standard input and
# sets FTPSYNC_EXIT_CODE, FTPSYNC_CONFIG, FTPSYNC_COMMAND and FTPSYNC_HOOK. Needs jq and a
# mail(1) command (Debian: bsd-mailx or mailutils). Whatever this prints goes to ftpsync's
# standard error (the journal under systemd); it has 60 seconds.
set -eu

to=${1:?usage: mail-on-failure.sh ADDRESS}
# Exit 3: the previous run still held the lock (a slow run overlapping the next one from cron);
# nothing was done and the next run catches up. Not worth a mail; remove this to get one.
if [ "${FTPSYNC_EXIT_CODE:-}" = 3 ]; then
    cat >/dev/null
    exit 0
fi
document=$(mktemp)
trap 'rm -f "$document"' EXIT
cat >"$document"

# "ftpsync pull on cams01: exit 1 (gate-camera failed, yard-camera partial)"
subject=$(jq -r --arg host "$(hostname)" '
  "ftpsync \(.command) on \($host): exit \(.exit_code)"
  + ([.devices[] | select(.status != "ok") | "\(.name) \(.status)"] | join(", ")
     | if . == "" then "" else " (\(.))" end)' "$document")

# One line per device that was not ok (with its error), or why the run did not start.
jq -r '
  (if .error then "The run did not start: \(.error)\n" else "" end)
  + ([.devices[] | select(.status != "ok")
      | "\(.name): \(.status)" + (if .error then ": \(.error)" else "" end)
        + (if .stats.failed > 0 then " (\(.stats.failed) actions failed)" else "" end)]
     | join("\n"))
  + "\n\nstarted \(.started), finished \(.finished), exit code \(.exit_code)\n"' "$document" |
    mail -s "$subject" "$to"
