#!/usr/bin/env python3
"""Instruction texts for the shared-memory ld / st / atom / red differential suite
(tests/data/ptxas_front/ldst.jsonl.gz; issue 21, helper brief s15/ldst).

PTX ISA 9.2 §9.7.9.8 ld, §9.7.9.10 st, §9.7.13.5 atom, §9.7.13.6 red, on `.shared`, `.shared::cta`
and `.shared::cluster`:
* ld/st: every memory order (`.weak .volatile .relaxed .acquire .release .mmio`) x scope (none,
  `.cta .cluster .gpu .sys`) x state space; every cache operator, `.L1::*` / `.L2::*` eviction
  priority, `.L2::cache_hint` (with and without its operand), `.L2::64B/128B/256B`, `.nc`, `.unified`
  with the orders; every type x `.v2/.v4/.v8` with the register count the vector implies (and one
  short); register widths per type; immediates, sinks and every address form; qualifier orders.
* atom/red: every operation x type (with and without `.noftz`) x state space with operands of the
  type's width; `.sem` x `.scope`; `.L2::cache_hint`; vectors; register widths; operand kinds.
Then seeded one-token mutations (gen_front_cases.mutate) that keep a shared state space: ld/st/atom/red
elsewhere is not data movement into shared memory, and `check` does not claim it.
Registers are the kernel wrapper's (run_ptxas.py): %p<4>, %h<8>, %r<300>, %rd<8>, smem, mbar.
`.v8` of 8- and 16-bit types is left out: ptxas 13.0 crashes on it (segmentation fault).
Usage: gen_ldst_cases.py OUT.jsonl [--seed N] [--mutations N]
"""
import argparse, itertools, json, random

import gen_front_cases as front

SPACES = ["shared", "shared::cta", "shared::cluster"]
TYPES = ["b8", "u8", "s8", "b16", "u16", "s16", "f16", "b32", "u32", "s32", "f32", "b64", "u64", "s64", "f64",
         "b128", "bf16", "f16x2", "pred"]
ORDERS = ["", "weak", "volatile", "relaxed", "acquire", "release", "mmio", "mmio.relaxed", "acq_rel"]
SCOPES = ["", "cta", "cluster", "gpu", "sys"]
LD_CACHE = ["ca", "cg", "cs", "lu", "cv", "wb", "wt", "nc", "L1::evict_normal", "L1::evict_unchanged",
            "L1::evict_first", "L1::evict_last", "L1::no_allocate", "L2::evict_normal", "L2::evict_first",
            "L2::evict_last", "L2::cache_hint", "L2::64B", "L2::128B", "L2::256B", "unified"]
ATOM_OPS = ["add", "min", "max", "inc", "dec", "and", "or", "xor", "exch", "cas"]
ATOM_TYPES = ["b16", "b32", "b64", "b128", "u16", "u32", "u64", "s16", "s32", "s64", "f16", "f16x2", "bf16",
              "bf16x2", "f32", "f64"]


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


def addr(space):
    return "[%r3]" if space == "shared::cluster" else "[smem+8]"


def ldst(op, quals, val, a, extra=None):
    ops = [val, a] if op == "ld" else [a, val]
    if extra:
        ops.append(extra)
    return f"{op}." + ".".join(q for q in quals if q) + " " + ", ".join(ops) + ";"


