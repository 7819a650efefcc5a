#!/usr/bin/env bash
# Runs a GUI test ("$@") on an X server of its own, so that GUI tests run side by side: X has
# one keyboard focus per server, and a window one test shows would take it from another's. The
# server picks a free display itself (-displayfd: no race between tests starting together).
# Without Xvfb the test runs on the display it was given (or skips, as it does without one).
set -uo pipefail
if ! command -v Xvfb >/dev/null; then exec "$@"; fi
dir=$(mktemp -d) || exit 1
Xvfb -displayfd 5 -screen 0 1920x1080x24 -nolisten tcp 5>"$dir/display" 2>"$dir/log" &
server=$!
for _ in $(seq 1 200); do
  [ -s "$dir/display" ] && break
  kill -0 "$server" 2>/dev/null || break
  sleep 0.05
done
if [ ! -s "$dir/display" ]; then
  echo "own_x_server.sh: Xvfb did not start:" >&2
  cat "$dir/log" >&2
  kill "$server" 2>/dev/null
  rm -rf "$dir"
  exit 1
fi
export DISPLAY=":$(head -n1 "$dir/display")"
"$@"
rc=$?
kill "$server" 2>/dev/null
wait "$server" 2>/dev/null
rm -rf "$dir"
exit $rc
