#!/usr/bin/env bash
# Writes what ccsim prints for a fixed set of commands into DIR, one file a
# command, with the wall-clock fields removed, so that two builds can be
# compared byte for byte (`diff -r BEFORE AFTER`): a refactoring or a speed
# change must leave every simulated figure as it was.
# Usage: scripts/snapshot-outputs.sh CCSIM_BINARY DIR [--quick]
#   --quick leaves out the slow ones (microbench of the KNC and the 1024-core mesh).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(readlink -f "$1")
out=$2
quick=${3:-}
mkdir -p "$out"
export CCSIM_CONFIG_DIR="$PWD/configs"
# The wall-clock figures of run's text and JSON, and the paths of this checkout.
scrub() { sed -E -e 's/"(wall_s|events_per_s)": [0-9.e+-]+/"\1": -/g' \
  -e 's#[0-9.]+ s wall, [0-9.]+ M events/s#- s wall, - M events/s#' -e "s#$PWD#.#g"; }
snap() {
  local name=$1
  shift
  { "$bin" "$@" 2>&1; echo "exit $?"; } | scrub >"$out/$name.txt" || true
}
snapjson() {
  local name=$1
  shift
  "$bin" "$@" --json "$out/$name.json.tmp" >/dev/null 2>&1 || true
  scrub <"$out/$name.json.tmp" >"$out/$name.json" && rm -f "$out/$name.json.tmp"
}
for cfg in teach-xbar snb-e5-2660 opteron-6272 scc knc-5110p mesh-1024; do
  if [ -n "$quick" ] && { [ $cfg = knc-5110p ] || [ $cfg = mesh-1024 ]; }; then continue; fi
  snap "microbench-$cfg" microbench -c $cfg
done
for cfg in knc-5110p snb-e5-2660; do
  snap "validate-fitted-$cfg" validate -c $cfg --params fitted
done
snapjson demo-mesi run -c teach-xbar workloads/traces/many-to-one.trace --check
snapjson demo-gols run -c teach-xbar workloads/traces/many-to-one.trace --check --set 'machine.protocol="gols"'
snapjson knc-barrier-240 run -c knc-5110p -w barrier-dissemination -t 240 -i 20
for p in msi mesi mesif mesif-llc moesi gols scc; do
  snap "protocol-$p" protocol $p
done
snap explain-lab2 explain -c teach-xbar docs/labs/02-line-stealing/polled.trace
snap explain-lab2-unpolled explain -c teach-xbar docs/labs/02-line-stealing/unpolled.trace
for t in docs/labs/*/*.trace; do
  lab=$(basename "$(dirname "$t")")
  case $lab in 03-*) cfg=knc-5110p ;; 04-*) cfg=snb-e5-2660 ;; 05-*) cfg=scc ;; *) cfg=teach-xbar ;; esac
  snap "lab-$lab-$(basename "$t" .trace)" run -c $cfg "$t"
done
snap list-configs list configs
snap list-protocols list protocols
snap list-generators list generators
for cfg in teach-xbar knc-5110p scc; do snap "config-$cfg" config -c $cfg; done
echo "snapshot: $(ls "$out" | wc -l) files in $out"
