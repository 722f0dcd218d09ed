#!/bin/bash
# On the H100: run the h/xcomp probe (README.md); writes $OUT/xcomp.txt, the .npy inputs and outputs and
# the module's PTX (the executor runs that same PTX here afterwards).
set -u
cd "$(dirname "$0")"
OUT=${OUT:-/tmp}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/xcomp.txt"
nvcc -std=c++17 -arch=sm_90a -ptx xcomp_probe.cu -o "$OUT/xcomp_probe.ptx" || exit 1
nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a xcomp_probe.cu -o /tmp/xcomp_probe || exit 1
/tmp/xcomp_probe "$OUT" | tee -a "$OUT/xcomp.txt"
