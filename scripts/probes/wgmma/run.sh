#!/bin/bash
# On the device: build and run the wgmma operand probe; records to $OUT/wgmma.jsonl.
set -eu
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a wgmma_probe.cu -o /tmp/wgmma_probe 2>/dev/null
/tmp/wgmma_probe > "${OUT:-/tmp}/wgmma.jsonl"
wc -l "${OUT:-/tmp}/wgmma.jsonl"
