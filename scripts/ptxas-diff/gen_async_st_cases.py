#!/usr/bin/env python3
"""Instruction texts for the st.async / red.async / st.bulk differential suite
(tests/data/ptxas_front/async_st.jsonl.gz; issue 21, helper brief s15/async_st).

PTX ISA 9.0 §9.7.9.12 st.async, §9.7.13.7 red.async, §9.7.9.11 st.bulk:
* st.async: memory order (none, `.weak .release .relaxed .acquire .volatile .mmio`) x scope (none, `.cta
  .cluster .gpu .sys`) x state space (none, `.shared::cluster .shared::cta .shared .global`) x completion
  mechanism (none, `.mbarrier::complete_tx::bytes`, misspelt) on `.u32`; every type x `.v2/.v4/.v8` on the
  shared and the global form, with the registers the vector implies and one fewer; register widths, value
  kinds (immediates, `_`, `{x}`), address and mbarrier operand kinds, operand counts; qualifier orders.
* red.async: the same orders x scopes x spaces x completion on `.add.u32`; every operation x type (with and
  without `.noftz`) on the shared and the global form; register widths, operand kinds and counts.
* st.bulk: orders x spaces; size and initval kinds and values; address kinds; operand counts.
Then seeded one-token mutations (a qualifier dropped, repeated, swapped, replaced or inserted from a pool;
an operand dropped, added or replaced) that keep the instruction name.
Registers are the kernel wrapper's (run_ptxas.py): %p<4>, %h<8>, %r<300>, %rd<8>, smem, mbar.
Usage: gen_async_st_cases.py OUT.jsonl [--seed N] [--mutations N]
"""
import argparse, itertools, json, random

import gen_front_cases as front

TYPES = ["b8", "u8", "s8", "b16", "u16", "s16", "b32", "u32", "s32", "f32", "b64", "u64", "s64", "f64", "b128",
         "f16", "bf16", "f16x2", "bf16x2", "pred"]
ORDERS = ["", "weak", "release", "relaxed", "acquire", "volatile", "mmio", "mmio.release", "acq_rel"]
SCOPES = ["", "cta", "cluster", "gpu", "sys"]
SPACES = ["", "shared::cluster", "shared::cta", "shared", "global"]
COMPLETIONS = ["", "mbarrier::complete_tx::bytes", "mbarrier::complete_tx"]
CT = "mbarrier::complete_tx::bytes"
RED_OPS = ["add", "min", "max", "inc", "dec", "and", "or", "xor", "exch", "cas"]
RED_TYPES = ["u32", "s32", "u64", "s64", "b32", "b64", "f32", "f64", "f16", "f16x2", "bf16", "bf16x2", "u16", "b16"]


def bits(t):
    if t == "pred":
        return 1
    if t.endswith("x2"):
        return 32
    return int("".join(ch for ch in t if ch.isdigit()))


def reg(t, i=1):
    b = bits(t)
    if b == 1:
        return f"%p{i % 4}"
    if b <= 16:
        return f"%h{i % 8}" if b == 16 else f"%r{i}"
    return f"%rd{i % 8}" if b >= 64 else f"%r{i}"


def vec(t, n, start=1):
    return "{" + ", ".join(reg(t, start + i) for i in range(n)) + "}"


def text(name, quals, ops):
    return name + "".join("." + q for q in quals if q) + " " + ", ".join(ops) + ";"


