#!/bin/bash
# On the device: build and run the wgmma operand probe; records to $OUT/wgmma.jsonl.
# `run.sh base`: only the descriptor base-offset set (issue 24), records to $OUT/wgmma_base.jsonl.
set -eu
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a wgmma_probe.cu -o /tmp/wgmma_probe 2>/dev/null
if [ "${1:-}" = base ]; then
    /tmp/wgmma_probe base > "${OUT:-/tmp}/wgmma_base.jsonl"
    wc -l "${OUT:-/tmp}/wgmma_base.jsonl"
else
    /tmp/wgmma_probe > "${OUT:-/tmp}/wgmma.jsonl"
    wc -l "${OUT:-/tmp}/wgmma.jsonl"
fi
