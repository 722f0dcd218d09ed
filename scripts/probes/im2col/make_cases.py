"""Writes cases_run1.txt: the im2col probe cases of docs/im2col.md §4 (one line per case).
Columns: id kind dtype rank il swz oob gd[5] gs[4] cpp ppc 0 0 0 es[5] c[5] dstOff region lower[3] upper[3] off[3]."""
U32, U16 = 2, 1
cases = []


def case(cid, kind, dims, lower, upper, cpp, ppc, c, off=(0, 0, 0), es=None, dtype=U32, il=0, swz=0, dst=0,
         region=4096, strides=None):
    rank = len(dims)
    eb = {U32: 4, U16: 2}[dtype]
    if strides is None:
        s, strides = (dims[0] * eb if il == 0 else dims[0] * 16 * il), []
        for i in range(1, rank):
            strides.append(s)
            s *= dims[i]
    gd = list(dims) + [1] * (5 - rank)
    gs = list(strides) + [0] * (4 - len(strides))
    es = list(es or [1] * rank) + [1] * (5 - rank)
    cc = list(c) + [0] * (5 - rank)
    lo = list(lower) + [0] * (3 - len(lower))
    up = list(upper) + [0] * (3 - len(upper))
    vals = [cid, kind, dtype, rank, il, swz, 0] + gd + gs + [cpp, ppc, 0, 0, 0] + es + cc + [dst, region] + lo + up + list(off)
    cases.append(" ".join(str(v) for v in vals))


B = [8, 10, 6, 2]  # the golden base map: UINT32 {C=8, W=10, H=6, N=2}
# loads
case("L1_chan_past_C", "im2col", [8, 6, 4, 2], [-1, -1], [-1, -1], 8, 8, [4, 0, 0, 0])
case("L2_r5_D_above", "im2col", [4, 4, 4, 4, 2], [-1, -1, -1], [-1, -1, -1], 4, 8, [0, 0, 0, 3, 0])
case("L3_r5_D_below", "im2col", [4, 4, 4, 4, 2], [-1, -1, -1], [-1, -1, -1], 4, 8, [0, 0, 0, -2, 0])
case("L4_r5_walk", "im2col", [4, 3, 2, 2, 2], [-1, 0, 0], [0, 0, 0], 4, 40, [0, -1, 1, 0, 0], off=(1, 0, 1))
case("L5_off256_r4", "im2col", B, [-1, -1], [-1, -1], 8, 8, [0, 0, 0, 0], off=(256, 0, 0))
case("L6_off257_r4", "im2col", B, [-1, -1], [-1, -1], 8, 8, [0, 0, 0, 0], off=(257, 1, 0))
case("L7_off32_r5", "im2col", [4, 4, 4, 4, 2], [-1, -1, -1], [-1, -1, -1], 4, 8, [0, 0, 0, 0, 0], off=(32, 0, 0))
case("L8_off33_r5", "im2col", [4, 4, 4, 4, 2], [-1, -1, -1], [-1, -1, -1], 4, 8, [0, 0, 0, 0, 0], off=(33, 0, 0))
case("L9_r3_bigoff", "im2col", [4, 2000, 2], [0], [0], 4, 8, [0, 1990, 0], off=(5, 0, 0))
case("L10_r3_off40000", "im2col", [4, 100, 2], [0], [0], 4, 8, [0, 0, 0], off=(40000, 0, 0))
case("L11_il_c0_above", "im2col", B, [0, 0], [0, 0], 8, 8, [8, 0, 0, 0], dtype=U16, il=1)
case("L12_il_w_above", "im2col", B, [0, 0], [0, 0], 8, 8, [0, 10, 0, 0], dtype=U16, il=1)
case("L13_il_h_above", "im2col", B, [0, 0], [0, 0], 8, 8, [0, 0, 6, 0], dtype=U16, il=1)
case("L14_strides_all", "im2col", [4, 5, 3, 4], [-2, -1], [0, -1], 4, 24, [0, -2, -1, 1], off=(2, 1, 0), es=[1, 2, 2, 2])
case("L15_upper_pos", "im2col", [4, 3, 2, 2], [0, 0], [2, 1], 4, 30, [0, 0, 0, 0])
case("L16_order_smem_box", "im2col", B, [-1, -1], [-1, -1], 8, 8, [0, 9, -1, 0], dst=64)
case("L17_neg_n", "im2col", B, [-1, -1], [-1, -1], 8, 8, [0, 0, 0, -1])
case("L18_chan_neg_past", "im2col", [8, 6, 4, 2], [-1, -1], [-1, -1], 8, 4, [-4, 0, 0, 0])
case("L19_c_align_box", "im2col", B, [-1, -1], [-1, -1], 8, 8, [1, 9, -1, 0])
# .im2col_no_offs stores
S = [4, 3, 2, 2]
case("S1_basic", "i2cstore", S, [0, 0], [0, 0], 4, 8, [0, 1, 0, 0])
case("S2_halo_box", "i2cstore", S, [-1, -1], [-1, -1], 4, 8, [0, 0, 0, 0])
case("S3_chan_half", "i2cstore", [8, 3, 2, 2], [0, 0], [0, 0], 4, 6, [4, 0, 0, 0])
case("S4_swz32", "i2cstore", S, [0, 0], [0, 0], 4, 8, [0, 0, 0, 0], swz=1)
case("S5_wstride2", "i2cstore", [4, 5, 2, 2], [0, 0], [0, 0], 4, 8, [0, 0, 0, 0], es=[1, 2, 1, 1])
case("S6_neg_w_lower_neg", "i2cstore", S, [-1, 0], [0, 0], 4, 4, [0, -1, 0, 0])
case("S7_past_last_n", "i2cstore", S, [0, 0], [0, 0], 4, 8, [0, 2, 1, 1])
case("S8_r3", "i2cstore", [4, 5, 2], [0], [0], 4, 8, [0, 2, 0])
case("S9_r5", "i2cstore", [4, 2, 2, 2, 2], [0, 0, 0], [0, 0, 0], 4, 12, [0, 1, 0, 1, 0])
case("S10_upper_pos", "i2cstore", S, [0, 0], [1, 0], 4, 8, [0, 0, 0, 0])
case("S11_C6_granule", "i2cstore", [6, 3, 2, 2], [0, 0], [0, 0], 8, 4, [0, 0, 0, 0], strides=[32, 96, 192])
case("S12_chan_past_C", "i2cstore", [8, 3, 2, 2], [0, 0], [0, 0], 8, 4, [4, 0, 0, 0])
case("S13_start_outside", "i2cstore", S, [0, 0], [-1, 0], 4, 4, [0, 2, 0, 0])
open("cases_run1.txt", "w").write("\n".join(cases) + "\n")
print(len(cases), "cases")

