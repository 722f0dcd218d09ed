#!/bin/bash
# On a Hopper GPU: run the dense mma.sync probe (mma_dense_probe.cu's header). Writes to $OUT the module's
# PTX (the executor runs that same PTX afterwards), K_in.npy / K_out.npy for every kernel K,
# mma_dense.jsonl (one line a kernel) and gpu.txt; commit them as tests/data/exec/h200/mma_dense/.
set -u
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/mma_dense}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/gpu.txt"
nvcc --version | tail -2 >> "$OUT/gpu.txt"
nvcc -std=c++17 -arch=sm_90a -ptx mma_dense_probe.cu -o "$OUT/mma_dense_probe.ptx" || exit 1
nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a mma_dense_probe.cu -o /tmp/mma_dense_probe || exit 1
/tmp/mma_dense_probe "$OUT" | tee "$OUT/mma_dense.jsonl"