def ldst_grid(add):
    for op in ("ld", "st"):
        fam = op + ".shared"
        # Orders x scopes x spaces.
        for order, scope, sp in itertools.product(ORDERS, SCOPES, SPACES):
            add(ldst(op, [order, scope, sp, "u32"], "%r1", addr(sp)), fam, order=order, scope=scope)
        # Cache operators, eviction priorities, hints, prefetch sizes with the orders.
        for cop, order in itertools.product(LD_CACHE, ["", "weak", "volatile", "relaxed.cta", "acquire.gpu",
                                                        "release.gpu"]):
            q = [order, "shared", cop, "u32"]
            if cop == "unified":
                add(ldst(op, [order, "shared", "u32"], "%r1", "[smem].unified"), fam, cache=cop, order=order)
                continue
            add(ldst(op, q, "%r1", "[smem]"), fam, cache=cop, order=order)
            if cop == "L2::cache_hint":
                add(ldst(op, q, "%r1", "[smem]", "%rd1"), fam, cache=cop, order=order, policy=True)
        for c1, c2 in (("ca", "cg"), ("cg", "cg"), ("wb", "wt"), ("cs", "L2::128B"), ("L2::evict_last", "L2::evict_first")):
            add(ldst(op, ["shared", c1, c2, "u32"], "%r1", "[smem]"), fam, cache=c1 + "." + c2)
        # Types x vectors x spaces (ordered and not).
        for t, v, sp, order in itertools.product(TYPES, ["", "v2", "v4", "v8"], SPACES, ["", "volatile", "relaxed.cta"]):
            if v == "v8" and bits(t) < 32:
                continue  # ptxas 13.0 crashes on .v8 of 8/16-bit types
            if order and sp != "shared":
                continue
            n = int(v[1]) if v else 0
            val = vec(t, n) if n else reg(t)
            add(ldst(op, [order, sp, v, t], val, addr(sp)), fam, type=t, vector=v)
            if n:
                add(ldst(op, [order, sp, v, t], vec(t, n - 1), addr(sp)), fam, type=t, vector=v, regs=n - 1)
        for v, t in (("v8", "b32"), ("v4", "b64"), ("v8", "f32"), ("v4", "f64")):
            for cop in ("", "L2::evict_last", "L2::evict_first", "L2::evict_normal", "L2::cache_hint"):
                n = int(v[1])
                add(ldst(op, ["shared", cop, v, t], vec(t, n), "[smem]", "%rd1" if cop == "L2::cache_hint" else None),
                    fam, type=t, vector=v, cache=cop)
        # Register widths per type.
        for t in ("b8", "u16", "s16", "b32", "f32", "u64", "f64", "s8"):
            for r in ("%h1", "%r1", "%rd1"):
                add(ldst(op, ["shared", t], r, "[smem]"), fam, type=t, reg=r)
        # Addresses, immediates, sinks.
        for sp in SPACES:
            for a in ("[smem]", "[%r3]", "[%rd3]", "[%h3]", "[16]", "[%r3+4]", "[smem+-8]", "smem", "[mbar]", "[%r3-4]",
                      "[p0]", "[%p1]", "[smem+4096]", "[0x10]"):
                add(ldst(op, [sp, "u32"], "%r1", a), fam, address=a)
        for v in ("_", "5", "0f3F800000", "{%r1}", "%p1", "{%r1, _}", "{_, _}", "{%r1, 7}"):
            t = "f32" if v.startswith("0f") else "u32"
            add(ldst(op, ["shared", "v2" if v.startswith("{") and "," in v else "", t], v, "[smem]"), fam, value=v)
        add(f"{op}.shared.u32 " + ("%r1, [smem], %r2;" if op == "ld" else "[smem], %r1, %r2;"), fam, operands=3)
        add(f"{op}.shared.u32 " + ("%r1;" if op == "ld" else "[smem];"), fam, operands=1)
        # Qualifier orders: every permutation of a few multi-qualifier forms.
        forms = ([["relaxed", "cta", "shared", "v2", "u32"], ["volatile", "shared::cta", "b32"],
                  ["weak", "shared", "cg", "v4", "f32"]] if op == "ld" else
                 [["release", "cluster", "shared", "v2", "u32"], ["volatile", "shared::cta", "b32"],
                  ["weak", "shared", "wt", "v4", "f32"]])
        for form in forms:
            t = form[-1]
            n = int(form[-2][1]) if form[-2].startswith("v") else 0
            for perm in itertools.permutations(form):
                add(ldst(op, list(perm), vec(t, n) if n else reg(t), "[smem]"), fam, order="perm")


def atom_text(op_name, quals, atype, d, a, b, c=None, red=False):
    ops = ([] if red else [d]) + [a, b] + ([c] if c is not None else [])
    return f"{op_name}." + ".".join(q for q in quals if q) + " " + ", ".join(ops) + ";"


