#!/usr/bin/env python3
"""Instruction texts for the mma.sync differential suite (tests/data/ptxas_front/mma_sync.jsonl.gz).

PTX ISA 9.2 §9.7.14.5.14 (mma): every shape of the ISA table x every dtype.atype.btype.ctype class
(f16 with its four accumulator pairs, bf16, tf32, f64, s8/u8, s4/u4, b1 with .xor/.and .popc, FP8
e4m3/e5m2 with .f32 and .f16 accumulators, the sm_120 `.kind::f8f6f4` types) with `.row.col`; on each
form's own shapes also the other three layouts, `.satfinite`, and each fragment (d, a, b, c) one
register short / one too many, half and twice as many. The register counts are the ISA's fragment sizes (elements per thread
x element bits / 32; 64-bit registers for .f64; m8n8k4 .f16 works per quad-pair). Then seeded one-token
mutations (gen_front_cases.mutate: a qualifier dropped, repeated, swapped, replaced, inserted; an operand
dropped, added or replaced). Registers are the kernel wrapper's (run_ptxas.py): %r<300>, %rd<8>, %h<8>, %p<4>.
Usage: gen_mma_sync_cases.py OUT.jsonl [--seed N] [--mutations N]
"""
import argparse, json, random

import gen_front_cases as front

SHAPES = ["m8n8k4", "m16n8k4", "m16n8k8", "m16n8k16", "m8n8k16", "m16n8k32", "m8n8k32", "m16n8k64",
          "m8n8k128", "m16n8k128", "m16n8k256"]
BITS = {"f16": 16, "bf16": 16, "tf32": 32, "f32": 32, "f64": 64, "s32": 32, "s8": 8, "u8": 8, "s4": 4, "u4": 4,
        "b1": 1, "e4m3": 8, "e5m2": 8, "e3m2": 8, "e2m3": 8, "e2m1": 8}
F8F6F4 = ["e4m3", "e5m2", "e3m2", "e2m3", "e2m1"]


def combos():
    """(dtype, atype, btype, ctype, extra qualifiers after the types, shapes the ISA lists)."""
    out = []
    for d, c in (("f16", "f16"), ("f32", "f32"), ("f16", "f32"), ("f32", "f16")):
        out.append((d, "f16", "f16", c, [], ["m8n8k4", "m16n8k8", "m16n8k16"]))
    out.append(("f32", "bf16", "bf16", "f32", [], ["m16n8k8", "m16n8k16"]))
    out.append(("f32", "tf32", "tf32", "f32", [], ["m16n8k4", "m16n8k8"]))
    out.append(("f64", "f64", "f64", "f64", [], ["m8n8k4", "m16n8k4", "m16n8k8", "m16n8k16"]))
    for a in ("s8", "u8"):
        for b in ("s8", "u8"):
            out.append(("s32", a, b, "s32", [], ["m8n8k16", "m16n8k16", "m16n8k32"]))
    for a in ("s4", "u4"):
        for b in ("s4", "u4"):
            out.append(("s32", a, b, "s32", [], ["m8n8k32", "m16n8k32", "m16n8k64"]))
    for op in ("xor", "and"):
        out.append(("s32", "b1", "b1", "s32", [op, "popc"], ["m8n8k128", "m16n8k128", "m16n8k256"]))
    for d in ("f32", "f16"):
        for a in ("e4m3", "e5m2"):
            for b in ("e4m3", "e5m2"):
                out.append((d, a, b, d, [], ["m16n8k16", "m16n8k32"]))
    # Off-table type mixes.
    out.append(("f32", "f16", "bf16", "f32", [], ["m16n8k16"]))
    out.append(("f16", "bf16", "bf16", "f16", [], ["m16n8k16"]))
    out.append(("s32", "s8", "s4", "s32", [], ["m16n8k32"]))
    out.append(("f32", "e2m1", "e4m3", "f32", [], ["m16n8k32"]))
    out.append(("f32", "f64", "f64", "f32", [], ["m8n8k4"]))
    out.append(("f32", "tf32", "tf32", "f16", [], ["m16n8k8"]))
    return out


