#!/usr/bin/env bash
# The test command: set-up (scripts/setup.sh), then the whole Check suite via ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
ctest --test-dir "${CCSIM_BUILD_DIR:-build}" --output-on-failure -j "$(nproc)"
