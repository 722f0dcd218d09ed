#!/usr/bin/env python3
"""Instruction texts for the sparse mma differential suite (tests/data/ptxas_front/mma_sp.jsonl.gz).

PTX ISA 9.2 §9.7.14.6.3 (mma.sp / mma.sp::ordered_metadata): every shape x every dtype.atype.btype.ctype
class of the ISA's syntax (f16 with its four accumulator pairs, bf16, tf32, s8/u8 and s4/u4 mixes with
and without .satfinite, e4m3/e5m2 mixes, `.kind::f8f6f4` with the five FP8/FP6/FP4 types, the block-scaled
`.kind::mxf4` / `.kind::mxf4nvf4` / `.kind::mxf8f6f4` forms with their scale operands) x both spellings
(`.sp`, `.sp::ordered_metadata`) with `.row.col`; on each class's own shapes also the other layouts,
`.satfinite`, each fragment (d, a, b, c) one register short / one too many, the sparsity selector 0..4
(and -1, a register), the metadata operand as a register, an immediate, a 64-bit or 16-bit register, a
vector, a sink. Also the dense `mma.sync` `.block_scale` forms (§9.7.14.5.14; sm_120a) that the mma.sync
suite leaves out. Then seeded one-token mutations (gen_front_cases.mutate).
Register counts: A holds M x K/2 stored elements (K/2 x bits / 32 x 16 / 32 registers), B, C and D as the
dense mma of the same shape; FP8/FP6/FP4 of `.kind::f8f6f4` / `.kind::mxf8f6f4` in 8-bit containers,
`.kind::mxf4*` e2m1 packed 4-bit.
Registers are the kernel wrapper's (run_ptxas.py): %r<300>, %rd<8>, %h<8>, %p<4>.
Usage: gen_mma_sp_cases.py OUT.jsonl [--seed N] [--mutations N]
"""
import argparse, json, random

import gen_front_cases as front

SHAPES = ["m16n8k8", "m16n8k16", "m16n8k32", "m16n8k64", "m16n8k128", "m16n8k256", "m8n8k16"]
BITS = {"f16": 16, "bf16": 16, "tf32": 32, "f32": 32, "s32": 32, "s8": 8, "u8": 8, "s4": 4, "u4": 4,
        "e4m3": 8, "e5m2": 8, "e3m2": 8, "e2m3": 8, "e2m1": 8}
F8F6F4 = ["e4m3", "e5m2", "e3m2", "e2m3", "e2m1"]
SPV = ["sp", "sp::ordered_metadata"]


def combos():
    """(dtype, atype, btype, ctype, shapes the ISA lists for mma.sp)."""
    out = []
    for d, c in (("f16", "f16"), ("f32", "f32"), ("f16", "f32"), ("f32", "f16")):
        out.append((d, "f16", "f16", c, ["m16n8k16", "m16n8k32"]))
    out.append(("f32", "bf16", "bf16", "f32", ["m16n8k16", "m16n8k32"]))
    out.append(("f32", "tf32", "tf32", "f32", ["m16n8k8", "m16n8k16"]))
    for a in ("s8", "u8"):
        for b in ("s8", "u8"):
            out.append(("s32", a, b, "s32", ["m16n8k32", "m16n8k64"]))
    for a in ("s4", "u4"):
        for b in ("s4", "u4"):
            out.append(("s32", a, b, "s32", ["m16n8k64", "m16n8k128"]))
    for a in ("e4m3", "e5m2"):
        for b in ("e4m3", "e5m2"):
            out.append(("f32", a, b, "f32", ["m16n8k64"]))
    out.append(("f16", "e4m3", "e4m3", "f16", ["m16n8k64"]))
    # Off-table mixes.
    out.append(("f32", "f16", "bf16", "f32", ["m16n8k16"]))
    out.append(("f16", "bf16", "bf16", "f16", ["m16n8k16"]))
    out.append(("s32", "s8", "s4", "s32", ["m16n8k64"]))
    out.append(("f64", "f64", "f64", "f64", ["m16n8k8"]))
    out.append(("s32", "b1", "b1", "s32", ["m16n8k256"]))
    out.append(("f32", "e2m1", "e2m1", "f32", ["m16n8k64"]))
    return out


