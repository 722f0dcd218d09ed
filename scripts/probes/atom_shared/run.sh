#!/bin/bash
# On the H100 (or any sm_90a GPU): atom.shared.add on f16 / bf16 / f16x2 / bf16x2 / f32 edge cases (README.md).
# Writes $OUT/atom_shared_h100.jsonl; commit it as tests/data/exec/atom_shared_h100.jsonl.
set -u
cd "$(dirname "$0")"
OUT=${OUT:-/tmp}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a atom_shared_probe.cu -o /tmp/atom_shared_probe || exit 1
/tmp/atom_shared_probe | tee "$OUT/atom_shared_h100.jsonl"
