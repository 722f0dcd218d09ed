#!/usr/bin/env python3
"""Offline check of the dense mma.sync fragment maps (PTX ISA 9.2 §9.7.14.5.8 figures, restated here per
element index; CuTe's mma_traits_sm80.hpp SM80_16x8x32_S32S4S4S32 etc. state the same) against the H200 record
of mma_dense_probe.cu: for each kernel, D computed from the record's input words (lane l: A at 16 l + 0..3,
B at 16 l + 4..7, C at 16 l + 8..11) with the figure formulas must equal the GPU's D words (4 l + j).
Independent of the engine (Python standard library only). A wrong map does not pass: e.g. swapping the order
of the row-half and K-half steps of the K = 8P forms makes 6 of the 12 kernels differ.
Usage: check_fragments.py RECORD_DIR   (tests/data/exec/h200/mma_dense)"""
import json, struct, sys, os, math

def npy_u32(path):
    b = open(path, 'rb').read()
    assert b[:6] == b'\x93NUMPY'
    hl = struct.unpack('<H', b[8:10])[0]
    hdr = b[10:10 + hl].decode()
    assert "'<u4'" in hdr, hdr
    data = b[10 + hl:]
    return list(struct.unpack('<%dI' % (len(data) // 4), data))

def sx(v, bits):
    return v - (1 << bits) if v & (1 << (bits - 1)) else v

def fp8(v, man, bias):
    s = -1 if v & 0x80 else 1
    e = (v >> man) & ((1 << (7 - man)) - 1); f = v & ((1 << man) - 1)
    if e == 0: return s * f * 2.0 ** (1 - bias - man)
    return s * (f | (1 << man)) * 2.0 ** (e - bias - man)

def f16val(v):
    return struct.unpack('<e', struct.pack('<H', v))[0]
def f16bits(x):
    return struct.unpack('<H', struct.pack('<e', x))[0]
def f32val(v):
    return struct.unpack('<f', struct.pack('<I', v))[0]
def f32bits(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]

ELEM = {  # bits, decode
    'e4m3': (8, lambda v: fp8(v, 3, 7)), 'e5m2': (8, lambda v: fp8(v, 2, 15)),
    's8': (8, lambda v: sx(v, 8)), 'u8': (8, lambda v: v), 's4': (4, lambda v: sx(v, 4)),
    'u4': (4, lambda v: v), 'b1': (1, lambda v: v), 'f32': (32, f32val), 'f16': (16, f16val),
    's32': (32, lambda v: sx(v, 32)),
}

# Figures of §9.7.14.5.8, restated per element index i of a thread (g = lane>>2, t = lane&3).
def a_map(M, K, bits, g, t, i):
    P = 32 // bits
    if M == 8: return g, P * t + i
    if K == 4 * P: return g + 8 * (i // P), P * t + i % P
    return g + 8 * ((i // P) % 2), P * t + i % P + 4 * P * (i // (2 * P))
def b_map(M, K, bits, g, t, i):
    P = 32 // bits
    if K == 4 * P or M == 8: return P * t + i, g
    return P * t + i % P + 4 * P * (i // P), g
def cd_map(M, g, t, i):
    if M == 8: return g, 2 * t + i
    return g + 8 * (i // 2), 2 * t + i % 2

KERNELS = {
    'fp8_e4m3_k32_f32': (16, 32, 'e4m3', 'e4m3', 'f32', None, False),
    'fp8_e5m2e4m3_k32_f32': (16, 32, 'e5m2', 'e4m3', 'f32', None, False),
    'fp8_e4m3e5m2_k32_f16': (16, 32, 'e4m3', 'e5m2', 'f16', None, False),
    'fp8_e4m3_k16_f32': (16, 16, 'e4m3', 'e4m3', 'f32', None, False),
    's4_k32': (16, 32, 's4', 's4', 's32', None, False),
    'u4s4_k64': (16, 64, 'u4', 's4', 's32', None, False),
    's4_k64_satfinite': (16, 64, 's4', 's4', 's32', None, True),
    's4_m8n8k32': (8, 32, 's4', 's4', 's32', None, False),
    's8_m8n8k16': (8, 16, 's8', 's8', 's32', None, False),
    'b1_xor_k128': (16, 128, 'b1', 'b1', 's32', 'xor', False),
    'b1_and_k256': (16, 256, 'b1', 'b1', 's32', 'and', False),
    'b1_and_m8n8k128': (8, 128, 'b1', 'b1', 's32', 'and', False),
}

def run(rec, name):
    M, K, at, bt, ct, bop, sat = KERNELS[name]
    N = 8
    inp = npy_u32(os.path.join(rec, name + '_in.npy')); out = npy_u32(os.path.join(rec, name + '_out.npy'))
    A = [[None] * K for _ in range(M)]; B = [[None] * N for _ in range(K)]; C = [[None] * N for _ in range(M)]
    def gather(typ, cnt, base, mapf, dst):
        bits, dec = ELEM[typ]
        per = 32 // bits if bits < 32 else 1
        for l in range(32):
            g, t = l >> 2, l & 3
            for i in range(cnt):
                w = inp[16 * l + base + i // per]
                v = (w >> ((i % per) * bits)) & ((1 << bits) - 1)
                r, c = mapf(g, t, i)
                assert dst[r][c] is None, (name, typ, r, c)
                dst[r][c] = dec(v)
    gather(at, M * K // 32, 0, lambda g, t, i: a_map(M, K, ELEM[at][0], g, t, i), A)
    gather(bt, K * N // 32, 4, lambda g, t, i: b_map(M, K, ELEM[bt][0], g, t, i), B)
    gather(ct, M * N // 32, 8, lambda g, t, i: cd_map(M, g, t, i), C)
    bad = 0
    for l in range(32):
        g, t = l >> 2, l & 3
        words = [0] * 4
        for i in range(M * N // 32):
            r, c = cd_map(M, g, t, i)
            acc = C[r][c]
            for k in range(K):
                a, b = A[r][k], B[k][c]
                acc += (a ^ b) if bop == 'xor' else a * b
            if ct == 'f32': bits = f32bits(acc); w = 32
            elif ct == 'f16': bits = f16bits(acc); w = 16
            else:
                acc = max(-2**31, min(2**31 - 1, acc)) if sat else ((acc + 2**31) % 2**32) - 2**31
                bits = acc & 0xffffffff; w = 32
            per = 32 // w
            words[i // per] |= bits << ((i % per) * w)
        nreg = M * N // 32 * (16 if ct == 'f16' else 32) // 32
        for j in range(nreg):
            if words[j] != out[4 * l + j]: bad += 1
    return bad

rec = sys.argv[1]
if not os.path.isfile(os.path.join(rec, 'mma_dense.jsonl')):
    print('SKIPPED: no record in', rec)
    sys.exit(77)
tot = n = 0
for line in open(os.path.join(rec, 'mma_dense.jsonl')):
    j = json.loads(line)
    if 'kernel' not in j: continue
    k = j['kernel']
    bad = run(rec, k)
    n += 1
    print('%-24s %s' % (k, 'match' if bad == 0 else '%d words differ' % bad))
    tot += bad != 0
print('%d kernels, %d differ' % (n, tot))
sys.exit(1 if tot else 0)
