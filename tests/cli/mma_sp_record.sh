#!/bin/sh
# exec.h100.mma_sp: every kernel of the H100 record of scripts/probes/mma_sp (README there) run by the
# executor on the PTX the probe compiled, with the probe's input registers; its output registers must equal
# the GPU's. Exit 77 (skipped) while the record is absent.
# Usage: mma_sp_record.sh LAYOUTSCOPE_CLI RECORD_DIR
CLI=$1
REC=$2
if [ ! -f "$REC/mma_sp_probe.ptx" ] || [ ! -f "$REC/mma_sp.jsonl" ]; then
    echo "SKIPPED: no H100 record in $REC (run scripts/probes/mma_sp/run.sh on an H100 and commit its output there)"
    exit 77
fi
n=0
fail=0
for k in $(sed -n 's/.*"kernel": "\([a-z0-9_]*\)".*/\1/p' "$REC/mma_sp.jsonl"); do
    n=$((n + 1))
    if ! "$CLI" exec "$REC/mma_sp_probe.ptx" --entry "$k" --grid 1 --block 32 --arg "0=$REC/${k}_in.npy" \
        --arg "1=tensor:u32[128]:zeros" --expect "1=$REC/${k}_out.npy"; then
        echo "FAILED: $k"
        fail=$((fail + 1))
    fi
done
echo "mma.sp record: $n kernels, $fail differ"
[ "$n" -gt 0 ] && [ "$fail" -eq 0 ]
