#!/usr/bin/env bash
# The event kernel beside a peer: the same hold model (65 536 pending, delays
# 1-100 cycles) in ccsim (`ccsim bench engine`) and in SimPy (Debian's
# python3-simpy3, run with Debian's /usr/bin/python3), and the ratio.
# Usage: bench/peers/run.sh [PENDING] [SIMPY_EVENTS]
# On a fresh machine it builds ccsim (scripts/setup.sh) and installs Debian's
# python3 and python3-simpy3 with apt when they are missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
pending=${1:-65536}
simpy_events=${2:-1000000}
[ -x build/ccsim ] || scripts/setup.sh
if ! /usr/bin/python3 -c 'import simpy' 2>/dev/null; then
  echo "peers: installing Debian's python3-simpy3" >&2
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  if ! { $sudo apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
      python3 python3-simpy3 >/dev/null; }; then
    echo "peers: could not install python3-simpy3; as root: apt-get update &&" \
      "apt-get install python3-simpy3" >&2
    exit 2
  fi
fi
ccsim=$(build/ccsim bench engine --pending "$pending" | sed -n 's/^events_per_s=//p')
simpy=$(/usr/bin/python3 bench/peers/simpy_hold.py "$pending" "$simpy_events" | sed -n 's/^events_per_s=//p')
echo "ccsim events_per_s=$ccsim"
echo "simpy events_per_s=$simpy"
awk -v a="$ccsim" -v b="$simpy" 'BEGIN { printf "ratio ccsim/simpy=%.0f\n", a / b }'
