#!/usr/bin/env bash
# Fuzzes every input surface (tests/fuzz/README.md): each libFuzzer harness runs for SECONDS
# (default 30, CI's stage; 600 by hand) from a seeded corpus made of the project's own files,
# with a fixed seed, and stops at the first finding (a sanitizer report, an escaped exception,
# a broken round trip, a timeout or running out of memory), whose input it keeps under
# build/fuzz/artifacts/ and prints. Each harness's figures (executions, corpus, coverage) are
# printed at its end. Each harness is one process on one core, so JOBS of them (default: nproc)
# run at once, each for its full SECONDS.
#   scripts/fuzz.sh [SECONDS] [HARNESS...]
# Installs clang and libFuzzer's runtime (Debian 12: clang, libclang-rt-14-dev) besides
# scripts/setup-deps.sh's packages. JOBS sets the build's and the runs' parallelism (default:
# nproc).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
shift || true
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(fuzz_model_loader fuzz_spatial_v2 fuzz_urdf fuzz_mjcf fuzz_rigid_body fuzz_structure fuzz_appearance fuzz_sweep fuzz_mesh fuzz_slurm fuzz_recording fuzz_controls)
jobs=${JOBS:-$(nproc)}
scripts/setup-deps.sh --fuzz
# the harnesses are built in the asan preset (clang, -O1 -g1, ASan and UBSan, a unity build),
# beside the engine's tests (scripts/sanitize.sh asan), which compiles the layers that read
# input with libFuzzer's coverage (engine/CMakeLists.txt); the runs' files go to build/fuzz
cmake --preset asan >/dev/null
cmake --build --preset asan -j "$jobs" --target "${harnesses[@]}"
bin=build/asan/tests/fuzz
build=build/fuzz

# seeds: the example models, the malformed files and fuzz regressions of the test suite, the
# reference data's spatial_v2 models (with their motions), URDF robots written here and the
# drawing-instruction lists of the models; fresh each run, so that a run is repeatable
seeds=$build/seeds
rm -rf "$seeds" && mkdir -p "$seeds" "$build/artifacts"
python3 tests/fuzz/make_seeds.py "$seeds"

export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1
export LSAN_OPTIONS=suppressions=$PWD/tests/fuzz/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
run_harness() {  # run_harness NAME: one harness for $seconds; its exit status is the finding
  local h=$1 corpus dict extra=()
  case "$h" in
    fuzz_urdf) corpus=urdf dict=tests/fuzz/urdf.dict ;;
    fuzz_mjcf) corpus=mjcf dict=tests/fuzz/mjcf.dict ;;
    fuzz_appearance) corpus=appearance dict=tests/fuzz/model.dict ;;
    fuzz_sweep) corpus=sweep dict=tests/fuzz/model.dict ;;
    # the mesh reader's child is a fork of the harness and inherits libFuzzer's malloc limit
    # (a single allocation past -rss_limit_mb reports "out-of-memory" from the child, which the
    # harness survives): the child's memory has its own watch (formats/mesh.h)
    fuzz_mesh) corpus=mesh dict=tests/fuzz/mesh.dict extra=(-malloc_limit_mb=1048576) ;;
    fuzz_slurm) corpus=slurm dict=tests/fuzz/slurm.dict ;;
    fuzz_recording) corpus=recording dict= ;;
    fuzz_controls) corpus=controls dict= ;;
    *) corpus=json dict=tests/fuzz/model.dict ;;
  esac
  local work=$build/corpus/$h
  rm -rf "$work" && mkdir -p "$work"
  echo "fuzz: $h for $seconds s from $(ls "$seeds/$corpus" | wc -l) seeds"
  # -seed fixes the mutations; -max_len fits the largest seeds; -timeout and -rss_limit_mb
  # make a hang or a memory blow-up a finding too
  "$bin/$h" -seed=1 -max_total_time="$seconds" -max_len=131072 -timeout=10 \
    -rss_limit_mb=2048 ${dict:+-dict="$dict"} "${extra[@]}" -print_final_stats=1 \
    -artifact_prefix="$build/artifacts/$h-" "$work" "$seeds/$corpus" 2>"$build/$h.log"
}

failed=()
report() {  # report NAME STATUS: the harness's figures, and its log's tail after a finding
  local h=$1 rc=$2
  if [ "$rc" -ne 0 ]; then
    failed+=("$h")
    tail -n 60 "$build/$h.log"
  fi
  echo "fuzz: $h: $(grep -E "^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)|INITED|DONE" "$build/$h.log" | tr '\n' ' ')"
}

# each harness is one process on one core: JOBS of them run at once, each for its full time,
# and report in the order given when their batch is done
for ((i = 0; i < ${#harnesses[@]}; i += jobs)); do
  batch=("${harnesses[@]:i:jobs}")
  pids=()
  for h in "${batch[@]}"; do
    run_harness "$h" &
    pids+=($!)
  done
  for k in "${!batch[@]}"; do
    rc=0
    wait "${pids[k]}" || rc=$?
    report "${batch[k]}" "$rc"
  done
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: findings in ${failed[*]} (inputs under $build/artifacts/)" >&2
  exit 1
fi
echo "fuzz: no findings in ${#harnesses[@]} harnesses"
