#!/usr/bin/env bash
# Compile and run every exported repro (layoutscope-cli export-cuda) in DIR on the GPU here; one log line
# per repro: "<name>: PASS ..." / "<name>: FAIL ...". Used on the H100 (device tool) for docs/repro-h100.log.
# Usage: scripts/probes/repro/run.sh DIR [LOG]
set -uo pipefail
dir=${1:?usage: run.sh DIR [LOG]}
log=${2:-/dev/stdout}
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
: > "$log.tmp"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> "$log.tmp" 2>&1 || true
for cu in "$dir"/*.cu; do
  name=$(basename "$cu" .cu)
  arch=$(sed -n 's/.*-gencode=arch=compute_\([0-9a-z]*\),.*/\1/p' "$cu" | head -1)
  if ! "$nvcc" -std=c++17 -O1 -gencode=arch=compute_$arch,code=sm_$arch -o "$dir/$name.bin" "$cu" -lcuda 2> "$dir/$name.nvcc.txt"; then
    echo "$name: FAIL nvcc -arch=$arch: $(head -3 "$dir/$name.nvcc.txt" | tr '\n' ' ')" >> "$log.tmp"; continue
  fi
  if [[ $arch != 90a ]]; then echo "$name: compiled for $arch (not runnable on this GPU)" >> "$log.tmp"; continue; fi
  out=$(timeout 60 "$dir/$name.bin" 2>&1 | grep -v '^device:' | tr '\n' ' ')
  echo "$name: $out" >> "$log.tmp"
done
cat "$log.tmp" > "$log"; rm -f "$log.tmp"