def st_async_grid(add):
    fam = "st.async"
    shared = ["weak", "shared::cluster", CT]
    glob = ["release", "gpu", "global"]
    for order, scope, sp, ct in itertools.product(ORDERS, SCOPES, SPACES, COMPLETIONS):
        add(text("st.async", [order, scope, sp, ct, "u32"], ["[%r3]", "%r1", "[%r2]"]), fam, order=order,
            scope=scope, space=sp)
        if not ct:
            add(text("st.async", [order, scope, sp, "u32"], ["[%r3]", "%r1"]), fam, order=order, scope=scope,
                space=sp, operands=2)
    for t, v in itertools.product(TYPES, ["", "v2", "v4", "v8"]):
        n = int(v[1]) if v else 0
        val = vec(t, n) if n else reg(t)
        add(text("st.async", shared + [v, t], ["[%r3]", val, "[%r2]"]), fam, type=t, vector=v)
        add(text("st.async", glob + [v, t], ["[%rd3]", val]), fam, type=t, vector=v)
        add(text("st.async", ["mmio"] + glob[:2] + [v, t], ["[%rd3]", val]), fam, type=t, vector=v)
        if n:
            add(text("st.async", shared + [v, t], ["[%r3]", vec(t, n - 1), "[%r2]"]), fam, type=t, vector=v,
                regs=n - 1)
    for t in ("b8", "u16", "b32", "f32", "u64", "f64", "s32"):
        for r in ("%h1", "%r1", "%rd1", "%p1"):
            add(text("st.async", shared + [t], ["[%r3]", r, "[%r2]"]), fam, type=t, reg=r)
            add(text("st.async", glob + [t], ["[%rd3]", r]), fam, type=t, reg=r)
    for v in ("_", "5", "-1", "0f3F800000", "0d3FF0000000000000", "{%r1}", "{%r1, _}", "{%r1, 7}", "{_, _}", "smem"):
        t = "f32" if v.startswith("0f") else "f64" if v.startswith("0d") else "u32"
        vq = "v2" if v.startswith("{") and "," in v else ""
        add(text("st.async", shared + [vq, t], ["[%r3]", v, "[%r2]"]), fam, value=v)
        add(text("st.async", glob + [vq, t], ["[%rd3]", v]), fam, value=v)
    for a in ("[smem]", "[%r3]", "[%rd3]", "[%h3]", "[16]", "[%r3+4]", "[smem+8]", "[smem+-8]", "smem", "%r3",
              "[mbar]", "[%r3-4]", "[%p1]", "_"):
        add(text("st.async", shared + ["u32"], [a, "%r1", "[%r2]"]), fam, address=a)
        add(text("st.async", glob + ["u32"], [a, "%r1"]), fam, address=a)
        add(text("st.async", shared + ["u32"], ["[%r3]", "%r1", a]), fam, mbar=a)
    for m in ("[%rd2]", "[mbar+8]", "%rd2"):
        add(text("st.async", shared + ["u32"], ["[%r3]", "%r1", m]), fam, mbar=m)
    for ops in (["[%r3]"], ["[%r3]", "%r1"], ["[%r3]", "%r1", "[%r2]", "%rd1"], ["[%r3]", "%r1", "[%r2]", "[%r4]"]):
        add(text("st.async", shared + ["u32"], ops), fam, operands=len(ops))
        add(text("st.async", glob + ["u32"], ops), fam, operands=len(ops))
    for form in (["weak", "shared::cluster", CT, "v2", "u32"], ["release", "gpu", "global", "u32"],
                 ["mmio", "release", "sys", "global", "b16"]):
        t = form[-1]
        n = 2 if "v2" in form else 0
        ops = ["[%r3]", vec(t, n) if n else reg(t), "[%r2]"] if "global" not in form else ["[%rd3]", reg(t)]
        for perm in itertools.permutations(form):
            add(text("st.async", list(perm), ops), fam, order="perm")
    for extra in ("L2::cache_hint", "L1::no_allocate", "wb", "cg", "volatile", "aligned", "async", "bulk", "unified"):
        add(text("st.async", shared + [extra, "u32"], ["[%r3]", "%r1", "[%r2]"]), fam, cache=extra)
        add(text("st.async", glob + [extra, "u32"], ["[%rd3]", "%r1"]), fam, cache=extra)


