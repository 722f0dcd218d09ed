#!/usr/bin/env python3
"""Turn public golden tile_load/store records into probe argument lines (prefix pub_), to check
that tma_random_probe.cu reproduces the public bytes. Usage: public_cases.py GOLDEN_DIR EVERY"""
import gzip, json, sys

d, every = sys.argv[1], int(sys.argv[2])
for f, kind in (("tma_tile_load", "load"), ("tma_store", "store")):
    for i, line in enumerate(gzip.open(f"{d}/{f}.jsonl.gz")):
        r = json.loads(line)
        t = r["tensor_map"]
        if i % every or r["encode_result"] != "CUDA_SUCCESS" or r.get("exec_error"):
            continue
        if kind == "load" and r["cluster_size"] != 1:
            continue
        rank = t["tensorRank"]
        pad = lambda a, f, n=5: list(a) + [f] * (n - len(a))
        iss = r["issues"][0] if kind == "load" else r
        off = iss["dst_offset"] if kind == "load" else r["src_offset"]
        f_ = ["pub_" + r["case_id"], kind, t["tensorDataTypeValue"], rank, t["interleaveValue"], t["swizzleValue"], t["oobFillValue"]]
        f_ += pad(t["globalDim"], 1) + pad(t["globalStrides"], 0, 4) + pad(t["boxDim"], 1) + pad(t["elementStrides"], 1)
        f_ += pad(iss["coords"], 0) + [off, r["region_len"]]
        print(" ".join(str(x) for x in f_))
