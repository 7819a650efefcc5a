#!/usr/bin/env bash
# The sanitizer stages of CI (issue 19), runnable by hand:
#   scripts/sanitize.sh asan   the engine and CLI tests (ctest -L engine) under AddressSanitizer
#                              and UndefinedBehaviorSanitizer, halting on the first report
#   scripts/sanitize.sh tsan   the simulator thread and recording tests under ThreadSanitizer
#                              (the tsan preset), the channel stress test included
# Each builds its own preset (build/asan, build/tsan) without the GUI, at -O1 -g1 (the
# sanitizers' recommended optimisation, and line tables for their reports: about half the
# compile time of -O2 -g). Needs the packages of scripts/setup-deps.sh. JOBS sets the
# parallelism (default: nproc).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${JOBS:-$(nproc)}
case "${1:-}" in
  asan)
    cmake --preset asan -DARTICULATE_BUILD_GUI=OFF >/dev/null
    cmake --build --preset asan -j "$jobs"
    # halt_on_error: the first report fails the test; detect_leaks: LeakSanitizer at exit
    export ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:detect_leaks=1:strict_string_checks=1
    export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
    ctest --preset asan -L engine -j "$jobs"
    ;;
  tsan)
    # the engine's thread tests: the simulator thread, its snapshot channel with a consumer
    # thread taking batches as the application's Playback does (the stress test), recordings.
    # Not test_playback: see tests/tsan.supp for why a GUI test under TSan cannot fail honestly.
    cmake --preset tsan >/dev/null
    cmake --build --preset tsan -j "$jobs" --target test_simulator test_system
    # halt_on_error: the first data race fails the test; the suppressions file names each
    # suppression and why
    export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$PWD/tests/tsan.supp"
    # ThreadSanitizer's shadow memory cannot take every address layout of a randomised
    # high-entropy mmap (kernels with vm.mmap_rnd_bits above 28): setarch -R turns it off
    runner=()
    if command -v setarch >/dev/null && setarch "$(uname -m)" -R true 2>/dev/null; then
      runner=(setarch "$(uname -m)" -R)
    fi
    tests='^(test_simulator|test_system)$'
    "${runner[@]}" ctest --test-dir build/tsan -R "$tests" --output-on-failure -j "$jobs"
    ;;
  *)
    echo "usage: scripts/sanitize.sh asan|tsan" >&2
    exit 2
    ;;
esac
