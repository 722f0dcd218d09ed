#!/usr/bin/env python3
"""Keep every case of a case list except one opcode's, of which 1 in N (seeded): for target configurations
where that opcode is rejected wholesale (wgmma.mma_async before sm_90a), so its grid adds records, not rules.
Usage: sample_cases.py IN.jsonl OUT.jsonl [--opcode wgmma.mma_async] [--keep-one-in 8] [--seed 21]
"""
import argparse, json, random

ap = argparse.ArgumentParser()
ap.add_argument("cases")
ap.add_argument("out")
ap.add_argument("--opcode", default="wgmma.mma_async")
ap.add_argument("--keep-one-in", type=int, default=8)
ap.add_argument("--seed", type=int, default=21)
a = ap.parse_args()
rng = random.Random(a.seed)
kept = []
with open(a.cases) as f:
    for line in f:
        if json.loads(line)["opcode"] == a.opcode and rng.randrange(a.keep_one_in) != 0:
            continue
        kept.append(line)
with open(a.out, "w") as f:
    f.writelines(kept)
print(len(kept), "cases")
