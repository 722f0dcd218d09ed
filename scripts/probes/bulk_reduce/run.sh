#!/bin/bash
# On the H100: build the plain cp.reduce.async.bulk probe and record every form to $OUT/bulk_reduce_h100.jsonl
# (README.md here). Each form runs in its own process: one the GPU refuses is one error line.
set -u
cd "$(dirname "$0")"
OUT=${OUT:-/tmp}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a bulk_reduce_probe.cu -o /tmp/bulk_reduce_probe || exit 1
log="$OUT/bulk_reduce_h100.jsonl"
: > "$log"
for form in $(/tmp/bulk_reduce_probe); do
  timeout 30 /tmp/bulk_reduce_probe "$form" >> "$log" ||
    echo "{\"case\": \"bulk_reduce\", \"form\": \"$form\", \"error\": \"exit $?\"}" >> "$log"
done
wc -l "$log"
grep -c '"error"' "$log"
