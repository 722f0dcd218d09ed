#!/bin/bash
# On the H100: print the shared::cta / shared::cluster address values of a 4-CTA cluster (README.md).
set -u
cd "$(dirname "$0")"
OUT=${OUT:-/tmp}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a smem_rank_probe.cu -o /tmp/smem_rank_probe || exit 1
/tmp/smem_rank_probe | tee "$OUT/smem_rank.txt"
