#!/usr/bin/env bash
# The long random-tester run: 10^6 operations x 20 seeds for every protocol
# on every config given (default: the teaching crossbar), 16 cores (32 where
# the caches are shared by 8 in each of 4 sockets), tiny
# caches, message jitter. Prints one line a run and a total; exits 1 on any
# violation, unexpected row or deadlock. A protocol the config refuses (GOLS
# or mesif-llc on a machine without a probe filter: they have no broadcast
# form; any but MOESI on the Opteron, whose owned-write key is MOESI's) is
# skipped with the config's reason, not counted as a failure. Not part of
# ctest (minutes).
# Usage: bench/stress-long.sh [OPS] [SEEDS] [CONFIG ...]   (after scripts/setup.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
ops=${1:-1000000}
seeds=${2:-20}
shift $(( $# > 2 ? 2 : $# )) || true
configs=("$@")
[ ${#configs[@]} -eq 0 ] && configs=(teach-xbar)
total_ops=0 total_checks=0 total_viol=0 failed=0 runs=0 skipped=0
start=$(date +%s)
for cfg in "${configs[@]}"; do
  protocols=(msi mesi mesif mesif-llc moesi gols)
  # the SCC has no coherence: its own tester (MPB puts and gets, flags)
  build/ccsim config -c "$cfg" | grep -q '^  protocol *"scc"' && protocols=(scc)
  for p in "${protocols[@]}"; do
    # 16 cores and 4 homes (a home a socket where there are more sockets);
    # mesif-llc's home is an LLC: a config without one gets a hit time
    sets=(--set "machine.protocol=\"$p\"" --set machine.cores=16 --set home.count=4)
    [ "$p" = scc ] && sets=()
    why=$(build/ccsim config -c "$cfg" "${sets[@]}" 2>&1 >/dev/null || true)
    [[ $why == *"not a multiple of machine.sockets"* ]] &&
      sets=(--set "machine.protocol=\"$p\"" --set machine.cores=16 --set home.count=8)
    # caches of 8 cores in 4 sockets (Niagara2) need 32 cores
    [[ $why == *"do not divide into whole caches"* ]] &&
      sets=(--set "machine.protocol=\"$p\"" --set machine.cores=32 --set home.count=4)
    build/ccsim config -c "$cfg" "${sets[@]}" >/dev/null 2>&1 ||
      sets+=(--set home.llc_cycles=20)
    if ! why=$(build/ccsim config -c "$cfg" "${sets[@]}" 2>&1 >/dev/null); then
      echo "$cfg $p: skipped: $why"
      skipped=$((skipped+1))
      continue
    fi
    for seed in $(seq 1 "$seeds"); do
      out=$(build/ccsim stress -c "$cfg" "${sets[@]}" --ops "$ops" --seed "$seed" 2>&1) ||
        { failed=$((failed+1)); echo "$out"; }
      line=$(echo "$out" | grep '^ops ' || true) # none when a run stops on a missing row
      read -r _ o _ c _ v _ <<<"$line"
      total_ops=$((total_ops+o)) total_checks=$((total_checks+c)) total_viol=$((total_viol+v))
      runs=$((runs+1))
      echo "$cfg $p seed $seed: $line"
    done
  done
done
echo "total: $runs runs, $total_ops ops, $total_checks checks, $total_viol violations, $failed failed runs, $skipped config/protocol pairs skipped, $(( $(date +%s) - start )) s"
[ "$failed" -eq 0 ] && [ "$total_viol" -eq 0 ]
