#!/usr/bin/env bash
# Fuzzing: builds the libFuzzer targets of tests/fuzz/ with clang in
# build-fuzz/ (CCSIM_FUZZ=ON: ASan + UBSan + libFuzzer; or takes them from
# $CCSIM_FUZZ_BUILD_DIR, below) and runs each one
# SECONDS seconds (default 60, or $CCSIM_FUZZ_SECONDS), all at once, from
# the seed corpus tests/fuzz/corpus/TARGET/ (the seeds are copied: new inputs
# stay in build-fuzz/corpus/). Exit 1 if a target crashes: its input is in
# build-fuzz/crashes/; copy it into tests/fuzz/regressions/TARGET/ so that
# ctest's test_fuzz_regressions replays it in every build.
# Usage: scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-${CCSIM_FUZZ_SECONDS:-60}}
targets=(trace config sweep)
# CCSIM_FUZZ_BUILD_DIR: a build that has the targets built already (the
# sanitizer pass of scripts/test.sh builds them beside its tests, with edge
# counters only: CCSIM_FUZZ_COVERAGE=edges); else build-fuzz/, fully
# instrumented
built() {
  for target in "${targets[@]}"; do [ -x "$1/tests/fuzz/fuzz_$target" ] || return 1; done
}
build=${CCSIM_FUZZ_BUILD_DIR:-}
if [ -z "$build" ] || ! built "$build"; then
  build=build-fuzz
  command -v clang >/dev/null || { echo "fuzz: clang is not installed" >&2; exit 2; }
  CC=clang cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCCSIM_FUZZ=ON \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -gline-tables-only -DNDEBUG" \
    -DCCSIM_TESTS=OFF -DCCSIM_MPI=OFF >/dev/null
  cmake --build "$build" -j "$(nproc)" --target fuzz_trace fuzz_config fuzz_sweep >/dev/null
fi
export LSAN_OPTIONS="suppressions=$PWD/tests/fuzz/lsan.supp"
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
mkdir -p "$build/crashes"
pids=()
for target in "${targets[@]}"; do
  corpus="$build/corpus/$target"
  mkdir -p "$corpus"
  cp -n tests/fuzz/corpus/"$target"/* "$corpus"/ || true
  "$build/tests/fuzz/fuzz_$target" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
    -print_final_stats=1 -artifact_prefix="$build/crashes/$target-" "$corpus" \
    >"$build/fuzz_$target.log" 2>&1 &
  pids+=($!)
done
status=0
for i in "${!targets[@]}"; do
  target=${targets[$i]}
  if wait "${pids[$i]}"; then
    echo "fuzz $target: $(grep -a -m1 '^stat::number_of_executed_units' "$build/fuzz_$target.log" |
      sed 's/.*: *//') inputs in ${seconds}s, no crash"
  else
    status=1
    echo "fuzz $target: CRASH (log $build/fuzz_$target.log):" >&2
    grep -a -A30 -m1 -E '^==[0-9]+==ERROR|runtime error|deadly signal|fuzz target exited' \
      "$build/fuzz_$target.log" >&2 || tail -n 40 "$build/fuzz_$target.log" >&2
    echo "fuzz $target: the input is in $build/crashes/; copy it into tests/fuzz/regressions/$target/" >&2
  fi
done
exit $status
