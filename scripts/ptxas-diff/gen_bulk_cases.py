#!/usr/bin/env python3
"""Instruction texts for the bulk-copy differential suite (tests/data/ptxas_bulk/bulk.jsonl.gz).

Families: cp.async.bulk, cp.reduce.async.bulk, cp.async.bulk.prefetch.L2, cp.async.bulk.commit_group /
wait_group, cp.reduce.async.bulk.tensor, cp.async.bulk.prefetch.tensor. For each: the grid of
qualifiers (operand lists derived from the qualifiers written, as the README's TMA grid does), the
forms LLVM's NVPTX backend emits (llvm/test/CodeGen/NVPTX/cp-async-bulk*.ll CHECK lines, rewritten to
the wrapper's registers), and seeded random one-token mutations of valid forms (a qualifier dropped,
repeated, replaced or moved; an operand dropped, added or replaced by another kind).
Writes CASES.jsonl for run_ptxas.py. Usage: gen_bulk_cases.py OUT.jsonl [--seed N] [--mutations N]
"""
import argparse, json, random

OPS = ["add", "min", "max", "inc", "dec", "and", "or", "xor"]
TYPES = ["b32", "u32", "s32", "b64", "u64", "s64", "f16", "bf16", "f32", "f64"]
SPACES = ["shared::cluster", "shared::cta", "global"]
MB = "mbarrier::complete_tx::bytes"


def case(instr, opcode, **q):
    return dict(instr=instr, opcode=opcode, qualifiers=q)


def copy_text(dst, src, comp, mc=False, hint=False, mask=False, order=None):
    quals = [dst, src, comp] + (["multicast::cluster"] if mc else []) + (["L2::cache_hint"] if hint else []) + (
        ["cp_mask"] if mask else [])
    if order:
        quals = order(quals)
    d = "%rd0" if dst == "global" else "smem"
    s = "%rd0" if src == "global" else "smem"
    ops = [f"[{d}]", f"[{s}]", "%r1"]
    if comp == MB:
        ops.append("[mbar]")
    if mc:
        ops.append("%h1")
    if hint:
        ops.append("%rd1")
    if mask:
        ops.append("%h2")
    return "cp.async.bulk." + ".".join(quals) + " " + ", ".join(ops) + ";"


def reduce_text(dst, src, comp, op, typ, noftz=False, hint=False):
    quals = [dst, src, comp] + (["L2::cache_hint"] if hint else []) + [op] + (["noftz"] if noftz else []) + [typ]
    d = "%rd0" if dst == "global" else "smem"
    ops = [f"[{d}]", "[smem]", "%r1"] + (["[mbar]"] if comp == MB else []) + (["%rd1"] if hint else [])
    return "cp.reduce.async.bulk." + ".".join(quals) + " " + ", ".join(ops) + ";"


def coords(n):
    return "{" + ", ".join(f"%r{i + 1}" for i in range(n)) + "}"


def red_tensor_text(dim, op, mode, hint):
    n = 5 if mode == "tile::scatter4" else dim
    quals = [f"{dim}d", "global", "shared::cta", op] + ([mode] if mode else []) + ["bulk_group"] + (
        ["L2::cache_hint"] if hint else [])
    ops = [f"[%rd0, {coords(n)}]", "[smem]"] + (["%rd1"] if hint else [])
    return "cp.reduce.async.bulk.tensor." + ".".join(quals) + " " + ", ".join(ops) + ";"


def pf_tensor_text(dim, mode, hint):
    n = 5 if mode == "tile::gather4" else dim
    quals = [f"{dim}d", "L2", "global"] + ([mode] if mode else []) + (["L2::cache_hint"] if hint else [])
    ops = [f"[%rd0, {coords(n)}]"]
    if mode == "im2col":
        ops.append("{" + ", ".join(f"%h{i + 1}" for i in range(max(dim - 2, 1))) + "}")
    if mode in ("im2col::w", "im2col::w::128"):
        ops.append("{%h1, %h2}")
    if hint:
        ops.append("%rd1")
    return "cp.async.bulk.prefetch.tensor." + ".".join(quals) + " " + ", ".join(ops) + ";"


