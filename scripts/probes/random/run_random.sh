#!/bin/bash
# On the device: build the probe, run every case line of $1 in its own process (4 at a time; a
# faulting case kills only its own context), write one JSON line per case to $2 (unsorted).
set -u
cd "$(dirname "$0")"
nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a tma_random_probe.cu -lcuda -o /tmp/rprobe || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
runone() {
  out=$(timeout 20 /tmp/rprobe $1 2>/dev/null); rc=$?
  [ -z "$out" ] && out="{\"case_id\":\"${1%% *}\",\"probe_rc\":$rc}"
  echo "$out"
}
export -f runone
tr '\n' '\0' < "$1" | xargs -0 -P 6 -I{} bash -c 'runone "$@"' _ {} > "$2"
echo done $(wc -l < "$2")
