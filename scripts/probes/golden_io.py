"""Shared helpers: read golden TMA records and regenerate index_pattern_v1 (see golden README)."""
import gzip
import json
import os

GOLDEN = os.environ.get(
    "LAYOUTSCOPE_GOLDEN",
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "data", "golden", "tma"))


def mix32(x):
    x &= 0xFFFFFFFF
    x ^= x >> 16
    x = (x * 0x7FEB352D) & 0xFFFFFFFF
    x ^= x >> 15
    x = (x * 0x846CA68B) & 0xFFFFFFFF
    x ^= x >> 16
    return x


def fill_bytes(nbytes, e):
    """index_pattern_v1 over a buffer of nbytes with element size e."""
    out = bytearray(nbytes)
    for k in range(nbytes // e):
        if e == 1:
            v = mix32(k + 1) & 0xFF
        elif e == 2:
            v = mix32(k + 1) & 0xFFFF
        else:
            v = k + 1
        out[k * e:(k + 1) * e] = v.to_bytes(e, "little")
    return out


def records(name):
    with gzip.open(os.path.join(GOLDEN, name + ".jsonl.gz"), "rt") as f:
        for line in f:
            yield json.loads(line)


def interleaved(name):
    for r in records(name):
        il = r.get("tensor_map", {}).get("interleave", "")
        if il.endswith("16B") or il.endswith("32B"):
            yield r


ELEM_BYTES = {"UINT8": 1, "UINT16": 2, "FLOAT16": 2, "BFLOAT16": 2, "UINT32": 4, "INT32": 4,
              "FLOAT32": 4, "FLOAT32_FTZ": 4, "TFLOAT32": 4, "TFLOAT32_FTZ": 4,
              "UINT64": 8, "INT64": 8, "FLOAT64": 8}
