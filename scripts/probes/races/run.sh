#!/usr/bin/env bash
# Issue 23 item 6: hardware truth for the Hopper-runnable ordering examples. For every broken/fixed pair
# assets/scenarios/broken/async_*.scn that targets sm_90a: export a CUDA repro (layoutscope-cli export-cuda),
# build it with nvcc for sm_90a, run it RUNS times (a stress loop: a race shows as FAIL or a stale value in
# some runs), RUNS times more with --stress (beside a memory hog, docs/export-cuda.md), then once under compute-sanitizer --tool racecheck and --tool synccheck. Prints one log.
#
#   scripts/probes/races/run.sh [CLI] [RUNS] > races.log 2>&1
#   scripts/probes/races/run.sh --export DIR [CLI]      (here: the repros and the engine's verdicts into DIR)
#   scripts/probes/races/run.sh --from DIR [RUNS]       (on a GPU machine without the CLI: run DIR's repros)
#
# CLI defaults to build/release/app/layoutscope-cli (build it with -DLAYOUTSCOPE_BUILD_GUI=OFF on the H100
# machine, or copy it there). export-cuda runs a consumer ld.shared and compares what each lane read with the
# engine's prediction (docs/export-cuda.md); it does not model ldmatrix, whose lines are dropped from the
# exported copy (said in the log); a scenario whose export still fails (st.shared, wgmma) is listed as SKIP.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
mode=run from=""
if [ "${1:-}" = "--export" ]; then mode=export work=$2; mkdir -p "$work"; shift 2; fi
if [ "${1:-}" = "--from" ]; then from=$(cd "$2" && pwd); shift 2; set -- "" "${1:-20}"; fi
cli=${1:-$root/build/release/app/layoutscope-cli}
runs=${2:-20}
[ "$mode" = export ] || work=$(mktemp -d)
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
echo "# races probe: $(date -u) cli=$cli runs=$runs"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | sed 's/^/# device: /'
for scn in "$root"/assets/scenarios/broken/async_*.scn; do
    grep -q '^target sm_90a' "$scn" || continue
    name=$(basename "$scn" .scn)
    echo "== $name"
    if [ -n "$from" ]; then # exported elsewhere: the repro and the engine's lines are in DIR
        [ -f "$from/$name.cu" ] || { cat "$from/$name.engine" 2>/dev/null; echo "   SKIP: no repro in $from"; continue; }
        cat "$from/$name.engine"
        cp "$from/$name.cu" "$work/$name.cu"
    else
        src="$work/$name.scn"
        grep -vE '^ldmatrix' "$scn" > "$src"
        {
            if ! cmp -s "$scn" "$src"; then echo "   note: ldmatrix lines dropped for the export"; fi
            echo "   engine: $("$cli" check --run "$src" 2>&1 | grep -cE ': error: ') error(s) on the exported copy"
        } | tee "$work/$name.engine"
        if ! "$cli" export-cuda "$src" -o "$work/$name.cu" > "$work/$name.export.log" 2>&1; then
            echo "   SKIP: export-cuda: $(grep -m1 -E 'error' "$work/$name.export.log")" | tee -a "$work/$name.engine"
            rm -f "$work/$name.cu"
            continue
        fi
        [ "$mode" = export ] && continue
    fi
    # -gencode with the arch-specific target: plain -arch=sm_90a builds compute_90 PTX, without wgmma.
    if ! nvcc -std=c++17 -gencode=arch=compute_90a,code=sm_90a -lineinfo -Xptxas -v -o "$work/$name" "$work/$name.cu" -lcuda > "$work/$name.nvcc.log" 2>&1; then
        echo "   SKIP: nvcc: $(head -3 "$work/$name.nvcc.log")"
        continue
    fi
    grep -E 'C75[0-9][0-9]' "$work/$name.nvcc.log" | sed 's/^/   ptxas: /' | head -3
    pass=0 fail=0 first=""
    for ((i = 0; i < runs; i++)); do
        out=$(timeout 60 "$work/$name" 2>&1)
        [ -z "${wg:-}" ] && wg=$(echo "$out" | grep -m1 '^wgmma D')
        if echo "$out" | grep -q '^PASS'; then pass=$((pass + 1)); else fail=$((fail + 1)); [ -z "$first" ] && first=$(echo "$out" | grep -m1 -E 'FAIL|error' ); fi
    done
    echo "   stress: $pass PASS, $fail FAIL of $runs${first:+ (first: $first)}"
    pass=0 fail=0 first=""
    for ((i = 0; i < runs; i++)); do # beside a memory hog (the repro's --stress): TMA lands later
        out=$(timeout 60 "$work/$name" --stress 2>&1)
        if echo "$out" | grep -q '^PASS'; then pass=$((pass + 1)); else fail=$((fail + 1)); [ -z "$first" ] && first=$(echo "$out" | grep -m1 -E 'FAIL|error' ); fi
    done
    echo "   --stress (memory hog): $pass PASS, $fail FAIL of $runs${first:+ (first: $first)}"
    [ -n "${wg:-}" ] && echo "   $wg"
    wg=""
    for tool in racecheck synccheck; do
        if [ -x "$sanitizer" ]; then
            s=$(timeout 300 "$sanitizer" --tool "$tool" "$work/$name" 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|hazard' | tail -2 | tr '\n' ' ')
            echo "   $tool: ${s:-no summary}"
        else
            echo "   $tool: compute-sanitizer not found"
        fi
    done
done
echo "# work files: $work"