def counts(shape, d, a, b, c):
    """Registers of d, a, b, c: the ISA's fragment sizes."""
    m, rest = shape[1:].split("n")
    n, k = rest.split("k")
    m, n, k = int(m), int(n), int(k)
    if shape == "m8n8k4" and a in ("f16", "bf16"):  # four quad-pairs, each an m8n8k4 (§9.7.14.5.1)
        return (8 if d == "f32" else 4), 2, 2, (8 if c == "f32" else 4)

    def regs(elems, t):
        bits = BITS[t]
        return max(1, elems if bits == 64 else elems * bits // 32)

    return regs(m * n // 32, d), regs(m * k // 32, a), regs(n * k // 32, b), regs(m * n // 32, c)


def vec(n, t, start):
    if t == "f64":
        return "{" + ", ".join(f"%rd{i % 8}" for i in range(n)) + "}"
    return "{" + ", ".join(f"%r{start + i}" for i in range(n)) + "}"


def text(shape, layout, sat, d, a, b, c, extra, cnt, kind=None):
    q = [shape] + list(layout) + (["satfinite"] if sat else []) + ([kind] if kind else []) + [d, a, b, c] + extra
    ops = [vec(cnt[0], d, 10), vec(cnt[1], a, 100), vec(cnt[2], b, 150), vec(cnt[3], c, 200)]
    return "mma.sync.aligned." + ".".join(q) + " " + ", ".join(ops) + ";"


def grid():
    out = []
    seen = set()

    def add(t, **q):
        if t not in seen:
            seen.add(t)
            out.append(front.case(t, "mma.sync", case_="grid", **q))

    rc = ("row", "col")
    for d, a, b, c, extra, shapes in combos():
        for s in SHAPES:
            add(text(s, rc, False, d, a, b, c, extra, counts(s, d, a, b, c)), shape=s, types=f"{d}.{a}.{b}.{c}")
        for s in shapes:
            cnt = counts(s, d, a, b, c)
            for lay in (("col", "row"), ("row", "row"), ("col", "col"), ("row",), ()):
                add(text(s, lay, False, d, a, b, c, extra, cnt), shape=s, layout=".".join(lay))
            add(text(s, rc, True, d, a, b, c, extra, cnt), shape=s, satfinite=True)
            for i in range(4):
                for n in sorted({cnt[i] - 1, cnt[i] + 1, cnt[i] // 2, cnt[i] * 2} - {0, cnt[i]}):
                    wrong = list(cnt)
                    wrong[i] = n
                    if wrong[i] >= 1:
                        add(text(s, rc, False, d, a, b, c, extra, wrong), shape=s, fragment="dabc"[i], regs=wrong[i])
    for d in ("f32", "f16"):
        for a in F8F6F4:
            for b in F8F6F4:
                for s in ("m16n8k32", "m16n8k16"):
                    add(text(s, rc, False, d, a, b, d, [], counts(s, d, a, b, d), "kind::f8f6f4"), shape=s,
                        kind="f8f6f4")
    cnt = counts("m16n8k32", "f32", "e2m1", "e2m1", "f32")
    add(text("m16n8k32", rc, True, "f32", "e2m1", "e2m1", "f32", [], cnt, "kind::f8f6f4"), kind="f8f6f4")
    add(text("m16n8k32", ("col", "row"), False, "f32", "e2m1", "e2m1", "f32", [], cnt, "kind::f8f6f4"), kind="f8f6f4")
    add(text("m16n8k32", rc, False, "f32", "e2m1", "e2m1", "f16", [], cnt, "kind::f8f6f4"), kind="f8f6f4")
    # The tcgen05 kinds on each input class (ptxas 13.0: target features, ignored on the FP8 forms).
    for kind in ("kind::f8f6f4", "kind::f16", "kind::tf32", "kind::i8"):
        for d, a, b, c, s in (("f32", "f16", "f16", "f32", "m16n8k16"), ("f32", "e4m3", "e4m3", "f32", "m16n8k32"),
                              ("f16", "e5m2", "e4m3", "f16", "m16n8k16"), ("s32", "s8", "s8", "s32", "m16n8k32"),
                              ("f32", "e2m1", "e2m1", "f32", "m16n8k32"), ("f32", "tf32", "tf32", "f32", "m16n8k8")):
            add(text(s, rc, False, d, a, b, c, [], counts(s, d, a, b, c), kind), kind=kind)
    # Operand element kinds: scalars for a 1-register fragment, immediates, a sink, 16/64-bit registers.
    base = "mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32 "
    for ops in ("{%r1, %r2, %r3, %r4}, {%r5, %r6}, %r7, {%r1, %r2, %r3, %r4}",
                "{%r1, %r2, %r3, %r4}, {%r5, %r6}, {%r7}, {0, 1, 2, 3}",
                "{_, %r2, %r3, %r4}, {%r5, %r6}, {%r7}, {%r1, %r2, %r3, %r4}",
                "{%r1, %r2, %r3, %r4}, {_, %r6}, {%r7}, {%r1, %r2, %r3, %r4}",
                "{%r1, %r2, %r3, %r4}, {%r5, %r6}, {_}, {_, %r2, %r3, %r4}",
                "{%r1, %r2, %r3, %r4}, {0, 1}, {%r7}, {%r1, %r2, %r3, %r4}",
                "{%r1, %r2, %r3, %r4}, {%r5, %r6}, {%r7}, {%r1, %r2, %r3, 0}",
                "{%rd1, %rd2, %rd3, %rd4}, {%r5, %r6}, {%r7}, {%r1, %r2, %r3, %r4}",
                "{%r1, %r2, %r3, %r4}, {%h5, %h6}, {%r7}, {%r1, %r2, %r3, %r4}",
                "{%r1, %r2, %r3, %r4}, {%r5, %r6}, {%r7}, {%rd1, %rd2, %rd3, %rd4}",
                "{%r1, %r2, %r3, %r4}, {%r5, %r6}, {%r7}"):
        add(base + ops + ";", shape="m16n8k16", operands="kinds")
    f64 = "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 "
    for ops in ("{%rd1, %rd2}, {%rd3}, {%rd4}, {%rd5, %rd6}", "{%r1, %r2}, {%rd3}, {%rd4}, {%rd5, %rd6}",
                "{%rd1, %rd2}, {%r3}, {%rd4}, {%rd5, %rd6}", "{%rd1, %rd2}, {%rd3}, {%rd4}, {%r5, %r6}",
                "{%rd1, %rd2}, %rd3, %rd4, {%rd5, %rd6}", "{%rd1, %rd2}, {%rd3}, {%rd4}, {0, 0}"):
        add(f64 + ops + ";", shape="m8n8k4", operands="kinds")
    # Qualifier order and repetition.
    add("mma.aligned.sync.m16n8k16.row.col.f32.f16.f16.f32 {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, "
        "{%r9, %r10}, {%r1, %r2, %r3, %r4};", order="aligned.sync")
    add("mma.sync.aligned.row.col.m16n8k16.f32.f16.f16.f32 {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, "
        "{%r9, %r10}, {%r1, %r2, %r3, %r4};", order="layout first")
    add("mma.sync.aligned.m16n8k128.row.col.xor.popc.s32.b1.b1.s32 {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%r7}, "
        "{%r1, %r2, %r3, %r4};", order="bitop first")
    add("mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.popc.xor {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%r7}, "
        "{%r1, %r2, %r3, %r4};", order="popc first")
    add("mma.sync.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, "
        "{%r9, %r10}, {%r1, %r2, %r3, %r4};", order="sync twice")
    add("mma.sync.m16n8k16.row.col.f32.f16.f16.f32 {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, "
        "{%r9, %r10}, {%r1, %r2, %r3, %r4};", order="no aligned")
    return out


MMA_POOL = ["sync", "aligned", "row", "col", "satfinite", "m8n8k4", "m16n8k8", "m16n8k16", "m16n8k32", "m8n8k32",
            "m16n8k128", "m16n8k12", "f16", "f32", "bf16", "tf32", "f64", "s32", "s8", "u8", "s4", "b1", "e4m3",
            "e2m1", "e3m2", "xor", "and", "popc", "kind::f8f6f4", "kind::f16", "kind::i8", "trans", "sp", "relu"]
MMA_OPERANDS = ["%r1", "{%r1}", "{%r1, %r2}", "{%r1, %r2, %r3, %r4}", "{%rd1, %rd2}", "{%h1, %h2}", "0",
                "{0, 0, 0, 0}", "{_, %r2}", "[smem]", "%p1", "_"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--mutations", type=int, default=600)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    cases = grid()
    for c in cases:
        c["qualifiers"]["case"] = c["qualifiers"].pop("case_")
    front.NAME_LEN["mma"] = 1
    front.QUAL_POOL = MMA_POOL
    front.OPERAND_POOL = MMA_OPERANDS
    seen = {c["instr"] for c in cases}
    seeds = [c for c in cases]
    n = 0
    while n < a.mutations:
        c = rng.choice(seeds)
        t, kind = front.mutate(c["instr"], "mma", rng)
        if t in seen:
            continue
        seen.add(t)
        cases.append(front.case(t, "mma.sync", case="mutation", mutation=kind))
        n += 1
    with open(a.out, "w") as f:
        for c in cases:
            f.write(json.dumps(c) + "\n")
    print(len(cases), "cases")


if __name__ == "__main__":
    main()
