"""Hypothesis for im2col loads with INTERLEAVE_16B / 32B maps on sm_90 (docs/interleave.md §4),
checked against the probe records I1..I9 (results/run2.jsonl) and golden im2col_load_0050/0051.

Interleaved (G = 16 or 32 bytes):
  * the pixel walk runs over dimensions 0 .. rank-3 (dimension 0 = G-byte channel slices, then W, ...)
    instead of 1 .. rank-2: pixelBoxLowerCorner/UpperCorner/im2col_offsets index i applies to
    dimension i. Each walked coordinate runs over [lower_i, globalDim_i - 1 + upper_i], wraps to lower_i
    and carries into the next walked dimension; past the last one the carry goes to N (dim rank-1);
  * dimension rank-2 stays at coords[rank-2] (no offset), bounds-checked;
  * every walk position moves ONE slice (G bytes) to smem, densely; pixelsPerColumn positions in all;
    channelsPerPixel has no effect on data or tx. complete_tx = pixelsPerColumn * G.
Interleave NONE (the control I5): golden README semantics 6.
"""
import json
import sys

from golden_io import records, fill_bytes
from interleave_model import parse_case, swz, enum_tail, SPAN


def walk(start, lo, hi, es, n_walk, count, rank):
    """Yield `count` coordinate vectors: dims [0, n_walk) walk with wrap/carry, then dim rank-1."""
    x = list(start)
    walked = list(range(n_walk))
    for _ in range(count):
        yield list(x)
        for j, d in enumerate(walked):
            x[d] += es[d]
            if x[d] <= hi[j]:
                break
            x[d] = lo[j]
            if j == len(walked) - 1:
                x[rank - 1] += es[rank - 1]


def im2col_pieces(gd, gs, es, coords, offs, lower, upper, cpp, ppc, e, G):
    rank = len(gd)
    out = []  # (length, in_bounds, global_offset)
    if G:
        n_walk = rank - 2                        # dims 0 .. rank-3
        lo = [lower[i] for i in range(n_walk)]
        hi = [gd[i] - 1 + upper[i] for i in range(n_walk)]
        for x in walk(coords, lo, hi, es, n_walk, ppc, rank):
            r = list(x)
            for i in range(n_walk):
                r[i] += offs[i]
            inb = all(0 <= r[i] < gd[i] for i in range(rank))
            out.append((G, inb, r[0] * G + sum(r[i] * gs[i - 1] for i in range(1, rank))))
    else:
        n_sp = rank - 2                          # dims 1 .. rank-2
        lo = [lower[i] for i in range(n_sp)]
        hi = [gd[i + 1] - 1 + upper[i] for i in range(n_sp)]
        x = list(coords)
        for _ in range(ppc):
            r = list(x)
            for i in range(n_sp):
                r[i + 1] += offs[i]
            for ch in range(cpp):
                c = coords[0] + ch
                inb = 0 <= c < gd[0] and all(0 <= r[i] < gd[i] for i in range(1, rank))
                out.append((e, inb, c * e + sum(r[i] * gs[i - 1] for i in range(1, rank))))
            for j in range(n_sp):
                d = j + 1
                x[d] += es[d]
                if x[d] <= hi[j]:
                    break
                x[d] = lo[j]
                if j == n_sp - 1:
                    x[rank - 1] += es[rank - 1]
    return out


def image(pieces, gbuf, goff0, smem_base, span, region):
    smem = bytearray(b"\xa5" * region)
    pos = 0
    for length, inb, goff in pieces:
        data = gbuf[goff0 + goff:goff0 + goff + length] if inb else bytes(length)
        for k in range(length):
            a = swz(smem_base + pos + k, span) - smem_base
            smem[a] = data[k]
        pos += length
    return smem, pos


def main():
    ok = bad = 0
    for r in records("tma_im2col"):
        tm = r["tensor_map"]
        il = enum_tail(tm["interleave"])
        if il not in ("16B", "32B") or r.get("exec_error"):
            continue
        iss = r["issues"][0]
        G = 16 if il == "16B" else 32
        pcs = im2col_pieces(tm["globalDim"], tm["globalStrides"], tm["elementStrides"], iss["coords"],
                            iss["im2col_offsets"], tm["pixelBoxLowerCorner"], tm["pixelBoxUpperCorner"],
                            tm["channelsPerPixel"], tm["pixelsPerColumn"], r["elem_bytes"], G)
        smem, tx = image(pcs, fill_bytes(r["global_alloc_bytes"], r["elem_bytes"]), 0, r["smem_base_addr"],
                         SPAN[enum_tail(tm["swizzle"])], r["region_len"])
        cta = r["ctas"][0]
        good = bytes(smem) == bytes.fromhex(cta["smem_hex"]) and tx == cta["measured_tx_bytes"]
        print(("MATCH " if good else "DIFF  ") + r["case_id"], f"tx {tx} measured {cta['measured_tx_bytes']}")
        ok += good
        bad += not good
    cases = {}
    for cf in ("cases_run2.txt", "cases_run3.txt"):
        for line in open(cf):
            if line.strip():
                c = parse_case(line)
                ex = [int(v) for v in line.split()[33:]]
                if len(ex) == 6:  # run 2 format: W, H only
                    ex = [ex[0], ex[1], 0, ex[2], ex[3], 0, ex[4], ex[5], 0]
                c["extra"] = ex
                cases[c["id"]] = c
    for line in list(open("results/run2.jsonl")) + list(open("results/run3.jsonl")):
        rec = json.loads(line)
        c = cases[rec["id"]]
        if c["kind"] != "im2col":
            continue
        ex = c["extra"]
        slack = 65536
        n = rec["global_bytes"] + slack
        gbuf = bytearray(n)
        for w in range(n // 4):
            gbuf[w * 4:w * 4 + 4] = ((w - slack // 4 + 1) & 0xFFFFFFFF).to_bytes(4, "little")
        tm = c["tm"]
        pcs = im2col_pieces(tm["globalDim"], tm["globalStrides"], tm["elementStrides"], c["coords"], ex[6:9],
                            ex[0:3], ex[3:6], tm["boxDim"][0], tm["boxDim"][1], 2 if c["dtype"] == 1 else 4, c["G"])
        smem, tx = image(pcs, gbuf, slack, rec["smem_base"], c["span"], c["region"])
        got = bytes.fromhex(rec["smem_hex"])
        good = bytes(smem[:len(got)]) == got and all(b == 0xA5 for b in smem[len(got):]) and tx == rec["tx"]
        print(("MATCH " if good else "DIFF  ") + rec["id"], f"tx {tx} measured {rec['tx']}")
        ok += good
        bad += not good
    print(f"im2col records: {ok} match, {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