def dims(shape):
    m, rest = shape[1:].split("n")
    n, k = rest.split("k")
    return int(m), int(n), int(k)


def counts(shape, d, a, b, c, packed4=False):
    """Registers of d, a, b, c: A holds M x K/2 stored elements."""
    m, n, k = dims(shape)

    def regs(elems, t):
        bits = 4 if packed4 and t == "e2m1" else BITS.get(t, 32)
        return max(1, elems * bits // 32)

    return regs(m * n // 32, d), regs(m * k // 2 // 32, a), regs(n * k // 32, b), regs(m * n // 32, c)


def vec(n, start):
    return "{" + ", ".join(f"%r{start + i}" for i in range(n)) + "}"


def text(spv, shape, layout, sat, types, cnt, kind=None, meta="%r250", sel="0", scale=None):
    d, a, b, c = types
    q = [spv, "sync", "aligned", shape] + list(layout) + (["satfinite"] if sat else []) + \
        ([kind] if kind else []) + (scale[0] if scale else []) + [d, a, b, c] + (scale[1] if scale else [])
    ops = [vec(cnt[0], 10), vec(cnt[1], 100), vec(cnt[2], 150), vec(cnt[3], 200), meta, sel]
    if scale:
        ops += scale[2]
    return "mma." + ".".join(q) + " " + ", ".join(ops) + ";"


SCALE_OPS = ["%r251", "{0, 0}", "%r252", "{0, 0}"]


def grid():
    out = []
    seen = set()

    def add(t, **q):
        if t not in seen:
            seen.add(t)
            out.append(front.case(t, "mma.sp", case_="grid", **q))

    rc = ("row", "col")
    for spv in SPV:
        for d, a, b, c, shapes in combos():
            ty = (d, a, b, c)
            for s in SHAPES:
                add(text(spv, s, rc, False, ty, counts(s, *ty)), sp=spv, shape=s, types=".".join(ty))
            for s in shapes:
                cnt = counts(s, *ty)
                for lay in (("col", "row"), ("row", "row"), ("row",), ()):
                    add(text(spv, s, lay, False, ty, cnt), sp=spv, shape=s, layout=".".join(lay))
                add(text(spv, s, rc, True, ty, cnt), sp=spv, shape=s, satfinite=True)
                for i in range(4):
                    for nn in sorted({cnt[i] - 1, cnt[i] + 1, cnt[i] * 2} - {0, cnt[i]}):
                        wrong = list(cnt)
                        wrong[i] = nn
                        add(text(spv, s, rc, False, ty, wrong), sp=spv, shape=s, fragment="dabc"[i], regs=nn)
                for sel in ("1", "2", "3", "4", "-1", "0x1", "%r251"):
                    add(text(spv, s, rc, False, ty, cnt, sel=sel), sp=spv, shape=s, selector=sel)
                for meta in ("0", "0x4e4e", "%rd1", "%h1", "{%r250}", "_", "%p1"):
                    add(text(spv, s, rc, False, ty, cnt, meta=meta), sp=spv, shape=s, metadata=meta)
        # .kind::f8f6f4 and the tcgen05 kinds
        for d in ("f32", "f16"):
            for a in F8F6F4:
                for b in F8F6F4:
                    ty = (d, a, b, d)
                    for s in ("m16n8k64", "m16n8k32"):
                        add(text(spv, s, rc, False, ty, counts(s, *ty), "kind::f8f6f4"), sp=spv, shape=s,
                            kind="f8f6f4")
        ty = ("f32", "e2m1", "e2m1", "f32")
        cnt = counts("m16n8k64", *ty)
        add(text(spv, "m16n8k64", rc, True, ty, cnt, "kind::f8f6f4"), sp=spv, kind="f8f6f4", satfinite=True)
        add(text(spv, "m16n8k64", rc, False, ("f32", "e2m1", "e2m1", "f16"), cnt, "kind::f8f6f4"), sp=spv,
            kind="f8f6f4", mixed=True)
        for sel in ("1", "2"):
            add(text(spv, "m16n8k64", rc, False, ty, cnt, "kind::f8f6f4", sel=sel), sp=spv, kind="f8f6f4",
                selector=sel)
        for kind in ("kind::f16", "kind::tf32", "kind::i8", "kind::mxf4"):
            for ty, s in ((("f32", "f16", "f16", "f32"), "m16n8k32"), (("f32", "e4m3", "e4m3", "f32"), "m16n8k64"),
                          (("s32", "s8", "s8", "s32"), "m16n8k64"), (("f32", "tf32", "tf32", "f32"), "m16n8k16")):
                add(text(spv, s, rc, False, ty, counts(s, *ty), kind), sp=spv, kind=kind)
        # Block scaling (§9.7.14.6.3 "Alternate floating point type with block scaling").
        mx = ("f32", "e2m1", "e2m1", "f32")
        for kind in ("kind::mxf4", "kind::mxf4nvf4", "kind::mxf8f6f4"):
            for vs in ([], ["scale_vec::1X"], ["scale_vec::2X"], ["scale_vec::4X"]):
                for st in ("ue8m0", "ue4m3"):
                    for s in ("m16n8k128", "m16n8k64"):
                        tys = [mx] if kind != "kind::mxf8f6f4" else [("f32", a, b, "f32") for a in F8F6F4
                                                                      for b in ("e4m3", "e2m1")]
                        for ty in tys:
                            p4 = kind != "kind::mxf8f6f4"
                            add(text(spv, s, rc, False, ty, counts(s, *ty, packed4=p4), kind,
                                     scale=(["block_scale"] + vs, [st], SCALE_OPS)),
                                sp=spv, kind=kind, scale_vec="".join(vs), stype=st, shape=s)
        # Scale operand kinds and block-scale fragment sizes.
        cnt = counts("m16n8k128", *mx, packed4=True)
        sc = (["block_scale", "scale_vec::2X"], ["ue8m0"])
        for ops in (["%r251", "{%h1, %h2}", "%r252", "{%h3, %h4}"], ["%r251", "{1, 3}", "%r252", "{3, 0}"],
                    ["%r251", "{4, 0}", "%r252", "{0, 0}"], ["%r251", "{0, 4}", "%r252", "{0, 0}"],
                    ["%r251", "{%r1, %r2}", "%r252", "{0, 0}"], ["{%r251}", "{0, 0}", "{%r252}", "{0, 0}"],
                    ["0", "{0, 0}", "%r252", "{0, 0}"], ["%rd1", "{0, 0}", "%r252", "{0, 0}"],
                    ["%r251", "{0}", "%r252", "{0, 0}"], ["%r251", "0", "%r252", "0"],
                    ["%r251", "{0, 0}", "%r252"], ["%r251", "{0, 0}", "%r252", "{0, 0}", "%r253"],
                    ["%h1", "{0, 0}", "%r252", "{0, 0}"]):
            add(text("sp::ordered_metadata", "m16n8k128", rc, False, mx, cnt, "kind::mxf4",
                     scale=(sc[0], sc[1], ops)), sp="sp::ordered_metadata", kind="mxf4", scale_ops=True)
        for i in range(4):
            for nn in (cnt[i] - 1, cnt[i] * 2):
                wrong = list(cnt)
                wrong[i] = nn
                add(text("sp::ordered_metadata", "m16n8k128", rc, False, mx, wrong, "kind::mxf4",
                         scale=(sc[0], sc[1], SCALE_OPS)), kind="mxf4", fragment="dabc"[i], regs=nn)
    # Dense mma.sync block scaling (§9.7.14.5.14), left out of the mma.sync suite.
    for kind in ("kind::mxf4", "kind::mxf4nvf4", "kind::mxf8f6f4"):
        for vs in ([], ["scale_vec::1X"], ["scale_vec::2X"], ["scale_vec::4X"]):
            for st in ("ue8m0", "ue4m3"):
                for s in ("m16n8k64", "m16n8k32"):
                    tys = [mx] if kind != "kind::mxf8f6f4" else [("f32", a, b, "f32") for a in F8F6F4
                                                                  for b in ("e4m3", "e2m1")]
                    for ty in tys:
                        p4 = kind != "kind::mxf8f6f4"
                        m, n, k = dims(s)
                        bits = 4 if p4 else 8
                        cnt = (4, m * k // 32 * bits // 32, n * k // 32 * bits // 32, 4)
                        q = ["sync", "aligned", kind, "block_scale"] + vs + [s, "row", "col"] + list(ty) + [st]
                        ops = [vec(cnt[0], 10), vec(cnt[1], 100), vec(cnt[2], 150), vec(cnt[3], 200)] + \
                            ["%r251", "{0, 0}", "%r252", "{0, 0}"]
                        add("mma." + ".".join(q) + " " + ", ".join(ops) + ";", dense=True, kind=kind,
                            scale_vec="".join(vs), stype=st, shape=s)
    # Qualifier order.
    base = " {%r10, %r11, %r12, %r13}, {%r100, %r101}, {%r150, %r151}, {%r200, %r201, %r202, %r203}, %r250, 0;"
    for q in ("mma.sync.aligned.sp.m16n8k16.row.col.f32.f16.f16.f32", "mma.sp.aligned.sync.m16n8k16.row.col.f32.f16.f16.f32",
              "mma.sp.sync.m16n8k16.row.col.f32.f16.f16.f32", "mma.sp.aligned.m16n8k16.row.col.f32.f16.f16.f32",
              "mma.sp.sync.aligned.row.col.m16n8k16.f32.f16.f16.f32", "mma.sp.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
              "mma.sp.sync.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
              "mma.sync.sp::ordered_metadata.aligned.m16n8k16.row.col.f32.f16.f16.f32",
              "mma.sp::ordered_metadata.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
              "mma.sp::ordered.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
              "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"):
        add(q + base, order=q)
    return out


POOL = ["sync", "aligned", "sp", "sp::ordered_metadata", "row", "col", "satfinite", "m16n8k8", "m16n8k16",
        "m16n8k32", "m16n8k64", "m16n8k128", "f16", "f32", "bf16", "tf32", "s32", "s8", "u8", "s4", "e4m3", "e2m1",
        "kind::f8f6f4", "kind::mxf4", "block_scale", "scale_vec::2X", "ue8m0", "ue4m3"]
OPERANDS = ["%r1", "{%r1}", "{%r1, %r2}", "{%r1, %r2, %r3, %r4}", "{%rd1, %rd2}", "0", "1", "3", "%rd1",
            "{0, 0}", "_", "%p1", "{%h1, %h2}"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--mutations", type=int, default=700)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    cases = grid()
    for c in cases:
        c["qualifiers"]["case"] = c["qualifiers"].pop("case_")
    front.NAME_LEN["mma"] = 1
    front.QUAL_POOL = POOL
    front.OPERAND_POOL = OPERANDS
    seen = {c["instr"] for c in cases}
    seeds = list(cases)
    n = 0
    while n < a.mutations:
        c = rng.choice(seeds)
        t, kind = front.mutate(c["instr"], "mma", rng)
        if t in seen:
            continue
        seen.add(t)
        cases.append(front.case(t, "mma.sp", case="mutation", mutation=kind))
        n += 1
    with open(a.out, "w") as f:
        for c in cases:
            f.write(json.dumps(c) + "\n")
    print(len(cases), "cases")


if __name__ == "__main__":
    main()
