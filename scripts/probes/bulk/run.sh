#!/bin/bash
# On the H100: build the bulk-copy probe and record every case to $OUT/bulk.jsonl
# (scripts/probes/bulk/README.md). Each reduce (OP, DTYPE) runs in its own process, so a combination
# the GPU refuses (illegal instruction) is one error line, not the end of the run.
set -u
cd "$(dirname "$0")"
OUT=${OUT:-/tmp}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a bulk_probe.cu -o /tmp/bulk_probe || exit 1
log="$OUT/bulk.jsonl"
: > "$log"
timeout 60 /tmp/bulk_probe copy >> "$log"
for op in add min max inc dec and or xor; do
  for dt in UINT8 UINT16 UINT32 INT32 UINT64 INT64 FLOAT16 BFLOAT16 FLOAT32 FLOAT64; do
    timeout 30 /tmp/bulk_probe reduce $op $dt >> "$log" || echo "{\"case\": \"reduce\", \"op\": \"$op\", \"dtype\": \"$dt\", \"error\": \"exit $?\"}" >> "$log"
  done
done
wc -l "$log"
grep -c '"error"' "$log"
