#!/usr/bin/env bash
# The include graph against the allowed arrows (docs/DESIGN.md, "Layout"):
# every #include "X" of a module's sources must name a header of the module
# itself or of a module it may use. CMake enforces the same by the include
# paths it gives each library; this check names the offending file:line.
# Usage: tests/check-layers.sh [SOURCE_ROOT]   (exit 1 on a violation)
set -euo pipefail
root=${1:-$(dirname "$0")/..}
cd "$root"

# module folder -> the modules it may include (besides itself)
declare -A allowed=(
  [sim]=""
  [topologies]="sim"
  [protocols]="sim topologies"
  [protocols/scc]="sim topologies protocols"
  [workloads/trace]="sim"
  [workloads/gen]="sim workloads/trace"
  [workloads/core]="sim topologies protocols workloads/trace"
  [validate]="sim"
  [cli/machine]="sim topologies protocols protocols/scc workloads/trace workloads/gen workloads/core"
  [cli]="sim topologies protocols protocols/scc workloads/trace workloads/gen workloads/core validate cli/machine"
)
# headers generated into the build tree, by the module that owns them
declare -A generated=([version.h]=sim)

# header name -> its module
declare -A owner=()
for m in "${!allowed[@]}"; do
  for h in "$m"/*.h; do
    [ -e "$h" ] && owner[$(basename "$h")]=$m
  done
done
for h in "${!generated[@]}"; do owner[$h]=${generated[$h]}; done

bad=0
for m in "${!allowed[@]}"; do
  files=()
  for f in "$m"/*.c "$m"/*.h; do [ -e "$f" ] && files+=("$f"); done
  [ ${#files[@]} -gt 0 ] || continue
  # one grep a module (a process per file is slow where processes start slowly)
  while IFS=: read -r f line header; do
    if [ -e "$m/$header" ]; then continue; fi # the module's own
    dep=${owner[$header]:-}
    if [ -z "$dep" ]; then
      echo "$f:$line: includes \"$header\", which is no module's header"
      bad=1
    elif [ "$dep" != "$m" ] && [[ " ${allowed[$m]} " != *" $dep "* ]]; then
      echo "$f:$line: includes \"$header\" of $dep/, which $m/ may not use" \
        "(it may use: ${allowed[$m]:-nothing})"
      bad=1
    fi
  done < <(grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "${files[@]}" |
    sed -E 's/^([^:]+):([0-9]+):[^"]*"([^"]+)".*/\1:\2:\3/')
done
if [ $bad -eq 0 ]; then
  echo "layers: every include follows the allowed arrows (${#allowed[@]} modules)"
fi
exit $bad
