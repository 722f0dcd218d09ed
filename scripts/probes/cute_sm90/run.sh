#!/usr/bin/env bash
# On the H100 (device tool): run both Hopper tutorials at one CTA's / one cluster's tile, K = 256, NT and TN;
# the 12 .npy files travel back as one archive ($OUT/cute_sm90.tar) with the log.
set -u
here=$(cd "$(dirname "$0")" && pwd)
final=$OUT
export OUT=$(mktemp -d)
{
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    for t in NT TN; do
        PROBE_TAG=wgmma_sm90_$t "$here/bin/wgmma_sm90" 128 128 256 ${t:0:1} ${t:1:1} 2>&1 | tail -3
        # wgmma_tma_sm90 launches 2-CTA clusters along M (grid rounded up, unpredicated epilogue): m = 256
        # is its smallest valid size (at m = 128 CTA 1 stores past C: h200/README.md).
        PROBE_TAG=wgmma_tma_sm90_m256_$t "$here/bin/wgmma_tma_sm90" 256 128 256 ${t:0:1} ${t:1:1} 2>&1 | tail -3
    done
    ls -la "$OUT"
} 2>&1 | tee "$final/cute_sm90.log"
tar -C "$OUT" -cf "$final/cute_sm90.tar" .
