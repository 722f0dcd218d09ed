// Every mma.sync / wgmma type and operand form the executor runs, on hand-written PTX harnesses: each
// thread loads its fragment registers from a buffer the test filled per the PTX ISA fragment figures
// (written out here by hand: §9.7.14.5.8 for mma.sync, §9.7.15.5.1 for wgmma), the instruction runs, and
// the D registers mapped back through the same figures must equal a CPU GEMM of integer-valued inputs.
#include "exec_test_util.hpp"

#include <functional>

using namespace exectest;

namespace {

struct RC {
    int row, col;
};
using FragFn = std::function<RC(int lane, int i)>; // lane 0..31 (wgmma: 0..127), element i

uint64_t encode(const std::string& type, int v) {
    if (type == "f16") {
        if (v == 0) return 0;
        uint32_t a = uint32_t(std::abs(v)), e = 0;
        while ((a >> e) > 1) ++e;
        return (v < 0 ? 0x8000u : 0u) | (e + 15) << 10 | ((a << (10 - e)) & 0x3ff);
    }
    if (type == "bf16") return f32bits(float(v)) >> 16;
    if (type == "tf32" || type == "f32" || type == "s32")
        return type == "s32" ? uint32_t(v) : f32bits(float(v));
    if (type == "f64") {
        const double d = v;
        uint64_t b;
        std::memcpy(&b, &d, 8);
        return b;
    }
    if (type == "s8" || type == "u8") return uint8_t(v);
    // e4m3 (bias 7, 3 significand bits) and e5m2 (bias 15, 2 bits): small integers are normal numbers.
    const int man = type == "e4m3" ? 3 : 2, bias = type == "e4m3" ? 7 : 15;
    if (v == 0) return 0;
    uint32_t a = uint32_t(std::abs(v)), e = 0;
    while ((a >> e) > 1) ++e;
    return (v < 0 ? 0x80u : 0u) | (e + bias) << man | ((a << man >> e) & ((1u << man) - 1));
}

int decode(const std::string& type, uint64_t bits) {
    if (type == "s32") return int32_t(uint32_t(bits));
    if (type == "f32") return int(bitsf32(bits));
    if (type == "f64") {
        double d;
        std::memcpy(&d, &bits, 8);
        return int(d);
    }
    // f16 (integers only: |v| < 2048)
    const uint32_t h = uint32_t(bits & 0xffff), e = (h >> 10) & 31, m = h & 0x3ff;
    const int mag = e == 0 ? 0 : int((int64_t(1024 + m) << e) >> 25);
    return (h & 0x8000) ? -mag : mag;
}

int bitsOf(const std::string& t) {
    return t == "f16" || t == "bf16"                 ? 16
           : t == "f64"                              ? 64
           : (t == "s8" || t == "u8" || t[0] == 'e') ? 8
                                                     : 32;
}

std::vector<int> ints(size_t n, uint32_t seed, int lo, int hi) {
    std::vector<int> v(n);
    for (auto& x : v) {
        seed = seed * 1664525u + 1013904223u;
        x = lo + int((seed >> 16) % uint32_t(hi - lo + 1));
    }
    return v;
}

// Fill `regs` (threads x nregs words of 64 bits) with the elements of `mat` (rows x cols) per `frag`.
void pack(std::vector<uint64_t>& words, size_t wordBase, int threads, int perThread, int nElems,
          const std::string& type, const std::vector<int>& mat, int cols, const FragFn& frag) {
    const int bits = bitsOf(type), perReg = bits >= 32 ? 1 : 32 / bits;
    for (int t = 0; t < threads; ++t)
        for (int i = 0; i < nElems; ++i) {
            const RC rc = frag(t, i);
            const uint64_t v =
                encode(type, mat[size_t(rc.row) * cols + rc.col]) & ((bits == 64 ? 0 : (1ull << bits)) - 1);
            words[size_t(t) * perThread + wordBase + size_t(i / perReg)] |= v << (bits * (i % perReg));
        }
}

std::string regList(const std::string& prefix, int first, int n) {
    std::string s = "{";
    for (int i = 0; i < n; ++i) s += (i ? ", " : "") + prefix + std::to_string(first + i);
    return s + "}";
}

// A kernel k(in, out, smem image) whose threads load `loads` 64-bit-slot registers %x0.. from in
// (16 * 8 + ... words per thread), copy the smem image (if any) to shared memory, run `instr`, and store
// `stores` registers %x<storeFirst>.. to out.
std::string harness(const std::string& instr, int loads, int storeFirst, int stores, bool wide,
                    int smemBytes) {
    std::string s = ".version 8.0\n.target sm_90a\n.address_size 64\n"
                    ".visible .entry k(.param .u64 pin, .param .u64 pout, .param .u64 psm)\n{\n"
                    ".reg .b64 %rd<16>;\n.reg .b32 %r<16>;\n.reg .pred %p<4>;\n";
    s += wide ? ".reg .b64 %x<256>;\n" : ".reg .b32 %x<256>;\n";
    if (smemBytes) s += ".shared .align 1024 .b8 sm[" + std::to_string(smemBytes) + "];\n";
    s += "ld.param.u64 %rd0, [pin];\nld.param.u64 %rd1, [pout];\nld.param.u64 %rd9, [psm];\n"
         "mov.u32 %r0, %tid.x;\nmul.wide.u32 %rd2, %r0, 2048;\nadd.u64 %rd3, %rd0, %rd2;\n"
         "add.u64 %rd4, %rd1, %rd2;\n";
    for (int i = 0; i < loads; ++i)
        s += std::string(wide ? "ld.global.b64 %x" : "ld.global.b32 %x") + std::to_string(i) + ", [%rd3+" +
             std::to_string(8 * i) + "];\n";
    if (smemBytes) { // thread t copies 8-byte words t, t + ntid, ...
        s += "mov.u32 %r1, %r0;\nmov.u32 %r5, %ntid.x;\nLOOP:\nsetp.ge.u32 %p0, %r1, " +
             std::to_string(smemBytes / 8) +
             ";\n@%p0 bra DONE;\nmul.wide.u32 %rd5, %r1, 8;\nadd.u64 %rd6, %rd9, %rd5;\n"
             "ld.global.b64 %rd7, [%rd6];\nmov.u32 %r2, sm;\ncvt.u32.u64 %r3, %rd5;\nadd.u32 %r4, %r2, %r3;\n"
             "st.shared.b64 [%r4], %rd7;\nadd.u32 %r1, %r1, %r5;\nbra LOOP;\nDONE:\nbar.sync 0;\n";
    }
    s += instr + "\n";
    for (int i = 0; i < stores; ++i)
        s += std::string(wide ? "st.global.b64 [%rd4+" : "st.global.b32 [%rd4+") + std::to_string(8 * i) +
             "], %x" + std::to_string(storeFirst + i) + ";\n";
    return s + "ret;\n}\n";
}

struct Case {
    std::string name, instr;
    int M, N, K;
    std::string ta, tb, tc, td;
    FragFn fa, fb, fc;
    int na, nb, nc; // elements per thread
    int lo = -4, hi = 4;
};

int regsOf(const std::string& t, int n) {
    const int b = bitsOf(t);
    return b >= 32 ? n : n * b / 32;
}

void runMmaSync(const Case& c) {
    const auto A = ints(size_t(c.M) * c.K, 11, c.lo, c.hi), B = ints(size_t(c.K) * c.N, 12, c.lo, c.hi),
               C = ints(size_t(c.M) * c.N, 13, -50, 50);
    const int ra = regsOf(c.ta, c.na), rb = regsOf(c.tb, c.nb), rc = regsOf(c.tc, c.nc),
              rd = regsOf(c.td, c.nc);
    std::vector<uint64_t> in(32 * 256, 0);
    pack(in, 0, 32, 256, c.na, c.ta, A, c.K, c.fa);
    pack(in, size_t(ra), 32, 256, c.nb, c.tb, B, c.N, c.fb);
    pack(in, size_t(ra + rb), 32, 256, c.nc, c.tc, C, c.N, c.fc);
    const std::string instr = c.instr + " " + regList("%x", ra + rb + rc, rd) + ", " + regList("%x", 0, ra) +
                              ", " + regList("%x", ra, rb) + ", " + regList("%x", ra + rb, rc) + ";";
    Launch l;
    l.block = {32, 1, 1};
    l.args = {tensorArg<uint64_t>("pin", "u64", in),
              tensorArg<uint64_t>("pout", "u64", std::vector<uint64_t>(32 * 256, 0)),
              tensorArg<uint64_t>("psm", "u64", std::vector<uint64_t>(1, 0))};
    auto r = runText(harness(instr, ra + rb + rc, ra + rb + rc, rd, c.ta == "f64", 0), l);
    if (!r) FAIL(formatDiagnostic(r.error()));
    CHECK(r->notes.empty()); // integer-valued: nothing rounded
    const auto out = values<uint64_t>(*r, "pout");
    const int bits = bitsOf(c.td), perReg = bits >= 32 ? 1 : 32 / bits;
    int bad = 0;
    for (int t = 0; t < 32; ++t)
        for (int i = 0; i < c.nc; ++i) {
            const RC p = c.fc(t, i);
            int64_t want = C[size_t(p.row) * c.N + p.col];
            for (int k = 0; k < c.K; ++k)
                want += int64_t(A[size_t(p.row) * c.K + k]) * B[size_t(k) * c.N + p.col];
            const uint64_t w = out[size_t(t) * 256 + size_t(i / perReg)] >> (bits * (i % perReg));
            if (decode(c.td, bits == 64 ? w : w & ((1ull << bits) - 1)) != want) ++bad;
        }
    CHECK(bad == 0);
}

// PTX ISA §9.7.14.5.8 figures (g = lane / 4, t = lane % 4).
RC cM16N8(int l, int i) {
    return {l / 4 + 8 * (i / 2), 2 * (l % 4) + i % 2};
}

} // namespace

