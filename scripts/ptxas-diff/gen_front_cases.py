#!/usr/bin/env python3
"""Instruction texts for the front-end families' differential suite (tests/data/ptxas_front/).

Families (issue 21 item 1, helper brief "front"): wgmma.* (mma_async dense and .sp, fence,
commit_group, wait_group), cp.async (sm_80 copies, commit_group / wait_group / wait_all,
cp.async.mbarrier.arrive), fence.proxy.* / fence.mbarrier_init, barrier.cluster, elect.sync, the
mbarrier forms beyond init / arrive.expect_tx / waits, and ld / st on shared memory. For each: a grid of
qualifiers with the operand list the qualifiers imply, then seeded one-token mutations of the grid
(a qualifier dropped, repeated, swapped with its neighbour, replaced or inserted from a pool; an
operand dropped, added or replaced by another kind). Registers are the kernel wrapper's
(run_ptxas.py): %p<4>, %h<8>, %r<300>, %rd<8>, smem, mbar.
`--set matrix` writes the ldmatrix / stmatrix / movmatrix suite instead (tests/data/ptxas_front/matrix.jsonl.gz).
Usage: gen_front_cases.py OUT.jsonl [--seed N] [--mutations N] [--set front|matrix]
"""
import argparse, json, random

FLOAT_N = list(range(8, 257, 8))
INT_N = [8, 16, 24] + list(range(32, 257, 16))


def case(instr, fam, **q):
    return dict(instr=instr, opcode=fam, qualifiers=q)


def regs(n, start=10):
    return "{" + ", ".join(f"%r{start + i}" for i in range(n)) + "}"


