#!/usr/bin/env bash
# Set-up on a fresh Debian machine: installs what is missing with apt (rumur,
# for `ccsim verify`, among it), then configures and builds ccsim in build/.
# Safe to run again (it only rebuilds).
# CI=true (or CCSIM_WERROR=ON) turns warnings into errors. CCSIM_BUILD_DIR,
# CCSIM_BUILD_TYPE, CCSIM_SANITIZE, CCSIM_MPI, CCSIM_FUZZ and
# CCSIM_FUZZ_COVERAGE pass on to CMake's options of those names; CC, as
# CMake reads it, picks the compiler of a new build directory.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(gcc make cmake pkg-config libconfig-dev check gnuplot-nox rumur)
# clang and its runtime for the fuzzers (scripts/fuzz.sh), unless they are skipped
if [ "${CCSIM_NO_FUZZ:-}" != "1" ]; then packages+=(clang libclang-rt-14-dev); fi
# Optional: OpenMPI for `mpirun -n N ccsim sweep` (docs/cluster.md); CCSIM_MPI=OFF skips it.
if [ "${CCSIM_MPI:-ON}" != "OFF" ]; then packages+=(openmpi-bin libopenmpi-dev); fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

werror=OFF
if [ "${CI:-}" = "true" ] || [ "${CCSIM_WERROR:-}" = "ON" ]; then werror=ON; fi
build=${CCSIM_BUILD_DIR:-build}
# CCSIM_OPT: the optimisation flag of the RelWithDebInfo build (default -O2;
# scripts/test.sh builds its sanitizer pass at -O1).
# CCSIM_DEBUG_INFO: the debug-info flag of the RelWithDebInfo build (default
# -g; the test command uses -g1, line tables only, which still gives the
# sanitizers' reports their lines and compiles a fifth faster)
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE="${CCSIM_BUILD_TYPE:-RelWithDebInfo}" \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="${CCSIM_OPT:--O2} ${CCSIM_DEBUG_INFO:--g} -DNDEBUG" \
  -DCCSIM_WERROR="$werror" -DCCSIM_SANITIZE="${CCSIM_SANITIZE:-OFF}" -DCCSIM_MPI="${CCSIM_MPI:-ON}" \
  -DCCSIM_FUZZ="${CCSIM_FUZZ:-OFF}" -DCCSIM_FUZZ_COVERAGE="${CCSIM_FUZZ_COVERAGE:-full}" >/dev/null
cmake --build "$build" -j "$(nproc)"