TEST_CASE("exec: mma.sync forms equal the CPU GEMM through the PTX ISA fragment figures", "[exec][xmma]") {
    const FragFn a16k16 = [](int l, int i) {
        return RC{l / 4 + 8 * ((i / 2) % 2), 2 * (l % 4) + i % 2 + 8 * (i / 4)};
    };
    const FragFn b16k16 = [](int l, int i) { return RC{2 * (l % 4) + i % 2 + 8 * (i / 2), l / 4}; };
    const FragFn a16k8 = [](int l, int i) { return RC{l / 4 + 8 * (i / 2), 2 * (l % 4) + i % 2}; };
    const FragFn b16k8 = [](int l, int i) { return RC{2 * (l % 4) + i, l / 4}; };
    const FragFn c16 = cM16N8;
    SECTION("m16n8k16 bf16 -> f32") {
        runMmaSync({"", "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", 16, 8, 16, "bf16", "bf16",
                    "f32", "f32", a16k16, b16k16, c16, 8, 4, 4});
    }
    SECTION("m16n8k16 f16 -> f16") {
        runMmaSync({"", "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16", 16, 8, 16, "f16", "f16", "f16",
                    "f16", a16k16, b16k16, c16, 8, 4, 4});
    }
    SECTION("m16n8k8 f16 -> f32") {
        runMmaSync({"", "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32", 16, 8, 8, "f16", "f16", "f32",
                    "f32", a16k8, b16k8, c16, 4, 2, 4});
    }
    SECTION("m16n8k8 tf32") {
        runMmaSync({"", "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", 16, 8, 8, "tf32", "tf32", "f32",
                    "f32",
                    [](int l, int i) {
                        return RC{l / 4 + 8 * (i % 2), l % 4 + 4 * (i / 2)};
                    },
                    [](int l, int i) {
                        return RC{l % 4 + 4 * i, l / 4};
                    },
                    c16, 4, 2, 4});
    }
    SECTION("m16n8k4 tf32") {
        runMmaSync({"", "mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32", 16, 8, 4, "tf32", "tf32", "f32",
                    "f32",
                    [](int l, int i) {
                        return RC{l / 4 + 8 * i, l % 4};
                    },
                    [](int l, int) {
                        return RC{l % 4, l / 4};
                    },
                    c16, 2, 1, 4});
    }
    SECTION("m16n8k32 s8 x u8 -> s32 .satfinite") {
        runMmaSync({"", "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.u8.s32", 16, 8, 32, "s8", "u8",
                    "s32", "s32",
                    [](int l, int i) {
                        return RC{l / 4 + 8 * ((i / 4) % 2), 4 * (l % 4) + i % 4 + 16 * (i / 8)};
                    },
                    [](int l, int i) {
                        return RC{4 * (l % 4) + i % 4 + 16 * (i / 4), l / 4};
                    },
                    c16, 16, 8, 4, 0, 9});
    }
    SECTION("m16n8k16 s8 -> s32") {
        runMmaSync({"", "mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32", 16, 8, 16, "s8", "s8", "s32",
                    "s32",
                    [](int l, int i) {
                        return RC{l / 4 + 8 * (i / 4), 4 * (l % 4) + i % 4};
                    },
                    [](int l, int i) {
                        return RC{4 * (l % 4) + i, l / 4};
                    },
                    c16, 8, 4, 4});
    }
    SECTION("m8n8k4 f64") {
        runMmaSync({"", "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", 8, 8, 4, "f64", "f64", "f64",
                    "f64",
                    [](int l, int) {
                        return RC{l / 4, l % 4};
                    },
                    [](int l, int) {
                        return RC{l % 4, l / 4};
                    },
                    [](int l, int i) {
                        return RC{l / 4, 2 * (l % 4) + i};
                    },
                    1, 1, 2});
    }
}