def wgmma_grid():
    out = []
    # (dtype, atype, btype, k, trans-able, D regs per N, int)
    combos = [("f16", "f16", "f16", 16, True), ("f32", "f16", "f16", 16, True), ("f32", "bf16", "bf16", 16, True),
              ("f32", "tf32", "tf32", 8, False)]
    for d in ("f16", "f32"):
        for a in ("e4m3", "e5m2"):
            for b in ("e4m3", "e5m2"):
                combos.append((d, a, b, 32, False))
    for a in ("s8", "u8"):
        for b in ("s8", "u8"):
            combos.append(("s32", a, b, 32, False))
    for dt, at, bt, k, trans in combos:
        integer = dt == "s32"
        ns = INT_N if integer else FLOAT_N
        for sparse in (False, True):
            kk = k * 2 if sparse else k
            for n in ns:
                for areg in (False, True):
                    if sparse and n % 16 and not integer and n not in (8, 24):
                        pass
                    dregs = n // 4 if dt == "f16" else n // 2
                    sat = [False, True] if integer else [False]
                    for s in sat:
                        name = "wgmma.mma_async" + (".sp" if sparse else "") + ".sync.aligned"
                        quals = [f"m64n{n}k{kk}"] + (["satfinite"] if s else []) + [dt, at, bt]
                        ops = [regs(dregs), regs(4, 200) if areg else "%rd1", "%rd2"]
                        if sparse:
                            ops += ["%r250", "0"]
                        ops.append("%p1")
                        if not integer:
                            ops += ["1", "1"]
                            if trans:
                                ops += (["1"] if areg else ["0", "1"])
                        out.append(case(name + "." + ".".join(quals) + " " + ", ".join(ops) + ";", "wgmma.mma_async",
                                        case_="grid", n=n, sparse=sparse, a_regs=areg))
    for n in INT_N:
        for areg in (False, True):
            ops = [regs(n // 2), regs(4, 200) if areg else "%rd1", "%rd2", "%p1"]
            out.append(case(f"wgmma.mma_async.sync.aligned.m64n{n}k256.s32.b1.b1.and.popc " + ", ".join(ops) + ";",
                            "wgmma.mma_async", case_="grid", n=n, sparse=False, a_regs=areg))
    # Off-grid shapes and transposes written as registers.
    for n in (4, 12, 264, 512):
        out.append(case(f"wgmma.mma_async.sync.aligned.m64n{n}k16.f32.f16.f16 {regs(max(n // 2, 1))}, %rd1, %rd2, "
                        "%p1, 1, 1, 0, 0;", "wgmma.mma_async", case_="grid", n=n, sparse=False, a_regs=False))
    for imm in ("-1", "2", "0"):
        out.append(case(f"wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {regs(4)}, %rd1, %rd2, %p1, {imm}, 1, "
                        "0, 0;", "wgmma.mma_async", case_="grid", n=8, sparse=False, a_regs=False))
        out.append(case(f"wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {regs(4)}, %rd1, %rd2, %p1, 1, 1, "
                        f"{imm}, 0;", "wgmma.mma_async", case_="grid", n=8, sparse=False, a_regs=False))
    for s in ("fence", "commit_group"):
        out.append(case(f"wgmma.{s}.sync.aligned;", "wgmma." + s, case_="grid"))
    for n in ("0", "1", "7", "%r1"):
        out.append(case(f"wgmma.wait_group.sync.aligned {n};", "wgmma.wait_group", case_="grid"))
    return out


def cp_async_grid():
    out = []
    for cache in ("ca", "cg"):
        for sp in ("shared", "shared::cta"):
            for size in ("4", "8", "16", "%r1"):
                for pf in ("", "L2::64B", "L2::128B", "L2::256B"):
                    for hint in (False, True):
                        for extra in ("", "src", "ignore"):
                            q = [cache, sp, "global"] + (["L2::cache_hint"] if hint else []) + ([pf] if pf else [])
                            ops = ["[smem]", "[%rd0]", size]
                            if extra == "src":
                                ops.append("%r2")
                            if extra == "ignore":
                                ops.append("%p1")
                            if hint:
                                ops.append("%rd1")
                            out.append(case("cp.async." + ".".join(q) + " " + ", ".join(ops) + ";", "cp.async",
                                            case_="grid"))
    out.append(case("cp.async.commit_group;", "cp.async.commit_group", case_="grid"))
    out.append(case("cp.async.wait_all;", "cp.async.wait_all", case_="grid"))
    for n in ("0", "3", "%r1"):
        out.append(case(f"cp.async.wait_group {n};", "cp.async.wait_group", case_="grid"))
    for noinc in ("", ".noinc"):
        for sp in ("", ".shared", ".shared::cta", ".shared::cluster"):
            for addr in ("[mbar]", "[%r1]", "[%rd1]"):
                out.append(case(f"cp.async.mbarrier.arrive{noinc}{sp}.b64 {addr};", "cp.async.mbarrier.arrive",
                                case_="grid"))
    return out


def sync_grid():
    out = []
    for d in ("%r1|%p1", "_|%p1", "%r1|_", "%p1", "%r1"):
        for m in ("%r2", "-1", "0xffffffff"):
            out.append(case(f"elect.sync {d}, {m};", "elect.sync", case_="grid"))
    for op in ("arrive", "wait"):
        for sem in ("", "release", "relaxed", "acquire"):
            for al in (False, True):
                q = [op] + ([sem] if sem else []) + (["aligned"] if al else [])
                out.append(case("barrier.cluster." + ".".join(q) + ";", "barrier.cluster", case_="grid"))
    out.append(case("fence.proxy.async;", "fence.proxy", case_="grid"))
    for sp in ("global", "shared::cta", "shared::cluster", "shared", "local"):
        out.append(case(f"fence.proxy.async.{sp};", "fence.proxy", case_="grid"))
    out.append(case("fence.proxy.alias;", "fence.proxy", case_="grid"))
    for sem in ("release", "acquire"):
        for sc in ("cta", "cluster", "gpu", "sys"):
            out.append(case(f"fence.proxy.tensormap::generic.{sem}.{sc};", "fence.proxy", case_="grid"))
            out.append(case(f"fence.proxy.tensormap::generic.{sem}.{sc} [%rd0], 128;", "fence.proxy", case_="grid"))
    for sem in ("release", "acquire"):
        for sp in ("shared::cta", "shared::cluster"):
            for sc in ("cluster", "cta"):
                out.append(case(f"fence.proxy.async::generic.{sem}.sync_restrict::{sp}.{sc};", "fence.proxy",
                                case_="grid"))
    for sem in ("release", "acquire", "relaxed"):
        for sc in ("cta", "cluster", "gpu"):
            out.append(case(f"fence.mbarrier_init.{sem}.{sc};", "fence.mbarrier_init", case_="grid"))
    out.append(case("fence.mbarrier_init;", "fence.mbarrier_init", case_="grid"))
    # Plain memory fences (the same opcode; modelled so that a dropped `.proxy` is judged, not skipped).
    for sem in ("", "sc", "acq_rel", "acquire", "release"):
        for sc in ("", "cta", "cluster", "gpu", "sys"):
            q = [x for x in (sem, sc) if x]
            out.append(case("fence" + "".join("." + x for x in q) + ";", "fence", case_="grid"))
    for sem in ("release", "acquire"):
        for sp in ("shared::cta", "shared::cluster"):
            out.append(case(f"fence.{sem}.sync_restrict::{sp}.cluster;", "fence", case_="grid"))
    return out


def mbarrier_grid():
    out = []
    sems = [("", ""), ("release", "cta"), ("release", "cluster"), ("relaxed", "cta"), ("relaxed", "cluster")]
    spaces = ["", "shared", "shared::cta", "shared::cluster"]
    for op in ("arrive", "arrive_drop"):
        for sem, sc in sems:
            for sp in spaces:
                for st in ("%rd1", "_"):
                    for cnt in (False, True):
                        q = [op] + ([sem, sc] if sem else []) + ([sp] if sp else []) + ["b64"]
                        ops = [st, "[mbar]"] + (["%r1"] if cnt else [])
                        out.append(case("mbarrier." + ".".join(q) + " " + ", ".join(ops) + ";", "mbarrier." + op,
                                        case_="grid"))
        for sem, sc in sems[:3]:
            for sp in spaces:
                q = [op, "expect_tx"] + ([sem, sc] if sem else []) + ([sp] if sp else []) + ["b64"]
                out.append(case("mbarrier." + ".".join(q) + " _, [mbar], %r1;", "mbarrier." + op, case_="grid"))
    out.append(case("mbarrier.arrive.noComplete.shared.b64 %rd1, [mbar], %r1;", "mbarrier.arrive", case_="grid"))
    out.append(case("mbarrier.arrive_drop.noComplete.shared.b64 %rd1, [mbar], %r1;", "mbarrier.arrive_drop",
                    case_="grid"))
    for op in ("expect_tx", "complete_tx"):
        for sem, sc in sems:
            for sp in spaces:
                q = [op] + ([sem, sc] if sem else []) + ([sp] if sp else []) + ["b64"]
                out.append(case("mbarrier." + ".".join(q) + " [mbar], %r1;", "mbarrier." + op, case_="grid"))
    for sp in spaces:
        q = ["inval"] + ([sp] if sp else []) + ["b64"]
        out.append(case("mbarrier." + ".".join(q) + " [mbar];", "mbarrier.inval", case_="grid"))
    out.append(case("mbarrier.pending_count.b64 %r1, %rd1;", "mbarrier.pending_count", case_="grid"))
    out.append(case("mbarrier.pending_count.b64 %rd2, %rd1;", "mbarrier.pending_count", case_="grid"))
    return out


def ldst_grid():
    out = []
    types = ["b8", "u8", "s8", "b16", "u16", "s16", "f16", "b32", "u32", "s32", "f32", "b64", "u64", "s64", "f64"]
    regs_for = {"8": "%r1", "16": "%h1", "32": "%r1", "64": "%rd1"}
    for op in ("ld", "st"):
        for sp in ("shared", "shared::cta", "shared::cluster"):
            for t in types:
                for vec in ("", "v2", "v4"):
                    if vec == "v4" and t.endswith("64"):
                        continue
                    bits = "".join(ch for ch in t if ch.isdigit())
                    r = regs_for[bits]
                    if vec:
                        n = int(vec[1])
                        base = {"%r1": "%r", "%h1": "%h", "%rd1": "%rd"}[r]
                        val = "{" + ", ".join(f"{base}{i + 1}" for i in range(n)) + "}"
                    else:
                        val = r
                    q = [sp] + ([vec] if vec else []) + [t]
                    addr = "[smem+8]" if sp != "shared::cluster" else "[%r3]"
                    ops = [val, addr] if op == "ld" else [addr, val]
                    out.append(case(op + "." + ".".join(q) + " " + ", ".join(ops) + ";", op + ".shared", case_="grid"))
    for op in ("ld", "st"):
        for sp in ("shared", "shared::cta", "shared::cluster"):
            for addr in ("[smem]", "[%r3]", "[%rd3]", "[%h3]", "[16]", "[%r3+4]"):
                ops = ["%r1", addr] if op == "ld" else [addr, "%r1"]
                out.append(case(f"{op}.{sp}.u32 " + ", ".join(ops) + ";", op + ".shared", case_="grid"))
            for r in ("%h1", "%rd1"):
                ops = [r, "[smem]"] if op == "ld" else ["[smem]", r]
                out.append(case(f"{op}.{sp}.u32 " + ", ".join(ops) + ";", op + ".shared", case_="grid"))
    return out


def matrix_grid():
    """ldmatrix / stmatrix / movmatrix: every shape x num x trans x type spelling, operand lists as written."""
    out = []
    fmts = [("b16",), ("b8",), ("b8x16", "b6x16_p32"), ("b8x16", "b4x16_p64"), ("b8x16",), ("b6x16_p32",)]
    for shape in ("m8n8", "m16n16", "m8n16", "m16n8"):
        for num, n in (("x1", 1), ("x2", 2), ("x4", 4)):
            for trans in (False, True):
                for sp in ("", "shared", "shared::cta"):
                    for fmt in fmts:
                        q = [shape, num] + (["trans"] if trans else []) + ([sp] if sp else []) + list(fmt)
                        for regs_n in sorted({n, 2 * n}):
                            rs = "{" + ", ".join(f"%r{i + 1}" for i in range(regs_n)) + "}"
                            out.append(case("ldmatrix.sync.aligned." + ".".join(q) + f" {rs}, [smem];", "ldmatrix",
                                            case_="grid"))
                            out.append(case("stmatrix.sync.aligned." + ".".join(q) + f" [smem], {rs};", "stmatrix",
                                            case_="grid"))
    for q in ("m8n8.trans.b16", "m8n8.b16", "m16n16.trans.b16", "m8n8.trans.b8", "m8n8.trans.b32"):
        out.append(case(f"movmatrix.sync.aligned.{q} %r1, %r2;", "movmatrix", case_="grid"))
    out.append(case("movmatrix.sync.aligned.m8n8.trans.b16 %h1, %r2;", "movmatrix", case_="grid"))
    out.append(case("ldmatrix.sync.aligned.m8n8.x1.b16 {%r1}, [%rd0];", "ldmatrix", case_="grid"))
    out.append(case("ldmatrix.sync.aligned.m8n8.x1.b16 {%r1}, [%r2+16];", "ldmatrix", case_="grid"))
    out.append(case("ldmatrix.sync.aligned.m8n8.x1.b16 %r1, [smem];", "ldmatrix", case_="grid"))
    out.append(case("ldmatrix.sync.aligned.m8n8.x1.b16 {%h1}, [smem];", "ldmatrix", case_="grid"))
    out.append(case("stmatrix.sync.aligned.m8n8.x1.b16 [%r2], {%r1};", "stmatrix", case_="grid"))
    return out


NAME_LEN = {"ldmatrix": 1, "stmatrix": 1, "movmatrix": 1, "wgmma.mma_async": 2, "cp.async": 2, "elect.sync": 1, "barrier.cluster": 2, "fence.proxy": 1,
            "fence.mbarrier_init": 1, "ld.shared": 1, "st.shared": 1}
QUAL_POOL = ["sync", "aligned", "sp", "m64n8k16", "m64n16k8", "m64n24k32", "m64n264k16", "f16", "f32", "bf16", "tf32",
             "e4m3", "s8", "u8", "s32", "b1", "satfinite", "trans", "ca", "cg", "shared", "shared::cta",
             "shared::cluster", "global", "L2::128B", "L2::cache_hint", "noinc", "b64", "b32", "u32", "v2", "v4",
             "release", "acquire", "relaxed", "cta", "cluster", "gpu", "async", "alias", "arrive", "wait",
             "expect_tx", "noComplete", "x2", "L2::256B", "and", "popc"]
MATRIX_POOL = ["sync", "aligned", "m8n8", "m16n16", "m8n16", "m16n8", "x1", "x2", "x4", "trans", "shared",
               "shared::cta", "shared::cluster", "b16", "b8", "b32", "b8x16", "b6x16_p32", "b4x16_p64", "global"]
OPERAND_POOL = ["%r1", "%rd1", "%h1", "%p1", "0", "16", "[smem]", "[mbar]", "[%rd0]", "[%r2]", "smem", "_", "{%r1}",
                "{%r1, %r2}", "%r1|%p1"]


def split_ops(s):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    return out


LDST_POOL = ["shared", "shared::cta", "shared::cluster", "v2", "v4", "u32", "b64", "f32", "s8", "f16", "b16"]
LDST_SPACES = ("shared", "shared::cta", "shared::cluster")


def mutate(text, fam, rng):
    head, _, rest = text.partition(" ")
    if not rest:
        head, rest = text.rstrip(";"), ";"
    toks = head.split(".")
    n = NAME_LEN.get(fam, 2)
    quals = toks[n:]
    ops = [o.strip() for o in split_ops(rest.rstrip(";"))]
    kind = rng.choice(["drop_q", "dup_q", "swap_q", "replace_q", "insert_q", "drop_op", "add_op", "replace_op"])
    pool = MATRIX_POOL if fam in ("ldmatrix", "stmatrix", "movmatrix") else QUAL_POOL
    if fam in ("ld.shared", "st.shared"):
        # ld/st is modelled on shared memory only: a mutation keeps a shared state space and draws from
        # the ld/st qualifiers (a generic or cached ld/st is another instruction, listed by `check`).
        pool = LDST_POOL
        keep = [i for i, q in enumerate(quals) if q in LDST_SPACES]
        if kind in ("drop_q", "replace_q"):
            cand = [i for i in range(len(quals)) if i not in keep[:1]]
            if not cand:
                return text, "none"
            i = rng.choice(cand)
            if kind == "drop_q":
                quals.pop(i)
            else:
                quals[i] = rng.choice(pool)
            new = ".".join(toks[:n] + quals)
            return (new + (" " + ", ".join(ops) if ops else "") + ";"), kind
    if kind == "drop_q" and quals:
        quals.pop(rng.randrange(len(quals)))
    elif kind == "dup_q" and quals:
        i = rng.randrange(len(quals))
        quals.insert(i, quals[i])
    elif kind == "swap_q" and len(quals) > 1:
        i = rng.randrange(len(quals) - 1)
        quals[i], quals[i + 1] = quals[i + 1], quals[i]
    elif kind == "replace_q" and quals:
        quals[rng.randrange(len(quals))] = rng.choice(pool)
    elif kind == "insert_q":
        quals.insert(rng.randrange(len(quals) + 1), rng.choice(pool))
    elif kind == "drop_op" and ops:
        ops.pop(rng.randrange(len(ops)))
    elif kind == "add_op":
        ops.append(rng.choice(OPERAND_POOL))
    elif kind == "replace_op" and ops:
        ops[rng.randrange(len(ops))] = rng.choice(OPERAND_POOL)
    new = ".".join(toks[:n] + quals)
    return (new + (" " + ", ".join(ops) if ops else "") + ";"), kind


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--mutations", type=int, default=900)
    ap.add_argument("--set", choices=["front", "matrix"], default="front")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    if a.set == "matrix":
        cases = matrix_grid()
    else:
        cases = wgmma_grid() + cp_async_grid() + sync_grid() + mbarrier_grid() + ldst_grid()
    for c in cases:
        c["qualifiers"]["case"] = c["qualifiers"].pop("case_")
    seeds = {}
    for c in cases:
        fam = c["opcode"]
        key = next((k for k in NAME_LEN if fam.startswith(k)), fam)
        seeds.setdefault(key, []).append(c)
    families = sorted(seeds)
    seen = {c["instr"] for c in cases}
    n = 0
    while n < a.mutations:
        fam = rng.choice(families)
        c = rng.choice(seeds[fam])
        t, kind = mutate(c["instr"], fam, rng)
        if t in seen:
            continue
        seen.add(t)
        cases.append(case(t, c["opcode"], case="mutation", mutation=kind))
        n += 1
    with open(a.out, "w") as f:
        for c in cases:
            f.write(json.dumps(c) + "\n")
    print(len(cases), "cases")


if __name__ == "__main__":
    main()