# run 2: the offset packing (OR versus add, H and D overflow) and interleaved .im2col_no_offs stores
cases = []
R5 = [4, 4, 4, 4, 2]
case("M1_r5_or_vs_add", "im2col", R5, [-1, -1, -1], [-1, -1, -1], 4, 8, [0, 0, 0, 0, 0], off=(32, 1, 0))
case("M2_r5_H_over", "im2col", R5, [-1, -1, -1], [-1, -1, -1], 4, 8, [0, 0, 0, 0, 0], off=(0, 33, 0))
case("M3_r5_D_over", "im2col", R5, [-1, -1, -1], [-1, -1, -1], 4, 8, [0, 0, 0, 0, 0], off=(1, 0, 33))
case("M4_r4_H_over", "im2col", B, [-1, -1], [-1, -1], 8, 8, [0, 0, 0, 0], off=(1, 257, 0))
case("M5_r5_big", "im2col", R5, [-1, -1, -1], [-1, -1, -1], 4, 8, [0, 0, 0, 0, 0], off=(0x7fff, 0, 0))
case("M6_il_off_over", "im2col", B, [0, 0], [0, 0], 8, 8, [0, 0, 0, 0], dtype=U16, il=1, off=(257, 0, 0))
case("N1_il_store", "i2cstore", B, [0, 0], [0, 0], 8, 8, [0, 0, 0, 0], dtype=U16, il=1)
case("N2_il_store_mid", "i2cstore", B, [0, 0], [0, 0], 8, 12, [2, 3, 1, 0], dtype=U16, il=1)
case("N3_il32_store", "i2cstore", [16, 10, 6, 2], [0, 0], [0, 0], 16, 6, [3, 9, 2, 1], dtype=U16, il=2, swz=1)
case("N4_il_store_es", "i2cstore", B, [0, 0], [0, 0], 8, 10, [0, 0, 0, 0], dtype=U16, il=1, es=[2, 1, 1, 1])
open("cases_run2.txt", "w").write("\n".join(cases) + "\n")
print(len(cases), "cases (run 2)")