namespace {

struct WgCase {
    std::string shape; // "m64n32k16"
    int N, K;
    std::string td, ta, tb;
    bool aRegs = false, transA = false, scaleD = true;
    int scaleA = 1;
    std::string tail; // the immediates after scale-d
    int lo = -4, hi = 4;
};

// K-major SWIZZLE_128B (K bytes = 32): 8-row atoms of 128-B rows, 16-B chunk c of row r at c ^ (r % 8).
uint32_t kMajorSw128(uint32_t base, int mn, int kb) {
    return base + uint32_t(mn / 8) * 1024 + uint32_t(mn % 8) * 128 +
           uint32_t(((kb / 16) ^ (mn % 8)) * 16 + kb % 16);
}
// MN-major SWIZZLE_128B, 16-bit elements, MN = 64: atom (64 MN x 8 K), row k % 8, 8 K per 1024 B.
uint32_t mnMajorSw128(uint32_t base, int mn, int k) {
    return base + uint32_t(k / 8) * 1024 + uint32_t(k % 8) * 128 +
           uint32_t((((mn / 8) ^ (k % 8)) * 16) + (mn * 2) % 16);
}
uint64_t sw128Desc(uint32_t base, uint32_t lbo, uint32_t sbo) {
    return uint64_t(base >> 4) | uint64_t(lbo >> 4) << 16 | uint64_t(sbo >> 4) << 32 | uint64_t(1) << 62;
}

void runWgmma(const WgCase& c) {
    const int M = 64, N = c.N, K = c.K;
    const auto A = ints(size_t(M) * K, 21, c.lo, c.hi), B = ints(size_t(K) * N, 22, c.lo, c.hi),
               D0 = ints(size_t(M) * N, 23, -50, 50);
    const int dbits = bitsOf(c.td), nd = N / 2, dRegs = dbits == 16 ? N / 4 : N / 2;
    const FragFn fd = [](int t, int i) {
        const int w = t / 32, l = t % 32;
        return RC{16 * w + l / 4 + 8 * ((i / 2) % 2), 8 * (i / 4) + 2 * (l % 4) + i % 2};
    };
    std::vector<uint64_t> in(128 * 256, 0);
    pack(in, 0, 128, 256, nd, c.td, D0, N, fd);
    const int abits = bitsOf(c.ta), ab = abits / 8;
    if (c.aRegs) { // the mma.sync m16n8kK A figure per warp, rows + 16 * warp
        const FragFn fa = [&](int t, int i) {
            const int w = t / 32, l = t % 32;
            if (abits == 16) return RC{16 * w + l / 4 + 8 * ((i / 2) % 2), 2 * (l % 4) + i % 2 + 8 * (i / 4)};
            if (abits == 32) return RC{16 * w + l / 4 + 8 * (i % 2), l % 4 + 4 * (i / 2)};
            return RC{16 * w + l / 4 + 8 * ((i / 4) % 2), 4 * (l % 4) + i % 4 + 16 * (i / 8)};
        };
        pack(in, size_t(dRegs), 128, 256, 4 * 32 / abits, c.ta, A, K, fa);
    }
    // Shared image: A at 0, B at 8192 (1024-B aligned), both K-major SW128 unless transA.
    std::vector<uint8_t> sm(8192 + size_t(N / 8) * 1024, 0);
    auto put = [&](uint32_t addr, const std::string& t, int v) {
        const uint64_t e = encode(t, v);
        std::memcpy(sm.data() + addr, &e, size_t(bitsOf(t) / 8));
    };
    for (int m = 0; m < M; ++m)
        for (int k = 0; k < K; ++k)
            put(c.transA ? mnMajorSw128(0, m, k) : kMajorSw128(0, m, k * ab), c.ta, A[size_t(m) * K + k]);
    for (int n = 0; n < N; ++n)
        for (int k = 0; k < K; ++k)
            put(kMajorSw128(8192, n, k * (bitsOf(c.tb) / 8)), c.tb, B[size_t(k) * N + n]);
    std::vector<uint64_t> smWords(sm.size() / 8);
    std::memcpy(smWords.data(), sm.data(), sm.size());
    const uint64_t da = sw128Desc(0, 1024, 1024), db = sw128Desc(8192, 16, 1024);
    const std::string aOp = c.aRegs ? regList("%x", dRegs, 4) : "%rd10";
    const std::string instr =
        "mov.b64 %rd10, " + std::to_string(da) + ";\nmov.b64 %rd11, " + std::to_string(db) + ";\n" +
        (c.scaleD ? "setp.eq.u32 %p1, %r0, %r0;\n" : "setp.ne.u32 %p1, %r0, %r0;\n") +
        "wgmma.fence.sync.aligned;\nwgmma.mma_async.sync.aligned." + c.shape + "." + c.td + "." + c.ta + "." +
        c.tb + " " + regList("%x", 0, dRegs) + ", " + aOp + ", %rd11, %p1" + c.tail +
        ";\nwgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;";
    Launch l;
    l.block = {128, 1, 1};
    l.args = {tensorArg<uint64_t>("pin", "u64", in),
              tensorArg<uint64_t>("pout", "u64", std::vector<uint64_t>(128 * 256, 0)),
              tensorArg<uint64_t>("psm", "u64", smWords)};
    auto r = runText(harness(instr, dRegs + (c.aRegs ? 4 : 0), 0, dRegs, false, int(sm.size())), l);
    if (!r) FAIL(formatDiagnostic(r.error()));
    const auto out = values<uint64_t>(*r, "pout");
    const int perReg = dbits >= 32 ? 1 : 2;
    int bad = 0;
    for (int t = 0; t < 128; ++t)
        for (int i = 0; i < nd; ++i) {
            const RC p = fd(t, i);
            int64_t want = c.scaleD ? D0[size_t(p.row) * N + p.col] : 0;
            for (int k = 0; k < K; ++k)
                want += int64_t(c.scaleA) * A[size_t(p.row) * K + k] * B[size_t(k) * N + p.col];
            const uint64_t w = out[size_t(t) * 256 + size_t(i / perReg)] >> (dbits * (i % perReg));
            if (decode(c.td, w & ((1ull << dbits) - 1)) != want && ++bad <= 3)
                UNSCOPED_INFO(c.shape << " thread " << t << " element " << i << " (" << p.row << ", " << p.col
                                      << "): got " << decode(c.td, w & ((1ull << dbits) - 1)) << ", want "
                                      << want);
        }
    CHECK(bad == 0);
}

} // namespace

