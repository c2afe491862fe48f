#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
# An ftpsync hook that posts a one-line summary of the run to a chat webhook.
#
#   on_failure: /usr/local/lib/ftpsync/webhook.sh slack https://hooks.slack.com/services/T000/B000/XXXX
#   on_failure: /usr/local/lib/ftpsync/webhook.sh ntfy https://ntfy.sh/my-cameras
#
# Install: install -D -m 755 Examples/hooks/webhook.sh /usr/local/lib/ftpsync/webhook.sh
#
# ftpsync writes the run's JSON document on the standard input (see mail-on-failure.sh). Needs
# jq and curl. The message is streamed to curl (--data-binary @-), never put on a command line;
# the server's reply is dropped (it would reach ftpsync's standard error: cron's mail).
set -eu

format=${1:?usage: webhook.sh slack|ntfy URL}
url=${2:?usage: webhook.sh slack|ntfy URL}

# "ftpsync pull on cams01: exit 1; gate-camera failed: connect 192.168.10.21:21: timed out"
# (a jq program: its \(...) are jq's, not the shell's)
# shellcheck disable=SC2016
summary='"ftpsync \(.command) on \($host): exit \(.exit_code)"
  + (if .error then "; \(.error)" else "" end)
  + ([.devices[] | select(.status != "ok")
      | "; \(.name) \(.status)" + (if .error then ": \(.error)" else "" end)] | join(""))'

case $format in
slack)
    jq -c --arg host "$(hostname)" "{text: ($summary)}" |
        curl --fail --silent --show-error --max-time 20 --retry 2 \
            -H 'Content-Type: application/json' --data-binary @- "$url" >/dev/null
    ;;
ntfy)
    jq -r --arg host "$(hostname)" "$summary" |
        curl --fail --silent --show-error --max-time 20 --retry 2 \
            -H 'Title: ftpsync' -H 'Tags: warning' --data-binary @- "$url" >/dev/null
    ;;
*)
    echo "webhook.sh: unknown format '$format' (slack or ntfy)" >&2
    exit 2
    ;;
esac
