#!/usr/bin/env bash
# The test command: set-up (scripts/setup.sh), then the whole Check suite via
# ctest; then the same suite built with AddressSanitizer + UBSan in
# build-asan/ (CCSIM_NO_ASAN=1 skips that second pass); then, if clang is
# installed, the fuzzers for $CCSIM_FUZZ_SECONDS each (default 60, both at
# once; scripts/fuzz.sh; CCSIM_NO_FUZZ=1 skips that third pass).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
ctest --test-dir "${CCSIM_BUILD_DIR:-build}" --output-on-failure -j "$(nproc)"
if [ "${CCSIM_NO_ASAN:-}" != "1" ]; then
  echo "== the same tests under AddressSanitizer + UndefinedBehaviorSanitizer"
  # OpenMPI's runtime and LeakSanitizer do not mix: the sanitizer build is
  # without MPI (the MPI sweep is tested in the normal pass above)
  CCSIM_BUILD_DIR=build-asan CCSIM_SANITIZE=ON CCSIM_BUILD_TYPE=Debug CCSIM_MPI=OFF \
    scripts/setup.sh >/dev/null
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    ctest --test-dir build-asan --output-on-failure -j "$(nproc)"
fi
if [ "${CCSIM_NO_FUZZ:-}" != "1" ] && command -v clang >/dev/null; then
  echo "== the fuzzers (scripts/fuzz.sh)"
  scripts/fuzz.sh
fi