TEST_CASE("exec: wgmma.mma_async forms equal the CPU GEMM through the PTX ISA D fragment", "[exec][xmma]") {
    SECTION("f16 -> f32, A and B descriptors, n64") {
        runWgmma({"m64n64k16", 64, 16, "f32", "f16", "f16", false, false, true, 1, ", 1, 1, 0, 0"});
    }
    SECTION("f16 -> f16, A from registers, n32") {
        runWgmma({"m64n32k16", 32, 16, "f16", "f16", "f16", true, false, true, 1, ", 1, 1, 0"});
    }
    SECTION("bf16 -> f32, MN-major A (imm-trans-a 1), imm-scale-a -1, n128") {
        runWgmma({"m64n128k16", 128, 16, "f32", "bf16", "bf16", false, true, true, -1, ", -1, 1, 1, 0"});
    }
    SECTION("f16, scale-d false ignores the accumulator, n8") {
        runWgmma({"m64n8k16", 8, 16, "f32", "f16", "f16", false, false, false, 1, ", 1, 1, 0, 0"});
    }
    SECTION("tf32 -> f32, n16; A from registers n24") {
        runWgmma({"m64n16k8", 16, 8, "f32", "tf32", "tf32", false, false, true, 1, ", 1, 1"});
        runWgmma({"m64n24k8", 24, 8, "f32", "tf32", "tf32", true, false, true, 1, ", 1, 1"});
    }
    SECTION("e4m3 x e5m2 -> f16 and f32") {
        runWgmma({"m64n24k32", 24, 32, "f16", "e4m3", "e5m2", false, false, true, 1, ", 1, 1"});
        runWgmma({"m64n64k32", 64, 32, "f32", "e5m2", "e4m3", true, false, true, 1, ", 1, 1"});
    }
    SECTION("s8 x u8 -> s32 (.satfinite), u8 x u8 from registers") {
        runWgmma({"m64n32k32.satfinite", 32, 32, "s32", "s8", "u8", false, false, true, 1, "", 0, 15});
        runWgmma({"m64n16k32", 16, 32, "s32", "u8", "u8", true, false, true, 1, "", 0, 15});
    }
}

