"""Decode interleave_probe output: for each 16-byte chunk of smem (loads) print the global byte
offset its first word came from ('Z' zero fill, 'N' 0x7ff7 fill, '..' untouched, '?' other); for stores print
for each written 16-byte global chunk the smem byte offset it came from."""
import json
import sys


def chunk_label(b):
    if b == b"\xa5" * 16:
        return ".."
    if b == b"\x00" * 16:
        return "Z"
    if b == bytes.fromhex("f77f") * 8:
        return "N"
    ws = [int.from_bytes(b[i:i + 4], "little") for i in range(0, 16, 4)]
    if all(ws[i] == ws[0] + i for i in range(4)):
        return str((ws[0] - 1) * 4)
    return "?" + b.hex()


def load_lines(rec, per_line=8):
    s = bytes.fromhex(rec["smem_hex"])
    labels = [chunk_label(s[i:i + 16]) for i in range(0, len(s), 16)]
    out = []
    for i in range(0, len(labels), per_line):
        row = labels[i:i + per_line]
        if all(x == ".." for x in row):
            continue
        out.append(f"{i*16:6d}: " + " ".join(f"{x:>6}" for x in row))
    return out


def store_lines(rec, per_line=8):
    g = bytes.fromhex(rec["global_hex"])
    base = rec["global_from"]
    out = []
    row = []
    for i in range(0, len(g), 16):
        b = g[i:i + 16]
        if len(b) < 16:
            b = b + b"\xa5" * (16 - len(b))
        if b == b"\xa5" * 16:
            lab = ".."
        else:
            ws = [int.from_bytes(b[j:j + 4], "little") for j in range(0, 16, 4)]
            ok = all(w >= 0x40000000 for w in ws) and all(ws[j] == ws[0] + j for j in range(4))
            lab = f"s{(ws[0] - 0x40000001) * 4}" if ok else "?" + b.hex()
        row.append((base + i, lab))
    for i in range(0, len(row), per_line):
        r = row[i:i + per_line]
        if all(x[1] == ".." for x in r):
            continue
        out.append(f"g{r[0][0]:6d}: " + " ".join(f"{x[1]:>6}" for x in r))
    return out


if __name__ == "__main__":
    want = sys.argv[2:] if len(sys.argv) > 2 else None
    for line in open(sys.argv[1]):
        rec = json.loads(line)
        if want and not any(rec["id"].startswith(w) for w in want):
            continue
        head = {k: v for k, v in rec.items() if k not in ("smem_hex", "global_hex")}
        print("=" * 70)
        print(head)
        if "smem_hex" in rec:
            print("\n".join(load_lines(rec)))
        elif "global_hex" in rec:
            print("\n".join(store_lines(rec)))
