#!/bin/bash
# On the device: build and run the ldmatrix probe; records to $OUT/ldmatrix.jsonl.
set -eu
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a ldmatrix_probe.cu -o /tmp/ldmatrix_probe
/tmp/ldmatrix_probe > "${OUT:-/tmp}/ldmatrix.jsonl"
wc -l "${OUT:-/tmp}/ldmatrix.jsonl"