TEST_CASE("exec: movmatrix.trans transposes the 8x8 b16 fragment (PTX ISA §9.7.14.5.17)", "[exec][xmma]") {
    // Thread t holds row t/4, columns 2(t%4), 2(t%4)+1 of an 8x8 matrix (element value 8*row + col); after
    // movmatrix.trans it holds the same positions of the transpose: values 8*col + row.
    const std::string ptx =
        ".version 8.0\n.target sm_90a\n.address_size 64\n"
        ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
        "ld.param.u64 %rd0, [out];\nmov.u32 %r0, %tid.x;\n"
        "shr.u32 %r1, %r0, 2;\nand.b32 %r2, %r0, 3;\nshl.b32 %r2, %r2, 1;\n"
        "mad.lo.u32 %r3, %r1, 8, %r2;\nadd.u32 %r4, %r3, 1;\nshl.b32 %r4, %r4, 16;\n"
        "or.b32 %r5, %r3, %r4;\nmovmatrix.sync.aligned.m8n8.trans.b16 %r6, %r5;\n"
        "mul.wide.u32 %rd1, %r0, 4;\nadd.u64 %rd2, %rd0, %rd1;\nst.global.b32 [%rd2], %r6;\nret;\n}\n";
    Launch l;
    l.block = {32, 1, 1};
    l.args = {tensorArg<uint32_t>("out", "u32", std::vector<uint32_t>(32, 0))};
    auto r = runText(ptx, l);
    if (!r) FAIL(formatDiagnostic(r.error()));
    const auto out = values<uint32_t>(*r, "out");
    for (uint32_t t = 0; t < 32; ++t)
        for (uint32_t h = 0; h < 2; ++h)
            CHECK((out[t] >> (16 * h) & 0xffff) == 8 * (2 * (t % 4) + h) + t / 4);
}

