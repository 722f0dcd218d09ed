#!/bin/sh
# A probe record of matrix instructions replayed by the executor (exec.h100.mma_sp: scripts/probes/mma_sp;
# exec.h200.mma_dense: scripts/probes/mma_dense): every kernel NAME.jsonl lists is run on the PTX the probe
# compiled (NAME_probe.ptx) with its input registers K_in.npy, and its output registers must equal the GPU's
# K_out.npy. Exit 77 (skipped) while the record is absent.
# Usage: mma_record.sh LAYOUTSCOPE_CLI RECORD_DIR NAME KERNELS   (KERNELS: how many the record must hold)
CLI=$1
REC=$2
NAME=$3
WANT=$4
if [ ! -f "$REC/${NAME}_probe.ptx" ] || [ ! -f "$REC/$NAME.jsonl" ]; then
    echo "SKIPPED: no GPU record in $REC (run scripts/probes/$NAME/run.sh on the GPU and commit its output there)"
    exit 77
fi
n=0
fail=0
for k in $(sed -n 's/.*"kernel": "\([a-z0-9_]*\)".*/\1/p' "$REC/$NAME.jsonl"); do
    n=$((n + 1))
    if ! "$CLI" exec "$REC/${NAME}_probe.ptx" --entry "$k" --grid 1 --block 32 --arg "0=$REC/${k}_in.npy" \
        --arg "1=tensor:u32[128]:zeros" --expect "1=$REC/${k}_out.npy"; then
        echo "FAILED: $k"
        fail=$((fail + 1))
    fi
done
echo "$NAME record: $n kernels, $fail differ"
[ "$n" -eq "$WANT" ] && [ "$fail" -eq 0 ]
