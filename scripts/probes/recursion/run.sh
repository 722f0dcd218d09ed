#!/bin/bash
# On the H100/H200: run the recursion probe (README.md); writes $OUT/recursion.txt and $OUT/recur_n{0,3}.npy.
set -u
cd "$(dirname "$0")"
OUT=${OUT:-/tmp}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/recursion.txt"
nvcc --version | tail -1 | tee -a "$OUT/recursion.txt"
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a recursion_probe.cu -o /tmp/recursion_probe || exit 1
/tmp/recursion_probe "$OUT" | tee -a "$OUT/recursion.txt"
