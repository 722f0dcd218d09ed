#!/bin/bash
# On the H100: build the probe and record the executor-test kernels' output bytes to $OUT (default
# /tmp/exec_tma). Commit the .bin files to tests/data/exec/h200/ with the log (README.md there).
set -eu
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/exec_tma}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/log.txt"
nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a probe.cu -o /tmp/exec_tma_probe -lcuda
/tmp/exec_tma_probe "$OUT" | tee -a "$OUT/log.txt"
