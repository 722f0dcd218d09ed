#!/bin/bash
# Run on the device: builds the im2col probe and runs every case of $1 (one process per case, so a
# faulting case cannot poison the next). Output: one JSON line per case to $2.
set -u
cd "$(dirname "$0")"
nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a im2col_probe.cu -lcuda -o /tmp/i2cprobe || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
while read -r line; do
  line="${line%%#*}"
  [ -z "${line// }" ] && continue
  out=$(timeout 20 /tmp/i2cprobe $line 2>/dev/null)
  rc=$?
  if [ -z "$out" ]; then out="{\"id\":\"${line%% *}\",\"probe_rc\":$rc}"; fi
  echo "$out" >> "$2"
done < "$1"
echo done $(wc -l < "$2")
