#!/usr/bin/env bash
# The test command: set-up (scripts/setup.sh), then the whole Check suite via
# ctest; then the same suite built with AddressSanitizer + UBSan in
# build-asan/ (CCSIM_NO_ASAN=1 skips that second pass; built by clang where
# it is installed, with the fuzz targets), where the scale runs
# take a smaller form (CCSIM_TEST_SCALE=small: tests/testutil.h); then, if
# clang is installed, the fuzzers for $CCSIM_FUZZ_SECONDS each (default 6
# here, all at once; scripts/fuzz.sh, whose own default is 60; CCSIM_NO_FUZZ=1
# skips that third pass).
# After each ctest pass it prints that pass's ten slowest tests, so that a
# test drifting toward its timeout is seen early.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS

# ctest in build dir $1, its output also kept for the slowest-ten list.
run_ctest() {
  local dir=$1 log
  shift
  log=$(mktemp)
  local status=0
  ctest --test-dir "$dir" --output-on-failure -j "$(nproc)" "$@" 2>&1 | tee "$log" || status=$?
  echo "== the ten slowest tests of $dir (seconds)"
  grep -E '^ *[0-9]+/[0-9]+ Test +#' "$log" | awk '{print $(NF-1), $4}' | sort -rn | head -n 10 |
    awk '{printf "  %8.2f  %s\n", $1, $2}'
  rm -f "$log"
  return $status
}

# line tables only (-g1): the reports keep their lines, the builds take less
export CCSIM_DEBUG_INFO=${CCSIM_DEBUG_INFO:--g1}
# each suite's tests in its one process (Check's CK_FORK=no; a child per test
# costs a fork and page faults that are slow on a shared machine; test_event's
# exit test keeps its child: tu_run_suite_forked)
export CK_FORK=${CK_FORK:-no}
scripts/setup.sh
run_ctest "${CCSIM_BUILD_DIR:-build}"
if [ "${CCSIM_NO_ASAN:-}" != "1" ]; then
  echo "== the same tests under AddressSanitizer + UndefinedBehaviorSanitizer"
  # OpenMPI's runtime and LeakSanitizer do not mix: the sanitizer build is
  # without MPI (the MPI sweep is tested in the normal pass above). It is
  # optimised (-O1, ASan's advice): the sanitizers check the same, the suite
  # runs several times faster than at -O0, and the build (this pass's tests,
  # the fuzz targets) takes 8 s less than at -O2 for about the same test time.
  # With clang (setup.sh installs it unless CCSIM_NO_FUZZ=1) clang builds
  # this pass and the fuzz targets beside its tests, with libFuzzer's edge
  # counters only (CCSIM_FUZZ_COVERAGE=edges), so that the third pass
  # builds nothing (one sanitizer build where there were two: about 40 s of
  # this command); the dedicated scripts/fuzz.sh keeps its own, fully
  # instrumented build. Without clang, gcc builds it and the fuzzers are
  # skipped. (A build-asan/ made earlier keeps its compiler: CMake reads CC
  # only for a new build directory; fuzz.sh then builds its own.)
  with_fuzz=()
  if [ "${CCSIM_NO_FUZZ:-}" != "1" ] && command -v clang >/dev/null; then
    with_fuzz=(CC=clang CCSIM_FUZZ=ON CCSIM_FUZZ_COVERAGE=edges)
  fi
  env "${with_fuzz[@]}" CCSIM_BUILD_DIR=build-asan CCSIM_SANITIZE=ON CCSIM_BUILD_TYPE=RelWithDebInfo CCSIM_OPT=-O1 \
    CCSIM_MPI=OFF scripts/setup.sh >/dev/null
  # The model checking (verify_*) runs verifiers that rumur generates and cc
  # compiles without sanitizers: the normal pass runs them; here test_verify
  # checks ccsim's generation of every model. Two suites of the papers'
  # claims, test_seed001 and test_gen_seeds, are relations between runs of
  # machines and generators that test_shipped and test_gen run under the
  # sanitizers too: the normal pass checks them, and this pass stays inside
  # the command's 6 minutes (test_seed002 and 003 stay: they run machines
  # nothing else runs here). test_determinism compares runs' bytes, which the
  # sanitizers do not bear on: the normal pass checks it.
  # A smaller quarantine than ASan's 256 MB and shorter allocation stacks:
  # the suite's processes are short, a use after free is still caught
  # while its block waits in 32 MB of quarantine, and this pass spent a
  # tenth of its time faulting in fresh pages for the large one.
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:quarantine_size_mb=32:malloc_context_size=10 \
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    CCSIM_TEST_SCALE=small run_ctest build-asan -E '^(verify_|test_seed001$|test_gen_seeds$|test_determinism$)'
fi
if [ "${CCSIM_NO_FUZZ:-}" != "1" ] && command -v clang >/dev/null; then
  echo "== the fuzzers (scripts/fuzz.sh)"
  fuzz_dir=()
  if [ "${CCSIM_NO_ASAN:-}" != "1" ]; then fuzz_dir=(CCSIM_FUZZ_BUILD_DIR=build-asan); fi
  env "${fuzz_dir[@]}" scripts/fuzz.sh "${CCSIM_FUZZ_SECONDS:-6}"
fi
echo "== scripts/test.sh: every pass passed in $((SECONDS - start)) s"
