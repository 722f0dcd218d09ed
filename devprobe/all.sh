#!/bin/bash
# One device call: the executor probes (TMA, matrix) and a second look at the CuTe Hopper tutorials.
set -u
final=$OUT
work=$(mktemp -d)
{
echo "== exec_tma"; OUT=$work/tma bash scripts/probes/exec_tma/run.sh 2>&1 | tail -20
echo "== exec_mma"; mkdir -p $work/mma; OUT=$work/mma bash scripts/probes/exec_mma/run.sh 2>&1 | tail -5
echo "== cute_sm90 again x3 (determinism)"
for i in 1 2 3; do mkdir -p $work/cute$i; OUT=$work/cute$i; export OUT
  for name in wgmma_sm90 wgmma_tma_sm90; do PROBE_TAG=${name}_NT scripts/probes/cute_sm90/bin/$name 128 128 256 N T | tail -1; done
done
export OUT=$work/cutes; mkdir -p $OUT
echo "== compute-sanitizer racecheck / synccheck on wgmma_tma_sm90 NT"
CS=$(ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1); echo "sanitizer: $CS"
if [ -n "$CS" ]; then
  PROBE_TAG=rc timeout 240 $CS --tool racecheck scripts/probes/cute_sm90/bin/wgmma_tma_sm90 128 128 256 N T 2>&1 | tail -15
  PROBE_TAG=sc timeout 120 $CS --tool synccheck scripts/probes/cute_sm90/bin/wgmma_tma_sm90 128 128 256 N T 2>&1 | tail -8
  PROBE_TAG=mc timeout 120 $CS --tool memcheck scripts/probes/cute_sm90/bin/wgmma_tma_sm90 128 128 256 N T 2>&1 | tail -8
fi
} 2>&1 | tee $final/all.log
tar -C $work -cf $final/probes.tar .
