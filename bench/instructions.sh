#!/usr/bin/env bash
# Instructions per simulated iteration of each `ccsim bench workloads`
# reference, counted by valgrind's callgrind: deterministic, unlike wall time
# on a shared machine. Each reference runs at two iteration counts, LO and HI;
# the difference of the two counts divided by HI - LO cancels the set-up
# (loading, building the machine, the first touches). Prints one line each:
#   NAME instr_per_iter=I instr_per_sim_us=U  (LO=.. HI=.. Ir_lo=.. Ir_hi=..)
# instr_per_sim_us divides by the simulated time the extra iterations took.
# Usage: bench/instructions.sh [--only NAME]   (CCSIM=path/to/ccsim)
# Takes a few minutes: callgrind runs about 50x slower than the binary.
set -euo pipefail
cd "$(dirname "$0")/.."
ccsim=${CCSIM:-build/ccsim}
only=""
if [ "${1:-}" = "--only" ]; then only=${2:?--only needs a NAME}; fi
case "$only" in
  "" | knc-barrier-240 | snb-bcast-8k | mesh1024-barrier | scc-allreduce-552) ;;
  *)
    echo "bench/instructions.sh: --only $only: no such reference (knc-barrier-240," \
      "snb-bcast-8k, mesh1024-barrier, scc-allreduce-552)" >&2
    exit 2
    ;;
esac
command -v valgrind >/dev/null || {
  echo "bench/instructions.sh: valgrind is not installed (scripts/setup.sh installs it)" >&2
  exit 2
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The references: name, config, workload, threads, LO, HI (the same runs as
# cli/cli_bench_workloads.c, at iteration counts callgrind can afford).
refs=(
  "knc-barrier-240 knc-5110p barrier-dissemination 240 5 15"
  "snb-bcast-8k snb-e5-2660 bcast-multiline:lines=128 16 5 15"
  "mesh1024-barrier mesh-1024 barrier-dissemination 1024 1 3"
  "scc-allreduce-552 scc scc-allreduce:elements=552 48 1 3"
)

# Instructions of one run ($1 config, $2 workload, $3 threads, $4 iterations);
# its simulated ns into $tmp/sim_ns.
count() {
  local out=$tmp/cg.out json=$tmp/run.json
  valgrind --tool=callgrind --callgrind-out-file="$out" \
    "$ccsim" run -c "$1" -w "$2" -t "$3" -i "$4" --json "$json" >/dev/null 2>"$tmp/vg.err" || {
    cat "$tmp/vg.err" >&2
    exit 1
  }
  grep -o '"simulated_ns": [0-9]*' "$json" | awk '{print $2}' >"$tmp/sim_ns"
  awk '/^(summary|totals):/ {print $2; exit}' "$out"
}

for r in "${refs[@]}"; do
  read -r name cfg wl threads lo hi <<<"$r"
  if [ -n "$only" ] && [ "$only" != "$name" ]; then continue; fi
  ir_lo=$(count "$cfg" "$wl" "$threads" "$lo")
  ns_lo=$(cat "$tmp/sim_ns")
  ir_hi=$(count "$cfg" "$wl" "$threads" "$hi")
  ns_hi=$(cat "$tmp/sim_ns")
  awk -v n="$name" -v a="$ir_lo" -v b="$ir_hi" -v lo="$lo" -v hi="$hi" -v sa="$ns_lo" -v sb="$ns_hi" 'BEGIN {
    per = (b - a) / (hi - lo)
    us = (sb - sa) / 1000
    printf "%-18s instr_per_iter=%.0f instr_per_sim_us=%.0f  (LO=%d HI=%d Ir_lo=%.0f Ir_hi=%.0f)\n",
      n, per, (us > 0 ? (b - a) / us : 0), lo, hi, a, b
  }'
done
