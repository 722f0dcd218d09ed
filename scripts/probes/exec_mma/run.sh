#!/bin/bash
# On the device: build and run the executor matrix-kernel probe; records to $OUT/exec_mma.jsonl
# (copy it to tests/data/exec/h200_mma.jsonl: exec_mma_test.cpp then requires the executor's bytes equal).
set -eu
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc -O3 -std=c++17 -arch=sm_90a exec_mma_probe.cu -o /tmp/exec_mma_probe
/tmp/exec_mma_probe > "${OUT:-/tmp}/exec_mma.jsonl"
wc -l "${OUT:-/tmp}/exec_mma.jsonl"
