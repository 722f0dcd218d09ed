"""Print, for each interleaved golden record, which global element each smem element holds."""
import sys
from golden_io import interleaved, fill_bytes

def decode_elements(buf, e, gbuf):
    # map value -> list of global element indices (unique for mix32 16-bit mostly)
    lut = {}
    for k in range(len(gbuf) // e):
        lut.setdefault(bytes(gbuf[k*e:(k+1)*e]), []).append(k)
    out = []
    for j in range(len(buf) // e):
        v = bytes(buf[j*e:(j+1)*e])
        if v == b"\xa5" * e:
            out.append("--")
        elif v == b"\x00" * e:
            out.append("0")
        else:
            ks = lut.get(v)
            out.append(str(ks[0]) if ks and len(ks) == 1 else ("?" if not ks else "m" + str(ks[0])))
    return out

for name in ["tma_tile_load", "tma_im2col", "tma_store"]:
    for r in interleaved(name):
        if r.get("exec_error") or r.get("encode_result") != "CUDA_SUCCESS":
            continue
        tm = r["tensor_map"]
        e = r["elem_bytes"]
        print("=" * 80)
        print(r["case_id"], {k: tm[k] for k in tm if not k.endswith("Value")})
        print("issues", r.get("issues") or r.get("coords"), "box_bytes", r.get("box_bytes"), "region", r.get("region_len"), "smem_base", r.get("smem_base_addr"))
        if name == "tma_store":
            sm = fill_bytes(r["region_len"], e)
            g = bytes.fromhex(r["global_hex"])
            vals = decode_elements(g, e, sm)
            print("global <- smem element j; bytes_changed", r["bytes_changed"], "src_off", r.get("src_offset"))
            per = 16 // e
        else:
            gbuf = fill_bytes(r["global_alloc_bytes"], e)
            for c in r["ctas"]:
                print("tx", c["formula_tx_bytes"], c["measured_tx_bytes"], c["post_check"])
                vals = decode_elements(bytes.fromhex(c["smem_hex"]), e, gbuf)
            per = 16 // e
        for i in range(0, len(vals), per * 2):
            row = vals[i:i + per * 2]
            if all(v == "--" for v in row):
                continue
            print(f"{i*e:6d}: " + " ".join(f"{v:>5}" for v in row))