def grid():
    out = []
    for dst in SPACES:
        for src in SPACES:
            for comp in (MB, "bulk_group"):
                for mc in (False, True):
                    for hint in (False, True):
                        for mask in (False, True):
                            out.append(case(copy_text(dst, src, comp, mc, hint, mask), "cp.async.bulk", case_="grid",
                                            dst=dst, src=src, completion=comp, multicast=mc, cache_hint=hint,
                                            cp_mask=mask))
    for dst, src, comp in (("shared::cluster", "shared::cta", MB), ("global", "shared::cta", "bulk_group"),
                           ("shared::cluster", "global", MB), ("global", "shared::cluster", "bulk_group")):
        wrong = src == "global" or dst == "shared::cluster" and src != "shared::cta"
        for op in (["add", "xor"] if wrong else OPS):
            for typ in TYPES:
                for noftz in (False, True):
                    out.append(case(reduce_text(dst, src, comp, op, typ, noftz), "cp.reduce.async.bulk",
                                    case_="grid", dst=dst, src=src, op=op, type=typ, noftz=noftz))
        for op in OPS:
            out.append(case(reduce_text(dst, src, comp, op, "u32" if op not in ("and", "or", "xor") else "b32",
                                        hint=True), "cp.reduce.async.bulk", case_="grid", dst=dst, src=src, op=op,
                            cache_hint=True))
    for hint in (False, True):
        out.append(case("cp.async.bulk.prefetch.L2.global" + (".L2::cache_hint" if hint else "") + " [%rd0], %r1" +
                        (", %rd1" if hint else "") + ";", "cp.async.bulk.prefetch", case_="grid", cache_hint=hint))
    for s in ("cp.async.bulk.commit_group;", "cp.async.bulk.wait_group 0;", "cp.async.bulk.wait_group.read 0;",
              "cp.async.bulk.wait_group 3;", "cp.async.bulk.wait_group.read 7;"):
        out.append(case(s, "cp.async.bulk.group", case_="grid"))
    for dim in range(1, 6):
        for mode in (None, "tile", "im2col_no_offs", "tile::scatter4", "im2col"):
            for hint in (False, True):
                for op in (OPS if mode in (None, "tile") and not hint else ["add"]):
                    out.append(case(red_tensor_text(dim, op, mode, hint), "cp.reduce.async.bulk.tensor", case_="grid",
                                    dim=dim, op=op, load_mode=mode, cache_hint=hint))
        for mode in (None, "tile", "im2col", "im2col::w", "im2col::w::128", "tile::gather4", "im2col_no_offs"):
            for hint in (False, True):
                out.append(case(pf_tensor_text(dim, mode, hint), "cp.async.bulk.prefetch.tensor", case_="grid", dim=dim,
                                load_mode=mode, cache_hint=hint))
    return out


# Forms from llvm/test/CodeGen/NVPTX/cp-async-bulk*.ll CHECK lines (registers renamed to the wrapper's:
# 64-bit addresses %rd0/%rd1, 32-bit shared addresses %r2/%r3, size %r1, ctaMask %h1, policy %rd1).
LLVM = [
    "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r2], [%rd0], %r1, [%r3];",
    "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%r2], [%rd0], %r1, [%r3], %rd1;",
    "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%r2], [%rd0], %r1, [%r3], %h1;",
    "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint [%r2], [%rd0], %r1, [%r3], %h1, %rd1;",
    "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [%r2], [%rd0], %r1, [%r3];",
    "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes.L2::cache_hint [%r2], [%rd0], %r1, [%r3], %rd1;",
    "cp.async.bulk.global.shared::cta.bulk_group [%rd0], [%r2], %r1;",
    "cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [%rd0], [%r2], %r1, %rd1;",
    "cp.async.bulk.global.shared::cta.bulk_group.cp_mask [%rd0], [%r2], %r1, %h1;",
    "cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.cp_mask [%rd0], [%r2], %r1, %rd1, %h1;",
    "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%r2], [%r3], %r1, [%r4];",
    "cp.async.bulk.prefetch.L2.global [%rd0], %r1;",
    "cp.async.bulk.prefetch.L2.global.L2::cache_hint [%rd0], %r1, %rd1;",
    "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%rd1], [%rd0], %r1, [%rd1];",
    "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.f16 [%rd0], [%r2], %r1;",
    "cp.reduce.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.min.bf16 [%rd0], [%r2], %r1, %rd1;",
    "cp.reduce.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.add.noftz.bf16 [%rd0], [%r2], %r1, %rd1;",
    "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32 [%r2], [%r3], %r1, [%r4];",
    "cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile.bulk_group [%rd0, {%r1}], [%r2];",
    "cp.reduce.async.bulk.tensor.3d.global.shared::cta.max.im2col_no_offs.bulk_group.L2::cache_hint [%rd0, {%r1, %r2, %r3}], [%r4], %rd1;",
    "cp.reduce.async.bulk.tensor.5d.global.shared::cta.dec.tile.bulk_group.L2::cache_hint [%rd0, {%r1, %r2, %r3, %r4, %r5}], [%r6], %rd1;",
    "cp.async.bulk.prefetch.tensor.1d.L2.global.tile [%rd0, {%r1}];",
    "cp.async.bulk.prefetch.tensor.3d.L2.global.im2col [%rd0, {%r1, %r2, %r3}], {%h1};",
    "cp.async.bulk.prefetch.tensor.5d.L2.global.im2col.L2::cache_hint [%rd0, {%r1, %r2, %r3, %r4, %r5}], {%h1, %h2, %h3}, %rd1;",
    "cp.async.bulk.prefetch.tensor.4d.L2.global.im2col::w [%rd0, {%r1, %r2, %r3, %r4}], {%h1, %h2};",
    "cp.async.bulk.prefetch.tensor.4d.L2.global.im2col::w::128.L2::cache_hint [%rd0, {%r1, %r2, %r3, %r4}], {%h1, %h2}, %rd1;",
    "cp.async.bulk.prefetch.tensor.2d.L2.global.tile::gather4 [%rd0, {%r1, %r2, %r3, %r4, %r5}];",
    "cp.async.bulk.prefetch.tensor.2d.L2.global.tile::gather4.L2::cache_hint [%rd0, {%r1, %r2, %r3, %r4, %r5}], %rd1;",
]