TEST_CASE("exec: misused matrix instructions stop the run with their rule", "[exec][xmma]") {
    auto run = [](const std::string& body, uint32_t threads) {
        const std::string ptx = ".version 8.0\n.target sm_90a\n.address_size 64\n"
                                ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
                                ".reg .f32 %f<8>;\n.reg .pred %p<4>;\n.shared .align 1024 .b8 sm[4096];\n"
                                "mov.u32 %r0, %tid.x;\nmov.b64 %rd1, 0x4000004000010000;\n" +
                                body + "\nret;\n}\n";
        Launch l;
        l.block = {threads, 1, 1};
        l.args = {tensorArg<uint32_t>("out", "u32", std::vector<uint32_t>(32, 0))};
        return runText(ptx, l);
    };
    const std::string mma =
        "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f0, %f1, %f2, %f3}, %rd1, %rd1, 1, "
        "1, 1, 0, 0;\n";
    SECTION("warps of one warpgroup at different wgmma instructions") {
        auto r = run("setp.lt.u32 %p0, %r0, 64;\n@%p0 bra A;\n" + mma + "bra.uni B;\nA:\n" + mma + "B:", 128);
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message, Catch::Contains("different wgmma.mma_async instructions"));
    }
    SECTION("a warp of the warpgroup exits before the wgmma") {
        auto r = run("setp.ge.u32 %p0, %r0, 96;\n@%p0 exit;\n" + mma, 128);
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message, Catch::Contains("deadlock") && Catch::Contains("warpgroup"));
    }
    SECTION("wgmma in part of a warp") {
        auto r = run("setp.lt.u32 %p0, %r0, 16;\n@%p0 " + mma, 128);
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message, Catch::Contains("part of a warp"));
    }
    SECTION("cp.async src-size larger than cp-size") {
        auto r =
            run("ld.param.u64 %rd2, [out];\nmov.u32 %r1, sm;\ncp.async.ca.shared.global [%r1], [%rd2], 4, 8;",
                32);
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message, Catch::Contains("src-size 8") && Catch::Contains("cp-size 4"));
    }
    SECTION("wgmma with a d vector of the wrong length") {
        auto r = run(
            "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%f0, %f1, %f2, %f3}, %rd1, %rd1, 1, 1, 1, "
            "0, 0;",
            128);
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message, Catch::Contains("d has 4 registers") && Catch::Contains("needs 8"));
    }
    SECTION("mma.sync with too few A registers") {
        auto r = run(
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f0, %f1, %f2, %f3}, {%r1, %r2}, {%r1, %r2}, "
            "{%f0, %f1, %f2, %f3};",
            32);
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message, Catch::Contains("a of this mma.sync form is a vector of 4 registers"));
    }
    SECTION("ldmatrix in a partial warp") {
        auto r = run("mov.u32 %r1, sm;\nldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r2}, [%r1];", 16);
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message, Catch::Contains("fewer than 32 live threads"));
    }
    SECTION("wgmma bf16 with an f16 accumulator") {
        auto r =
            run("wgmma.mma_async.sync.aligned.m64n8k16.f16.bf16.bf16 {%r1, %r2}, %rd1, %rd1, 1, 1, 1, 0, 0;",
                128);
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message, Catch::Contains("types .f16.bf16.bf16"));
    }
}