def red_async_grid(add):
    fam = "red.async"
    shared = ["relaxed", "cluster", "shared::cluster", CT]
    glob = ["release", "gpu", "global"]
    orders = ["", "relaxed", "release", "acquire", "acq_rel", "weak", "mmio.release", "mmio.relaxed", "mmio"]
    for order, scope, sp, ct in itertools.product(orders, SCOPES, SPACES, COMPLETIONS[:2]):
        add(text("red.async", [order, scope, sp, ct, "add", "u32"], ["[%r3]", "%r1", "[%r2]"]), fam, order=order,
            scope=scope, space=sp)
        if not ct:
            add(text("red.async", [order, scope, sp, "add", "u32"], ["[%r3]", "%r1"]), fam, order=order,
                scope=scope, space=sp, operands=2)
    for op, t, noftz in itertools.product(RED_OPS, RED_TYPES, (False, True)):
        if noftz and not t.startswith(("f16", "bf16", "f32")):
            continue
        q = [op] + (["noftz"] if noftz else []) + [t]
        c = [reg(t, 4)] if op == "cas" else []
        add(text("red.async", shared + q, ["[%r3]", reg(t, 1)] + c + ["[%r2]"]), fam, op=op, type=t)
        add(text("red.async", glob + q, ["[%rd3]", reg(t, 1)] + c), fam, op=op, type=t)
        add(text("red.async", ["mmio"] + glob + q, ["[%rd3]", reg(t, 1)]), fam, op=op, type=t)
    for op, t in (("add", "u32"), ("add", "u64"), ("min", "s32"), ("inc", "u32"), ("and", "b32"), ("add", "s64")):
        for r in ("%h1", "%r1", "%rd1", "%p1", "5", "-1", "0f3F800000", "_", "{%r1}"):
            add(text("red.async", shared + [op, t], ["[%r3]", r, "[%r2]"]), fam, op=op, type=t, reg=r)
            add(text("red.async", glob + [op, t], ["[%rd3]", r]), fam, op=op, type=t, reg=r)
    for a in ("[smem]", "[%r3]", "[%rd3]", "[%h3]", "[16]", "[%r3+4]", "[smem+8]", "smem", "%r3", "[mbar]", "_",
              "[%p1]"):
        add(text("red.async", shared + ["add", "u32"], [a, "%r1", "[%r2]"]), fam, address=a)
        add(text("red.async", glob + ["add", "u32"], [a, "%r1"]), fam, address=a)
        add(text("red.async", shared + ["add", "u32"], ["[%r3]", "%r1", a]), fam, mbar=a)
    for ops in (["[%r3]"], ["[%r3]", "%r1"], ["[%r3]", "%r1", "[%r2]", "%rd1"], ["%r5", "[%r3]", "%r1", "[%r2]"]):
        add(text("red.async", shared + ["add", "u32"], ops), fam, operands=len(ops))
        add(text("red.async", glob + ["add", "u32"], ops), fam, operands=len(ops))
    for v in ("v2", "v4"):
        add(text("red.async", shared + [v, "add", "u32"], ["[%r3]", vec("u32", int(v[1])), "[%r2]"]), fam, vector=v)
        add(text("red.async", glob + ["add", v, "f32"], ["[%rd3]", vec("f32", int(v[1]))]), fam, vector=v)
    for form in (["relaxed", "cluster", "shared::cluster", CT, "add", "u32"], ["release", "sys", "global", "add", "u64"]):
        t = form[-1]
        ops = ["[%r3]", reg(t), "[%r2]"] if CT in form else ["[%rd3]", reg(t)]
        for perm in itertools.permutations(form):
            add(text("red.async", list(perm), ops), fam, order="perm")
    for extra in ("L2::cache_hint", "ftz", "rn", "sat", "volatile", "aligned", "sync"):
        add(text("red.async", shared + ["add", extra, "u32"], ["[%r3]", "%r1", "[%r2]"]), fam, cache=extra)
        add(text("red.async", glob + ["add", extra, "u32"], ["[%rd3]", "%r1"]), fam, cache=extra)


