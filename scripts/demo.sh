#!/usr/bin/env bash
# The main job on a default: set-up, then a built-in demo on a shipped config:
# many-to-one polling on one line, where line stealing emerges.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh >/dev/null
trace=workloads/traces/many-to-one.trace
echo "== $trace on configs/teach-xbar.cfg (4 cores, crossbar), MESI, checker on"
build/ccsim run -c configs/teach-xbar.cfg "$trace" --check
echo
echo "== the same trace under GOLS (Xeon Phi's tag-directory protocol)"
build/ccsim run -c configs/teach-xbar.cfg "$trace" --check --set 'machine.protocol="gols"'