TEST_CASE("exec: cp.async.mbarrier.arrive(.noinc) arrives on the mbarrier (PTX ISA §9.7.9.25.3.4)",
          "[exec][xmma]") {
    // 32 threads each cp.async 4 bytes into shared memory, then arrive through cp.async.mbarrier.arrive:
    // with .noinc each counts as one of the 32 expected arrivals; without it the pending count is raised
    // first (no net arrival), so the threads also arrive with mbarrier.arrive. A try_wait loop then reads
    // the copy back. init count 32 in both.
    auto run = [](bool noinc) {
        const std::string arrive = noinc ? "cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%r5];\n"
                                         : "cp.async.mbarrier.arrive.shared::cta.b64 "
                                           "[%r5];\nmbarrier.arrive.shared::cta.b64 %rd6, [%r5];\n";
        const std::string ptx =
            ".version 8.0\n.target sm_90a\n.address_size 64\n"
            ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n.reg .b32 %r<16>;\n.reg .b64 %rd<16>;\n"
            ".reg .pred %p<4>;\n.shared .align 8 .b8 bar[8];\n.shared .align 16 .b8 buf[128];\n"
            "ld.param.u64 %rd0, [in];\nld.param.u64 %rd1, [out];\nmov.u32 %r0, %tid.x;\n"
            "mov.u32 %r5, bar;\nmov.u32 %r6, buf;\nsetp.eq.u32 %p0, %r0, 0;\n"
            "@%p0 mbarrier.init.shared::cta.b64 [%r5], 32;\nbar.sync 0;\n"
            "mul.wide.u32 %rd2, %r0, 4;\nadd.u64 %rd3, %rd0, %rd2;\nshl.b32 %r7, %r0, 2;\nadd.u32 %r8, %r6, "
            "%r7;\n"
            "cp.async.ca.shared.global [%r8], [%rd3], 4;\n" +
            arrive +
            "WAIT:\nmbarrier.try_wait.parity.shared::cta.b64 %p1, [%r5], 0;\n@!%p1 bra WAIT;\n"
            "xor.b32 %r9, %r7, 4;\nadd.u32 %r10, %r6, %r9;\nld.shared.u32 %r11, [%r10];\n"
            "add.u64 %rd4, %rd1, %rd2;\nst.global.u32 [%rd4], %r11;\nret;\n}\n";
        Launch l;
        l.block = {32, 1, 1};
        std::vector<uint32_t> in(32);
        for (uint32_t i = 0; i < 32; ++i) in[i] = 1000 + i;
        l.args = {tensorArg<uint32_t>("in", "u32", in),
                  tensorArg<uint32_t>("out", "u32", std::vector<uint32_t>(32, 0))};
        return runText(ptx, l);
    };
    for (bool noinc : {true, false}) {
        auto r = run(noinc);
        if (!r) FAIL(formatDiagnostic(r.error()));
        const auto out = values<uint32_t>(*r, "out");
        for (uint32_t t = 0; t < 32; ++t) CHECK(out[t] == 1000 + (t ^ 1)); // the neighbour's copy
    }
}