QUAL_POOL = ["shared::cluster", "shared::cta", "shared", "global", "bulk_group", MB, "multicast::cluster",
             "multicast::cluster::all", "L2::cache_hint", "cp_mask", "cta_group::1", "L2", "tile", "im2col",
             "tile::gather4", "tile::scatter4", "im2col_no_offs", "noftz", "add", "min", "u32", "b32", "f32", "f16",
             "1d", "2d", "3d", "read", "sync", "aligned", "b8x16", "relaxed"]
OPERAND_POOL = ["%r1", "%rd1", "%h1", "%p1", "0", "16", "[smem]", "[mbar]", "[%rd0]", "[%r2]", "[%h2]", "smem", "_",
                "[smem+8]", "{%r1}", "[16]", "[p0]"]


def mutate(text, rng):
    head, _, rest = text.partition(" ")
    if not rest:
        head = text.rstrip(";")
        rest = ";"
    toks = head.split(".")
    name_len = 4 if head.startswith("cp.reduce") else 3
    if ".tensor" in head or ".prefetch" in head or head.startswith("cp.reduce.async.bulk.tensor"):
        name_len = head.split(".").index("tensor") + 1 if "tensor" in toks else 4
    quals = toks[name_len:]
    ops = [o.strip() for o in split_ops(rest.rstrip(";"))]
    kind = rng.choice(["drop_q", "dup_q", "swap_q", "replace_q", "insert_q", "drop_op", "add_op", "replace_op"])
    if kind == "drop_q" and quals:
        quals.pop(rng.randrange(len(quals)))
    elif kind == "dup_q" and quals:
        i = rng.randrange(len(quals))
        quals.insert(i, quals[i])
    elif kind == "swap_q" and len(quals) > 1:
        i = rng.randrange(len(quals) - 1)
        quals[i], quals[i + 1] = quals[i + 1], quals[i]
    elif kind == "replace_q" and quals:
        quals[rng.randrange(len(quals))] = rng.choice(QUAL_POOL)
    elif kind == "insert_q":
        quals.insert(rng.randrange(len(quals) + 1), rng.choice(QUAL_POOL))
    elif kind == "drop_op" and ops:
        ops.pop(rng.randrange(len(ops)))
    elif kind == "add_op":
        ops.append(rng.choice(OPERAND_POOL))
    elif kind == "replace_op" and ops:
        ops[rng.randrange(len(ops))] = rng.choice(OPERAND_POOL)
    new = ".".join(toks[:name_len] + quals)
    return (new + (" " + ", ".join(ops) if ops else "") + ";"), kind


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


def family(text):
    for f in ("cp.reduce.async.bulk.tensor", "cp.reduce.async.bulk", "cp.async.bulk.prefetch.tensor",
              "cp.async.bulk.prefetch", "cp.async.bulk"):
        if text.startswith(f + "."):
            return f
    return "cp.async.bulk.group"


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
    cases += [case(s, family(s), case="llvm") for s in LLVM]
    # Seeds per family, so that each family gets about the same number of mutations.
    seeds = {}
    for c in cases:
        seeds.setdefault(c["opcode"], []).append(c["instr"])
    families = sorted(seeds)
    seen = {c["instr"] for c in cases}
    n = 0
    while n < a.mutations:
        fam = rng.choice(families)
        t, kind = mutate(rng.choice(seeds[fam]), rng)
        if t in seen:
            continue
        seen.add(t)
        cases.append(case(t, fam, case="mutation", mutation=kind))
        n += 1
    uniq = {}
    for c in cases:
        uniq.setdefault(c["instr"], c)
    with open(a.out, "w") as f:
        for c in uniq.values():
            f.write(json.dumps(c) + "\n")
    print(len(uniq), "cases")


if __name__ == "__main__":
    main()