def atomred_grid(add):
    for name in ("atom", "red"):
        red = name == "red"
        fam = name + ".shared"
        for op, t, noftz, sp in itertools.product(ATOM_OPS, ATOM_TYPES, (False, True), SPACES):
            if noftz and not t.startswith(("f16", "bf16", "f32")):
                continue
            if sp == "shared::cta" and noftz:
                continue
            q = [sp, op] + (["noftz"] if noftz else []) + [t]
            c = reg(t, 4) if op == "cas" else None
            add(atom_text(name, q, t, reg(t, 1), addr(sp), reg(t, 2), c, red), fam, op=op, type=t)
            if op == "cas":
                add(atom_text(name, q, t, reg(t, 1), addr(sp), reg(t, 2), None, red), fam, op=op, type=t, operands=-1)
            elif op == "add" and sp == "shared":
                add(atom_text(name, q, t, reg(t, 1), addr(sp), reg(t, 2), reg(t, 4), red), fam, op=op, type=t,
                    operands=1)
        for sem, scope, sp in itertools.product(ORDERS + ["acq_rel"], SCOPES, SPACES):
            if sem == "acq_rel" and ORDERS.count("acq_rel"):
                pass
            add(atom_text(name, [sem, scope, sp, "add", "u32"], "u32", "%r1", addr(sp), "%r2", None, red), fam,
                order=sem, scope=scope)
        for sem, scope in itertools.product(["", "relaxed", "acquire", "release", "acq_rel"], ["", "cta", "sys"]):
            add(atom_text(name, [sem, scope, "shared", "cas", "b64"], "b64", "%rd1", "[smem]", "%rd2", "%rd3", red),
                fam, order=sem, scope=scope, op="cas")
            add(atom_text(name, [sem, scope, "shared", "add", "noftz", "f16x2"], "f16x2", "%r1", "[smem]", "%r2", None,
                          red), fam, order=sem, scope=scope, op="add")
        for cop in ("L2::cache_hint", "ca", "cg", "volatile", "L1::evict_last", "L2::evict_last", "L2::128B", "ftz",
                    "rn", "sat", "nc"):
            add(atom_text(name, ["shared", "add", cop, "u32"], "u32", "%r1", "[smem]", "%r2", None, red), fam, cache=cop)
            if cop == "L2::cache_hint":
                add(atom_text(name, ["shared", "add", cop, "u32"], "u32", "%r1", "[smem]", "%r2", "%rd1", red), fam,
                    cache=cop, policy=True)
        for v, t, op in itertools.product(["v2", "v4", "v8"], ["f32", "f16", "f16x2", "bf16", "bf16x2"],
                                          ["add", "min", "max"]):
            n = int(v[1])
            q = ["shared", op] + (["noftz"] if t != "f32" else []) + [v, t]
            add(atom_text(name, q, t, vec(t, n), "[smem]", vec(t, n, 10), None, red), fam, op=op, type=t, vector=v)
        for op, t in (("add", "u32"), ("add", "u64"), ("add", "f32"), ("add", "f64"), ("cas", "b32"), ("exch", "b64"),
                      ("add", "noftz.f16"), ("add", "noftz.bf16x2"), ("cas", "b16"), ("inc", "u32"), ("and", "b32")):
            tt = t.split(".")[-1]
            for rd, rb in itertools.product(("%h1", "%r1", "%rd1"), ("%h2", "%r2", "%rd2")):
                c = rb if op == "cas" else None
                add(atom_text(name, ["shared", op, t], tt, rd, "[smem]", rb, c, red), fam, op=op, type=tt, reg=rd + rb)
        for sp in SPACES:
            for a in ("[smem]", "[%r3]", "[%rd3]", "[%h3]", "[16]", "[%r3+4]", "[smem+-8]", "smem", "[mbar]", "%r3",
                      "[%r3-4]", "[p0]", "[%p1]", "_"):
                add(atom_text(name, [sp, "add", "u32"], "u32", "%r1", a, "%r2", None, red), fam, address=a)
        for d, b in (("_", "%r2"), ("%r1", "5"), ("%r1", "_"), ("{%r1}", "%r2"), ("%r1", "{%r2}"), ("%p1", "%r2"),
                     ("%r1", "%p2"), ("%r1", "-1"), ("%r1", "0f3F800000")):
            add(atom_text(name, ["shared", "add", "u32"], "u32", d, "[smem]", b, None, red), fam, value=d + "," + b)
        for b, c in (("1", "2"), ("%r2", "_"), ("_", "%r3"), ("%r2", "0")):
            add(atom_text(name, ["shared", "cas", "b32"], "b32", "_", "[smem]", b, c, red), fam, value=b + "," + c)
        add(atom_text(name, ["shared", "add", "f32"], "f32", "%r1", "[smem]", "0f3F800000", None, red), fam, value="imm")
        for t, imm in (("f16", "0x3C00"), ("f16x2", "0x3C003C00"), ("bf16", "0x3F80"), ("bf16x2", "1"), ("f64", "0d3FF0000000000000"),
                       ("u64", "5"), ("f32", "1"), ("u32", "0f3F800000")):
            q = ["shared", "add"] + (["noftz"] if t.startswith(("f16", "bf16")) else []) + [t]
            add(atom_text(name, q, t, reg(t, 1), "[smem]", imm, None, red), fam, value="imm", type=t)
        for b, c in (("5", "9"), ("%h2", "9"), ("5", "%h3")):
            add(atom_text(name, ["shared", "cas", "b16"], "b16", "%h1", "[smem]", b, c, red), fam, value="imm", type="b16")
        # Doubled and conflicting qualifiers, orders.
        for q in (["shared", "add", "add", "u32"], ["shared", "add", "min", "u32"], ["shared", "add", "u32", "u32"],
                  ["shared", "shared", "add", "u32"], ["shared", "shared::cta", "add", "u32"],
                  ["relaxed", "relaxed", "cta", "shared", "add", "u32"], ["relaxed", "cta", "gpu", "shared", "add", "u32"],
                  ["shared", "add", "u32", "s32"], ["relaxed", "release", "cta", "shared", "add", "u32"],
                  ["shared", "global", "add", "u32"], ["shared", "local", "add", "u32"]):
            add(atom_text(name, q, "u32", "%r1", "[smem]", "%r2", None, red), fam, order="dup")
        add(atom_text(name, ["shared", "add", "noftz", "noftz", "f16"], "f16", "%h1", "[smem]", "%h2", None, red), fam,
            order="dup")
        for form in (["relaxed", "cta", "shared", "add", "u32"], ["release", "shared::cta", "noftz", "add", "bf16"]):
            t = form[-1]
            for perm in itertools.permutations(form):
                add(atom_text(name, list(perm), t, reg(t, 1), "[smem]", reg(t, 2), None, red), fam, order="perm")


