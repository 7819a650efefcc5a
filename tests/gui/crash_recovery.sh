#!/usr/bin/env bash
# Crash recovery of the real program (issue 19): the `articulate` binary under the test's X
# server, driven with real key presses (xdotool, XTEST):
#  1. open a model, make an unsaved edit (rotate the view, View > Save Camera to Model), wait
#     for the autosave, SIGKILL the process; start it again: the recovery dialog comes up,
#     Return answers Recover, Ctrl+S saves: the file on disk has the edit, the recovery folder
#     is empty afterwards;
#  2. kill it during saves of a large model at delays from 0 to 0.01 s after Ctrl+S and once the save is done: every time,
#     the file on disk is the old document or the new one (byte for byte the old, or one that
#     validates and has the edit), never torn; the late kills must find the new one.
# Usage: crash_recovery.sh ARTICULATE ARTICULATE_CLI MODELS_DIR. Exits 77 (skipped) without a
# display or xdotool.
set -euo pipefail
app=$1 cli=$2 models=$3
[ -n "${DISPLAY:-}" ] || { echo "SKIP: no X display"; exit 77; }
command -v xdotool >/dev/null || { echo "SKIP: xdotool is not installed"; exit 77; }

tmp=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT
export XDG_DATA_HOME=$tmp/data XDG_CONFIG_HOME=$tmp/config XDG_CACHE_HOME=$tmp/cache
export ARTICULATE_AUTOSAVE_SECONDS=0.2
recovery=$XDG_DATA_HOME/Articulate/articulate/recovery

# to stderr: window_of's output goes to /dev/null where its caller wants only the window
fail() { echo "FAIL: $*" >&2; exit 1; }
# waits up to $1 s for the command after it to succeed
wait_for() {
  local limit=$1; shift
  local end=$((SECONDS + limit))
  until "$@"; do
    [ $SECONDS -lt $end ] || return 1
    sleep 0.1
  done
}
# the visible window of process $1 whose title matches the regular expression $2, focused for
# key presses (xdotool's search may list the process's other windows too: each is checked)
window_of() {
  find_window "$1" "$2" 30 ||
    fail "no window '$2' of process $1 within 30 s; the program said: $(tail -n 20 "$tmp/app.log" 2>/dev/null)"
}
# the same within $3 s, returning 1 instead of failing
find_window() {
  local pid=$1 title=$2 end=$((SECONDS + $3)) w
  while [ $SECONDS -lt $end ]; do
    for w in $(xdotool search --onlyvisible --pid "$pid" --name "$title" 2>/dev/null); do
      if xdotool getwindowname "$w" 2>/dev/null | grep -Eq "$title"; then
        xdotool windowfocus --sync "$w"
        echo "$w"
        return 0
      fi
    done
    sleep 0.1
  done
  return 1
}
focus_window() { window_of "$1" '^Articulate'; }
# starts the program as this shell's own child (not in a $(...) subshell, whose exit would leave
# a killed program unreaped), its pid in $pid
start_app() {
  "$app" "$@" >"$tmp/app.log" 2>&1 &
  pid=$!
  pids+=("$pid")
}
recovery_written() { compgen -G "$recovery/*.owner.json" >/dev/null; }
recovery_empty() { ! compgen -G "$recovery/*" >/dev/null; }

# 1. autosave, SIGKILL, recover
cp "$models/double_pendulum.json" "$tmp/pendulum.json"
grep -q '"direction"' "$tmp/pendulum.json" && fail "the model should start without a saved camera direction"
start_app "$tmp/pendulum.json"
focus_window "$pid" >/dev/null
sleep 0.5
xdotool key shift+Right shift+Right ctrl+shift+c   # turn the view, then save it into the model
wait_for 30 recovery_written || fail "no autosave within 30 s: $(cat "$tmp/app.log")"
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
recovery_written || fail "the recovery files went with the process"
grep -q '"direction"' "$tmp/pendulum.json" && fail "the edit reached the model file before any save"

