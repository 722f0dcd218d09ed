#!/bin/sh
# exec.h200.mma_dense: every kernel of the H200 record of scripts/probes/mma_dense (FP8, s4/u4, m8n8 s8/s4,
# .b1 .and/.xor .popc dense mma.sync) run by the executor on the PTX the probe compiled, with the probe's input
# registers; its output registers must equal the GPU's. Exit 77 (skipped) while the record is absent.
# Usage: mma_dense_record.sh LAYOUTSCOPE_CLI RECORD_DIR
CLI=$1
REC=$2
if [ ! -f "$REC/mma_dense_probe.ptx" ] || [ ! -f "$REC/mma_dense.jsonl" ]; then
    echo "SKIPPED: no H200 record in $REC (run scripts/probes/mma_dense/run.sh on the GPU and commit its output there)"
    exit 77
fi
n=0
fail=0
for k in $(sed -n 's/.*"kernel": "\([a-z0-9_]*\)".*/\1/p' "$REC/mma_dense.jsonl"); do
    n=$((n + 1))
    if ! "$CLI" exec "$REC/mma_dense_probe.ptx" --entry "$k" --grid 1 --block 32 --arg "0=$REC/${k}_in.npy" \
        --arg "1=tensor:u32[128]:zeros" --expect "1=$REC/${k}_out.npy"; then
        echo "FAILED: $k"
        fail=$((fail + 1))
    fi
done
echo "mma_dense record: $n kernels, $fail differ"
[ "$n" -eq 12 ] && [ "$fail" -eq 0 ]
