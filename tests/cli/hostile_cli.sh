#!/usr/bin/env bash
# tests/cli/hostile_cli.sh CLI DATA_DIR — issue 25 (CLI items): every command refuses a special file (FIFO,
# /dev/stdin, /dev/zero, a directory) at once with the regular-files rule instead of blocking; `observe`
# files are read by run/check --run; numbers do not wrap; a repeated `desc encode` field, a `--name` with a
# newline are refused; output errors (`> /dev/full`) are errors; long diagnostics are capped.
# Each case runs under `timeout 30`: a hang is status 124, a failure like any other.
set -u
CLI=$1
DATA=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkfifo "$T/fifo"
fails=0

# expect RC STDERR_SUBSTRING -- ARGS...: status and a substring of stderr (empty: not checked).
expect() {
    local rc=$1 want=$2
    shift 3
    local got err
    err=$(timeout 30 "$CLI" "$@" 2>&1 >/dev/null)
    got=$?
    if [[ $got -ne $rc ]] || [[ -n $want && $err != *"$want"* ]]; then
        echo "FAIL: $* -> status $got (want $rc), stderr: ${err:0:400}"
        echo "      (wanted: $want)"
        fails=$((fails + 1))
    else
        echo "ok:   $*"
    fi
}

REG="not a regular file"
SCN=$DATA/observed/tile16x4.scn
cp "$DATA/observed/tile16x4.scn" "$T/t.scn"

# 1. Special files: FIFO, /dev/stdin (a FIFO or terminal here), /dev/zero, a directory.
for f in "$T/fifo" /dev/zero "$T"; do
    expect 1 "$REG" -- check "$f"
    expect 1 "$REG" -- run "$f"
    expect 1 "$REG" -- dump "$f"
    expect 1 "$REG" -- export-cuda "$f"
    expect 1 "$REG" -- compare "$f" "$SCN"
    expect 1 "$REG" -- sweep "$f" --vary x=1,2
    expect 1 "$REG" -- lesson "$f"
    expect 1 "$REG" -- tensormap decode --file "$f"
    expect 1 "$REG" -- diff "$SCN" --smem "sA=$f"
    expect 1 "$REG" -- infer "$SCN" --smem "sA=$f"
    expect 1 "$REG" -- conform tma "$f"
    expect 1 "$REG" -- scaffold "$f"
done
expect 1 "$REG" -- check /dev/stdin </dev/zero
expect 1 "cannot open" -- check "$T/none.ptx"
mkfifo "$T/m.ptx"
expect 1 "$REG" -- check "$T/m.ptx"
expect 1 "$REG" -- scaffold "$T/m.ptx"

# 2. observe file= is an input of run and check --run: missing, a directory, a FIFO, /dev/zero.
for o in missing.bin . fifo /dev/zero; do
    sed "s|^mbarrier bar|mbarrier bar\nobserve smem sA file=$o|" "$DATA/observed/tile16x4.scn" >"$T/o.scn"
    expect 1 "o.scn:7:1: error: observe file=$o" -- run "$T/o.scn"
    expect 1 "observe file=$o" -- check --run "$T/o.scn"
done

# 3. Numbers do not wrap; a value past its type is a usage error.
expect 2 "--tmem takes" -- dump "$SCN" --tmem 0:4294967296,0:1
expect 2 "--tmem-cta takes" -- dump "$SCN" --tmem-cta 4294967296 --tmem 0:1,0:1
expect 2 "--step takes" -- dump "$SCN" --step -1
expect 2 "--step takes" -- dump "$SCN" --step 12abc
expect 2 "--cta takes" -- diff "$SCN" --cta 4294967296 --smem sA=x
expect 2 "--lanes takes" -- diff "$SCN" --lanes 0:4294967297 --tmem x

# 4. A repeated desc encode field; a --name that would add lines to the directive.
expect 2 "given twice" -- desc encode start=0x400 lbo=16 sbo=1024 swizzle=128B lbo=32
expect 2 "--name takes a scenario name" -- tensormap decode --name $'T\ntensormap X' 00
expect 0 "" -- desc encode start=0x400 lbo=16 sbo=1024 swizzle=32B

# 5. Output errors are errors (only where /dev/full exists).
if [[ -w /dev/full ]]; then
    for args in "run $SCN" "dump $SCN" "export-cuda $SCN" "compare $SCN $SCN" "desc decode 0x4000404000010040" \
        "scaffold $DATA/ptx/tma_tile_sm_90a.ptx --entry _Z13tmaTileStores14CUtensorMap_stS_ii" "--help" \
        "check $SCN"; do
        # shellcheck disable=SC2086
        err=$(timeout 30 "$CLI" $args 2>&1 >/dev/full)
        rc=$?
        if [[ $rc -eq 0 || $err != *"cannot write the output"* ]]; then
            echo "FAIL: $args > /dev/full -> status $rc: ${err:0:300}"
            fails=$((fails + 1))
        else
            echo "ok:   $args > /dev/full"
        fi
    done
fi

# 6. Bounded diagnostics: an 85 KB instruction (12,000 operands; one argument may hold at most 128 KiB,
# MAX_ARG_STRLEN) prints a few short lines; 1,000,000 ';' print at most a few hundred.
long="tcgen05.ld.sync.aligned.32x32b.x1.b32 {$(printf 'q%d, ' $(seq 1 12000))q0}, [taddr];"
out=$(timeout 60 "$CLI" validate "$long" 2>&1 >/dev/null)
rc=$?
lines=$(printf '%s\n' "$out" | wc -l)
longest=$(printf '%s\n' "$out" | awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }')
if [[ $rc -ne 1 || $out != *"it has 12001"* || $lines -gt 400 || $longest -gt 1000 ]]; then
    echo "      status $rc: ${out:0:300}"
    echo "FAIL: validate of an 85 KB instruction: $lines lines, the longest $longest characters"
    fails=$((fails + 1))
else
    echo "ok:   validate of an 85 KB instruction: $lines lines, the longest $longest characters"
fi
# The limit is generous (0.5 s here) so that a loaded CI machine does not fail it (stop 26 took >20 s).
head -c 1000000 /dev/zero | tr '\0' ';' >"$T/semis.scn"
out=$(timeout 120 "$CLI" check "$T/semis.scn" 2>&1 >/dev/null)
rc=$?
lines=$(printf '%s\n' "$out" | wc -l)
if [[ $rc -ne 1 || $lines -gt 400 || $out != *"more like this"* ]]; then
    echo "FAIL: check of 1,000,000 ';': status $rc, $lines lines"
    fails=$((fails + 1))
else
    echo "ok:   check of 1,000,000 ';': $lines lines"
fi

echo "$fails failed"
[[ $fails -eq 0 ]]