start_app  # no model: the recovery offer comes first
window_of "$pid" '^Recover Unsaved Changes$' >/dev/null
xdotool key Return                                  # Recover (the default button)
window_of "$pid" '^Articulate — pendulum.json' >/dev/null   # the recovered document is shown (its file's name)
sleep 0.3
xdotool key ctrl+s
wait_for 20 grep -q '"direction"' "$tmp/pendulum.json" || fail "the recovered edit was not saved"
"$cli" validate "$tmp/pendulum.json" >/dev/null || fail "the saved file does not validate"
xdotool key ctrl+q
wait_for 20 bash -c "! kill -0 $pid 2>/dev/null" || fail "the program did not quit"
recovery_empty || fail "recovery files left after a save and a clean exit: $(ls "$recovery")"
echo "recovered: the edit made before SIGKILL was restored and saved"

# 2. SIGKILL during saves. No autosave here: a kill before the save finished would leave a
# recovery file, and the next start would offer it (part 1 tests that) before showing the model
export ARTICULATE_AUTOSAVE_SECONDS=3600
rm -rf "$recovery"
"$cli" generate autotree --bodies 1500 --branching 1 -o "$tmp/big.json" >/dev/null
echo "big model: $(stat -c %s "$tmp/big.json") bytes"
# the last kill comes once the title says the save finished (no '*'), not after a fixed time:
# under a loaded machine (ctest -j2) 0.5 s was once too short for the save of this model
interrupted=0 olds=0 news=0 delays=(0 0.001 0.002 0.003 0.004 0.006 0.01 saved)
for delay in "${delays[@]}"; do
  cp "$tmp/big.json" "$tmp/before.json"
  start_app "$tmp/big.json"
  window_of "$pid" '^Articulate — ' >/dev/null      # the model is loaded and shown
  sleep 0.3
  # an edit (the saved file will differ), until the title marks it unsaved: in a fresh-root run
  # on 2026-11-29 the presses sent 0.3 s after the big model's window showed were not taken and
  # the title stayed clean for 30 s; what is tested here is the kill during the save after it
  for try in 1 2 3 4; do
    xdotool key shift+Left ctrl+shift+c
    find_window "$pid" '^Articulate — .*\*$' 10 >/dev/null && break
    [ "$try" -lt 4 ] || fail "the edit's key presses were not taken in 4 tries: $(tail -n 20 "$tmp/app.log")"
    echo "the edit's key presses were not taken within 10 s (try $try); pressing again"
    window_of "$pid" '^Articulate — ' >/dev/null
  done
  xdotool key ctrl+s
  if [ "$delay" = saved ]; then
    window_of "$pid" '^Articulate — .*[^*]$' >/dev/null   # saved: the title lost its '*'
  else
    sleep "$delay"
  fi
  kill -9 "$pid"
  wait "$pid" 2>/dev/null || true
  if cmp -s "$tmp/big.json" "$tmp/before.json"; then
    state=old
  else
    "$cli" validate "$tmp/big.json" >/dev/null || fail "torn file after a kill at +$delay s"
    grep -q '"direction"' "$tmp/big.json" || fail "a changed file without the edit after +$delay s"
    state=new
  fi
  [ "$state" = old ] && olds=$((olds + 1)) || news=$((news + 1))
  # a temporary file beside it means the kill landed inside the save
  if compgen -G "$tmp/big.json.tmp-*" >/dev/null; then
    interrupted=$((interrupted + 1))
    rm -f "$tmp"/big.json.tmp-*
  fi
  echo "kill at +${delay} after Ctrl+S: the file is the $state one"
done
echo "kills that landed inside a save: $interrupted of ${#delays[@]}; old file $olds times, new file $news times"
# the kills spanned the save: the late ones found it done (else the key presses never arrived
# and nothing above was tested)
[ "$news" -gt 0 ] || fail "no kill came after a finished save: the edits or Ctrl+S never arrived"
