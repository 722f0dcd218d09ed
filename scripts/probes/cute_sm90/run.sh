#!/usr/bin/env bash
# On the H100 (device tool): run both Hopper tutorials at one CTA's tile (128x128, K = 256), NT and TN;
# the 12 .npy files travel back as one archive ($OUT/cute_sm90.tar) with the log.
set -u
here=$(cd "$(dirname "$0")" && pwd)
final=$OUT
export OUT=$(mktemp -d)
{
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    for name in wgmma_sm90 wgmma_tma_sm90; do
        for t in NT TN; do
            PROBE_TAG=${name}_$t "$here/bin/$name" 128 128 256 ${t:0:1} ${t:1:1} 2>&1 | tail -3
        done
    done
    ls -la "$OUT"
} 2>&1 | tee "$final/cute_sm90.log"
tar -C "$OUT" -cf "$final/cute_sm90.tar" .
