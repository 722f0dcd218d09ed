#!/usr/bin/env bash
# H100 record of the two Hopper CuTe tutorials (issue 22 item 5): builds CUTLASS's own
# examples/cute/tutorial/hopper/{wgmma_sm90,wgmma_tma_sm90}.cu with one change to the host main only
# (after the first GEMM, A, B and the result C are written as .npy into $OUT and main returns; the kernels
# are untouched, so their PTX is the one in tests/data/cute_tutorials). Nothing of CUTLASS is committed:
# the patch is applied to a temporary copy.
# Usage (here): scripts/probes/cute_sm90/prepare.sh CUTLASS_DIR   -> scripts/probes/cute_sm90/bin/*
# Then on the H100: scripts/probes/cute_sm90/run.sh   (writes $OUT/*.npy and a log)
set -euo pipefail
cutlass=${1:?CUTLASS checkout}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$here/bin"
for name in wgmma_sm90 wgmma_tma_sm90; do
    src="$cutlass/examples/cute/tutorial/hopper/$name.cu"
    python3 - "$src" "$tmp/$name.cu" "$here/dump_npy.inc" <<'PY'
import sys
src, dst, inc = sys.argv[1:4]
s = open(src).read()
anchor = "thrust::host_vector<TC> cute_result = d_C;"
assert s.count(anchor) == 1, "anchor not found once"
s = s.replace(anchor, anchor + "\n" + open(inc).read())
s = '#include <cstdio>\n#include <cstdlib>\n#include <string>\n' + s
open(dst, "w").write(s)
PY
    /usr/local/cuda/bin/nvcc -std=c++17 -O3 --expt-relaxed-constexpr -arch=sm_90a \
        -I "$cutlass/include" -I "$cutlass/tools/util/include" -I "$cutlass/examples/common" \
        "$tmp/$name.cu" -o "$here/bin/$name"
    echo "built bin/$name"
done
