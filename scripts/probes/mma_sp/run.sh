#!/bin/bash
# On the H100: run the h/mmasp15 probe (README.md). Writes to $OUT the module's PTX (the executor runs that
# same PTX afterwards), K_in.npy / K_out.npy for every kernel K, mma_sp.jsonl (one line a kernel) and gpu.txt.
set -u
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/mma_sp}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/gpu.txt"
nvcc --version | tail -2 >> "$OUT/gpu.txt"
nvcc -std=c++17 -arch=sm_90a -ptx mma_sp_probe.cu -o "$OUT/mma_sp_probe.ptx" || exit 1
nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a mma_sp_probe.cu -o /tmp/mma_sp_probe || exit 1
/tmp/mma_sp_probe "$OUT" | tee "$OUT/mma_sp.jsonl"
