#!/usr/bin/env python3
"""Random tile-mode TMA cases (loads and stores) for tma_random_probe.cu.

Usage: gen_cases.py SEED N > cases.txt
Each line: <case_id> <load|store> <dtype> <rank> <interleave> <swizzle> <oob> <gd0..gd4> <gs0..gs3>
           <box0..box4> <es0..es4> <c0..c4> <dstOff> <regionLen>
About 1/4 of the cases are pushed onto a rule edge: inner box bytes at the swizzle span, coordinates
straddling 0 or globalDim, boxes of 256, strides of exactly the row size, dst offsets that are not
multiples of 128, inner coordinates whose byte offset is not 16-aligned, large negative coordinates.
"""
import random
import sys

ELEM = [1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4]   # CUtensorMapDataType 0..12 (sm_90 types)
SPAN = {0: 1 << 30, 1: 32, 2: 64, 3: 128}


def pick_case(rng, idx, kind):
    edge = rng.random() < 0.25
    dt = rng.randrange(13)
    e = ELEM[dt]
    rank = rng.choice([1, 2, 2, 3, 3, 4, 5])
    il = 0 if rank < 3 or rng.random() < 0.8 else rng.choice([1, 2])
    sw = rng.choice([0, 1, 2, 3])
    if il == 2 and rng.random() < 0.8:
        sw = 1                           # INTERLEAVE_32B wants SWIZZLE_32B
    oob = rng.choice([0, 1]) if rng.random() < 0.5 else 0
    # inner box: bytes multiple of 16, within the swizzle span
    if il:
        box0 = rng.choice([1, 2, 4, 8, 16, 32]) if not edge else rng.choice([1, 256 // e, 3])
    else:
        span = min(SPAN[sw], 256)
        chunks = max(1, span // 16)
        nb = rng.randint(1, chunks) if not edge else chunks
        box0 = max(1, nb * 16 // e)
        if edge and rng.random() < 0.2:
            box0 += 1                     # breaks the 16-byte rule: encode should reject
    box0 = min(box0, 256)
    box = [box0]
    budget = 4096 // max(1, box0 * e)
    for _ in range(1, rank):
        b = rng.choice([1, 2, 3, 4, 5, 8]) if budget >= 8 else 1
        b = max(1, min(b, budget))
        budget //= b
        box.append(b)
    es = [1] * rank
    if rng.random() < 0.3:
        for i in range(rank):
            if rng.random() < 0.5:
                es[i] = rng.choice([1, 2, 3, 4, 8]) if not edge else 8
    gd = []
    for i in range(rank):
        span = box[i] * rng.choice([1, 2, 3]) + rng.randint(0, 7)
        gd.append(max(1, span))
    if il:
        gd[0] = max(gd[0], box[0])
    # strides: row bytes rounded to 16 (+ padding sometimes), multiple of 16 bytes
    gs = []
    prev = gd[0] * e
    for i in range(1, rank):
        s = (prev + 15) // 16 * 16
        if rng.random() < 0.4 and not edge:
            s += 16 * rng.randint(1, 4)
        gs.append(s)
        prev = s * gd[i]
    # coordinates: inside, partly out, fully out, negative
    c = []
    for i in range(rank):
        r = rng.random()
        if r < 0.55:
            v = rng.randint(0, max(0, gd[i] - 1))
        elif r < 0.75:
            v = rng.randint(-box[i], -1)
        elif r < 0.9:
            v = gd[i] - rng.randint(1, box[i])
        else:
            v = rng.choice([gd[i], gd[i] + 5, -box[i] - 3, -70000 if edge else -2 * box[i]])
        c.append(v)
    if il == 0 and not (edge and rng.random() < 0.3):
        step = max(1, 16 // e)            # keep the inner byte offset 16-aligned
        c[0] = c[0] // step * step
    dst = 0
    if rng.random() < 0.3:
        dst = 128 * rng.randint(1, 8)
    if edge and rng.random() < 0.25:
        dst = rng.choice([16, 64, 256 + 32, 1024 + 512])
    dense = (box[0] if not il else -(-box[0] // es[0])) * e
    for i in range(1, rank):
        dense *= -(-box[i] // es[i])
    # generous: swizzle/interleave layouts can spread the box beyond its dense size; the README wants
    # every dump to end in >= 256 untouched bytes (checked again after the run)
    # with a swizzle, each box row takes a whole span (32/64/128 B) even when its bytes are fewer;
    # interleaved boxes count whole 16/32-B chunks
    rows = dense // max(1, (box[0] if not il else -(-box[0] // es[0])) * e)
    pitch = max((box[0] if not il else -(-box[0] // es[0])) * e, SPAN[sw] if sw else 0, 32 * box[0] if il else 0)
    region = (dst + 4 * max(dense, rows * pitch) + 512 + 1023) // 1024 * 1024
    if region > 24 * 1024:
        return None
    pad5 = lambda a, f: a + [f] * (5 - len(a))
    fields = [f"{kind}_r{idx:04d}", "load" if kind == "tile_load" else "store", dt, rank, il, sw, oob]
    fields += pad5(gd, 1) + pad5(gs, 0)[:4] + pad5(box, 1) + pad5(es, 1) + pad5(c, 0) + [dst, region]
    return " ".join(str(x) for x in fields)


def main():
    seed, n = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    i = 0
    while i < n:
        kind = "store" if rng.random() < 0.3 else "tile_load"
        line = pick_case(rng, i, kind)
        if line:
            print(line)
            i += 1


if __name__ == "__main__":
    main()
