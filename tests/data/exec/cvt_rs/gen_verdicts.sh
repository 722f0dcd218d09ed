#!/bin/sh
# Writes verdicts.tsv: ptxas's verdict on each line of forms.txt ("TARGET INSTRUCTION"), each assembled
# alone in a kernel declaring .reg .b32 %r<8>, .b16 %rs<4>, .f32 %f<8>, .b64 %rd<4> (PTX ISA 9.0).
# Run here with CUDA 13.0's ptxas: sh gen_verdicts.sh > verdicts.tsv
# Columns: target, "ok" or ptxas's first error (its text after "error   : "), instruction.
set -e
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
tmp=$(mktemp -d)
while read -r target instr; do
    [ -z "$target" ] && continue
    printf '.version 9.0\n.target %s\n.address_size 64\n.visible .entry k() {\n.reg .b32 %%r<8>; .reg .b16 %%rs<4>; .reg .f32 %%f<8>; .reg .b64 %%rd<4>;\n%s\nret;\n}\n' \
        "$target" "$instr" > "$tmp/t.ptx"
    if "$PTXAS" -arch="$target" "$tmp/t.ptx" -o "$tmp/t.o" 2> "$tmp/err"; then
        verdict=ok
    else
        verdict=$(grep -m1 'error' "$tmp/err" | sed 's/.*error *: *//')
    fi
    printf '%s\t%s\t%s\n' "$target" "$verdict" "$instr"
done < "$(dirname "$0")/forms.txt"
rm -rf "$tmp"