TEST_CASE("exec: an mma whose exact sum is rounded to the accumulator says so (unverified)", "[exec][xmma]") {
    // A = B = 1.0 (f16 0x3C00), C = 2047 (0x67FF): d = 2047 + 8 = 2055, not an f16 (spacing 2 above 2048).
    const std::string ptx =
        ".version 8.0\n.target sm_90a\n.address_size 64\n"
        ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<16>;\n.reg .b64 %rd<4>;\n"
        "ld.param.u64 %rd0, [out];\nmov.b32 %r1, 0x3C003C00;\nmov.b32 %r2, 0x67FF67FF;\n"
        "mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%r3, %r4}, {%r1, %r1}, {%r1}, {%r2, %r2};\n"
        "mov.u32 %r5, %tid.x;\nmul.wide.u32 %rd1, %r5, 4;\nadd.u64 %rd2, %rd0, %rd1;\n"
        "st.global.b32 [%rd2], %r3;\nret;\n}\n";
    Launch l;
    l.block = {32, 1, 1};
    l.args = {tensorArg<uint32_t>("out", "u32", std::vector<uint32_t>(32, 0))};
    auto r = runText(ptx, l);
    if (!r) FAIL(formatDiagnostic(r.error()));
    CHECK(values<uint32_t>(*r, "out")[0] == 0x68046804u); // 2056: 2055 rounded to nearest even
    REQUIRE(r->notes.size() == 1);
    CHECK_THAT(r->notes[0].message, Catch::Contains("rounded") && Catch::Contains("unverified"));
}

TEST_CASE("exec: cp.async groups reach the order model (a read before wait_group is a race)",
          "[exec][xmma]") {
    auto run = [](const std::string& between) {
        const std::string ptx = ".version 8.0\n.target sm_90a\n.address_size 64\n"
                                ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n.reg .b32 %r<16>;\n"
                                ".reg .b64 %rd<16>;\n.shared .align 16 .b8 buf[128];\n"
                                "ld.param.u64 %rd0, [in];\nld.param.u64 %rd1, [out];\nmov.u32 %r0, %tid.x;\n"
                                "mov.u32 %r6, buf;\nmul.wide.u32 %rd2, %r0, 4;\nadd.u64 %rd3, %rd0, %rd2;\n"
                                "shl.b32 %r7, %r0, 2;\nadd.u32 %r8, %r6, %r7;\n"
                                "cp.async.ca.shared.global [%r8], [%rd3], 4;\n" +
                                between +
                                "ld.shared.u32 %r11, [%r8];\nadd.u64 %rd4, %rd1, %rd2;\n"
                                "st.global.u32 [%rd4], %r11;\nret;\n}\n";
        Launch l;
        l.block = {32, 1, 1};
        l.args = {tensorArg<uint32_t>("in", "u32", std::vector<uint32_t>(32, 7)),
                  tensorArg<uint32_t>("out", "u32", std::vector<uint32_t>(32, 0))};
        return runText(ptx, l);
    };
    SECTION("commit_group + wait_group 0 before the read: ordered") {
        auto r = run("cp.async.commit_group;\ncp.async.wait_group 0;\n");
        if (!r) FAIL(formatDiagnostic(r.error()));
        CHECK(values<uint32_t>(*r, "out")[5] == 7);
    }
    SECTION("no wait: the read races with the copy") {
        auto r = run("cp.async.commit_group;\n");
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message, Catch::Contains("race") && Catch::Contains("cp.async"));
    }
}