ATOM_POOL = ["shared", "shared::cta", "shared::cluster", "add", "min", "max", "inc", "dec", "and", "or", "xor", "exch",
             "cas", "noftz", "u32", "s32", "u64", "s64", "b32", "b64", "b16", "f16", "f16x2", "bf16", "bf16x2", "f32",
             "f64", "relaxed", "acquire", "release", "acq_rel", "cta", "cluster", "gpu", "sys", "v2", "L2::cache_hint"]
LDST_POOL = ["shared", "shared::cta", "shared::cluster", "v2", "v4", "v8", "u32", "b64", "f32", "s8", "f16", "b16",
             "b128", "weak", "volatile", "relaxed", "acquire", "release", "cta", "cluster", "gpu", "sys", "ca", "cg",
             "cs", "lu", "cv", "wb", "wt", "L1::evict_last", "L2::evict_first", "L2::cache_hint", "L2::128B", "mmio"]
OPERANDS = ["%r1", "%rd1", "%h1", "%p1", "0", "16", "[smem]", "[%r2]", "[%rd0]", "smem", "_", "{%r1}", "{%r1, %r2}",
            "{%r1, %r2, %r3, %r4}", "{%rd1, %rd2}"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--mutations", type=int, default=1500)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    cases, seen = [], set()

    def add(t, fam, **q):
        if t not in seen:
            seen.add(t)
            cases.append(front.case(t, fam, case="grid", **q))

    ldst_grid(add)
    atomred_grid(add)
    front.NAME_LEN.update({"atom.shared": 1, "red.shared": 1})
    front.OPERAND_POOL = OPERANDS
    seeds = {}
    for c in cases:
        seeds.setdefault(c["opcode"], []).append(c)
    fams = sorted(seeds)
    n = 0
    while n < a.mutations:
        fam = rng.choice(fams)
        c = rng.choice(seeds[fam])
        front.LDST_POOL = ATOM_POOL if fam.startswith(("atom", "red")) else LDST_POOL
        # gen_front_cases.mutate keeps a shared state space for "ld.shared"/"st.shared"; the same for atom/red.
        t, kind = front.mutate(c["instr"], "ld.shared" if fam.startswith(("atom", "red")) else fam, rng)
        head = t.split(" ")[0]
        if t in seen or not any(q in front.LDST_SPACES for q in head.split(".")[1:]):
            continue
        if any(v in head.split(".") for v in ("v8",)) and any(x in head.split(".") for x in ("b8", "u8", "s8", "b16",
                                                                                              "u16", "s16", "f16", "bf16")):
            continue  # ptxas crashes
        seen.add(t)
        cases.append(front.case(t, fam, case="mutation", mutation=kind))
        n += 1
    with open(a.out, "w") as f:
        for c in cases:
            f.write(json.dumps(c) + "\n")
    print(len(cases), "cases")


if __name__ == "__main__":
    main()
