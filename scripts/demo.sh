#!/usr/bin/env bash
# The main job on a default: set-up, then a demo on a shipped config.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh >/dev/null
echo "== the machine: configs/knc-5110p.cfg, as ccsim reads it"
build/ccsim config -c configs/knc-5110p.cfg
echo
echo "== the event kernel: hold model, 65536 pending events"
build/ccsim bench engine --pending 65536