def st_bulk_grid(add):
    fam = "st.bulk"
    for order, sp in itertools.product(["", "weak", "relaxed", "release", "volatile", "strong", "mmio"],
                                       ["", "shared::cta", "shared", "shared::cluster", "global", "local"]):
        add(text("st.bulk", [order, sp], ["[%r3]", "64", "0"]), fam, order=order, space=sp)
        add(text("st.bulk", [order, sp], ["[%rd3]", "%rd1", "0"]), fam, order=order, space=sp)
    for size in ("64", "8", "16", "7", "12", "0", "4096", "65536", "1048576", "0x40", "-8", "%rd1", "%r1", "%h1",
                 "%p1", "_", "0f3F800000", "{%rd1}", "[%rd1]", "smem", "4294967296", "2147483648"):
        add(text("st.bulk", ["weak", "shared::cta"], ["[%r3]", size, "0"]), fam, size=size)
        add(text("st.bulk", [], ["[%rd3]", size, "0"]), fam, size=size)
    for init in ("0", "1", "-1", "0x0", "00", "%r1", "%rd1", "_", "0f00000000", "{0}", "%h1"):
        add(text("st.bulk", ["weak", "shared::cta"], ["[%r3]", "64", init]), fam, initval=init)
        add(text("st.bulk", [], ["[%rd3]", "%rd1", init]), fam, initval=init)
    for a in ("[smem]", "[%r3]", "[%rd3]", "[%h3]", "[16]", "[%r3+16]", "[smem+64]", "smem", "%rd3", "[mbar]", "_",
              "[%p1]", "[%rd3+-16]"):
        add(text("st.bulk", ["weak", "shared::cta"], [a, "64", "0"]), fam, address=a)
        add(text("st.bulk", [], [a, "%rd1", "0"]), fam, address=a)
    for ops in (["[%r3]"], ["[%r3]", "64"], ["[%r3]", "64", "0", "0"], ["[%r3]", "64", "0", "[mbar]"]):
        add(text("st.bulk", ["weak", "shared::cta"], ops), fam, operands=len(ops))
    for extra in ("u32", "b64", "v2", "cta", "cluster", "gpu", "sys", "L2::cache_hint", "async", CT, "weak", "aligned"):
        add(text("st.bulk", ["weak", "shared::cta", extra], ["[%r3]", "64", "0"]), fam, cache=extra)
        add(text("st.bulk", [extra], ["[%r3]", "64", "0"]), fam, cache=extra)
    for perm in itertools.permutations(["weak", "shared::cta"]):
        add(text("st.bulk", list(perm), ["[%r3]", "64", "0"]), fam, order="perm")


POOL = ["weak", "release", "relaxed", "acquire", "mmio", "cta", "cluster", "gpu", "sys", "shared::cluster",
        "shared::cta", "shared", "global", CT, "v2", "v4", "u32", "s32", "b32", "u64", "b64", "f32", "f64", "b16",
        "u8", "add", "min", "max", "inc", "dec", "and", "or", "xor", "noftz", "f16", "bf16x2"]
OPERANDS = ["%r1", "%rd1", "%h1", "%p1", "0", "64", "[smem]", "[%r2]", "[%rd2]", "[mbar]", "smem", "_", "{%r1}",
            "{%r1, %r2}", "{%rd1, %rd2}"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--mutations", type=int, default=1200)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    cases, seen = [], set()

    def add(t, fam, **q):
        if t not in seen:
            seen.add(t)
            cases.append(front.case(t, fam, case="grid", **q))

    st_async_grid(add)
    red_async_grid(add)
    st_bulk_grid(add)
    front.NAME_LEN.update({"st.async": 2, "red.async": 2, "st.bulk": 2})
    front.QUAL_POOL = POOL
    front.OPERAND_POOL = OPERANDS
    seeds = {}
    for c in cases:
        seeds.setdefault(c["opcode"], []).append(c)
    fams = sorted(seeds)
    n = 0
    while n < a.mutations:
        fam = rng.choice(fams)
        c = rng.choice(seeds[fam])
        t, kind = front.mutate(c["instr"], fam, rng)
        if t in seen or not t.startswith(fam + ".") and not t.startswith(fam + " "):
            continue
        seen.add(t)
        cases.append(front.case(t, fam, case="mutation", mutation=kind))
        n += 1
    with open(a.out, "w") as f:
        for c in cases:
            f.write(json.dumps(c) + "\n")
    print(len(cases), "cases")


if __name__ == "__main__":
    main()
