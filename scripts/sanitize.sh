#!/usr/bin/env bash
# The sanitizer stages of CI (issue 19), runnable by hand:
#   scripts/sanitize.sh asan   the engine and CLI tests (ctest -L engine) under AddressSanitizer
#                              and UndefinedBehaviorSanitizer (clang), halting on the first
#                              report; the build (the asan preset) also holds the fuzz harnesses
#   scripts/sanitize.sh tsan   the simulator thread, recording, playback and sweep tests under
#                              ThreadSanitizer (the tsan preset), the channel stress test included
# Each builds its own preset (build/asan with clang, without the GUI; build/tsan with GCC and the
# GUI), at -O1 -g1 (the
# sanitizers' recommended optimisation, and line tables for their reports: about half the
# compile time of -O2 -g), as unity builds (CMAKE_UNITY_BUILD: a layer's sources compiled a few
# at a time, so that Eigen's templates and the JSON headers are instantiated and parsed once per
# batch; the release build keeps one object per source and so still checks each file's own
# includes). Needs the packages of scripts/setup-deps.sh (asan installs clang's, --fuzz). JOBS
# sets the parallelism (default: nproc).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${JOBS:-$(nproc)}
case "${1:-}" in
  asan)
    # clang (the asan preset): its sanitizer builds compile in two thirds of GCC's time, and the
    # same build holds the fuzz harnesses that scripts/fuzz.sh runs
    scripts/setup-deps.sh --fuzz
    cmake --preset asan >/dev/null
    cmake --build --preset asan -j "$jobs"
    # halt_on_error: the first report fails the test; detect_leaks: LeakSanitizer at exit
    export ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:detect_leaks=1:strict_string_checks=1
    export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
    # a report's stack with function names and lines (an address-only stack from CI, without
    # the build it came from, cannot be read afterwards)
    if [ -x /usr/lib/llvm-14/bin/llvm-symbolizer ]; then
      export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-14/bin/llvm-symbolizer
    fi
    ctest --preset asan -L engine -j "$jobs"
    ;;
  tsan)
    # the thread tests: the simulator thread and its snapshot channel with a consumer thread
    # taking batches as the application's Playback does (the stress test), recordings, and the
    # application's playback (test_playback: the GUI thread driving a live simulation, plots
    # and export), under Xvfb like the other GUI tests; and the sweep runner's thread pool
    # (test_sweep's in-process sweeps: workers sharing the base model and appending to one
    # results part, stopped and resumed; its command-line functions add nothing threaded)
    scripts/setup-deps.sh  # GCC's ThreadSanitizer (clang 14's aborts in test_playback)
    cmake --preset tsan >/dev/null
    cmake --build --preset tsan -j "$jobs" --target test_simulator test_system test_playback test_sweep
    # halt_on_error: the first data race fails the test. The suppressions file names each
    # suppression and why; so does each flag here, all for Debian's uninstrumented Qt, X and
    # Mesa (the engine and the application are instrumented and keep every check):
    #  - die_after_fork=0: the export starts ffmpeg with QProcess, a fork from a process with
    #    threads whose child only calls exec;
    #  - detect_deadlocks=0: Mesa's llvmpipe holds more locks at once than TSan's lock-order
    #    detector can track (64), which aborts the process (a CHECK failure inside TSan);
    #  - report_mutex_bugs=0, report_destroy_locked=0: Xlib locks the display in one ignored
    #    library (called_from_lib) and unlocks or destroys it in another, which TSan's mutex
    #    bookkeeping reports as unlocking an unlocked mutex; these are not data-race reports.
    export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$PWD/tests/tsan.supp \
die_after_fork=0 detect_deadlocks=0 report_mutex_bugs=0 report_destroy_locked=0"
    # ThreadSanitizer's shadow memory cannot take every address layout of a randomised
    # high-entropy mmap (kernels with vm.mmap_rnd_bits above 28): setarch -R turns it off
    runner=()
    if command -v setarch >/dev/null && setarch "$(uname -m)" -R true 2>/dev/null; then
      runner=(setarch "$(uname -m)" -R)
    fi
    if command -v xvfb-run >/dev/null; then
      runner+=(xvfb-run -a -s "-screen 0 1920x1080x24")
    fi
    tests='^(test_simulator|test_system|test_playback)$'
    "${runner[@]}" ctest --test-dir build/tsan -R "$tests" --output-on-failure -j "$jobs"
    "${runner[@]}" build/tsan/tests/test_sweep independentOfThreadsAndTasks randomReproducesWithSeed \
      interruptAndResumeLoseNothing divergedAndInvalidRunsAreRows resultsAsTheAppReadsThem vectorisedSweeps
    ;;
  *)
    echo "usage: scripts/sanitize.sh asan|tsan" >&2
    exit 2
    ;;
esac
