#!/usr/bin/env bash
# export-cuda of one scenario must compile with nvcc for the scenario's arch-specific target (ptxas is the
# oracle of PTX validity: every tcgen05 / TMA form of the repro must be accepted for sm_90a / sm_100a).
# Exit 77 (ctest SKIP) when nvcc is not installed. Usage: export_cuda_nvcc.sh CLI SCENARIO WORKDIR
set -euo pipefail
cli=$1 scn=$2 work=$3
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
if [[ ! -x $nvcc ]]; then echo "SKIP: no nvcc at $nvcc (set NVCC)"; exit 77; fi
mkdir -p "$work"
name=$(basename "$scn" .scn)
"$cli" export-cuda "$scn" -o "$work/$name.cu"
arch=$(sed -n 's/.*-gencode=arch=compute_\([0-9a-z]*\),.*/\1/p;T;q' "$work/$name.cu")
"$nvcc" -std=c++17 -O1 -gencode=arch=compute_$arch,code=sm_$arch -c -o "$work/$name.o" "$work/$name.cu" 2>&1 |
    tee "$work/$name.nvcc.log"
if grep -q 'C7520' "$work/$name.nvcc.log"; then # wgmma serialized: a race the repro is for could not show
    echo "$name: ptxas serialized the repro's wgmma.mma_async (C7520)"
    exit 1
fi
echo "$name: nvcc -gencode=arch=compute_$arch,code=sm_$arch ok"
