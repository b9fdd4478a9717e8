#!/usr/bin/env bash
# Fails if README.md or a text file under docs/ shows an absolute path of a
# checkout (the folder someone built in, e.g. /home/ann/ccsim/configs/x.cfg):
# docs show paths relative to the repository. A path counts when it is
# absolute and reaches into one of the repository's own top-level entries
# (configs/, docs/, workloads/, build/, ...); system paths (/usr, /etc,
# /opt, /dev, /proc) do not. Prints FILE:LINE: the path, and exits 1.
# Usage: tests/check-doc-paths.sh ROOT
set -euo pipefail
root=${1:?usage: check-doc-paths.sh ROOT}
cd "$root"
top='(configs|docs|workloads|build|scripts|tests|cli|sim|protocols|topologies|validate|bench|README\.md|CMakeLists\.txt)'
path="(/[A-Za-z0-9._+-]+)+/$top([/\"'\`) ,:;]|\$)"
status=0
while IFS= read -r hit; do
  file=${hit%%:*}
  rest=${hit#*:}
  line=${rest%%:*}
  match=${rest#*:}
  match=${match#[^/]}  # the character before the path, if any
  case $match in /usr/* | /etc/* | /opt/* | /dev/* | /proc/*) continue ;; esac
  echo "$file:$line: an absolute path of a checkout: $match (use a path relative to the repository)"
  status=1
done < <(grep -rnIoE "(^|[^A-Za-z0-9._~:/-])$path" README.md docs || true)
exit $status
