// Element formats and register fragments of the matrix instructions. Fragments: PTX ISA 9.2 §9.7.14.5.8
// (mma.m16n8k4/k8/k16/k32/k64/k128/k256 and m8n8k16/k32/k128 figures: groupID g = lane / 4, threadID_in_group
// t = lane % 4) and §9.7.15.5.1 (wgmma register fragments: warp w of the warpgroup holds rows 16w..16w+15,
// each 16-row slab laid out as the m16n8 figures, the D columns repeating every 8). CuTe states the same
// layouts independently (cute/atom/mma_traits_sm80.hpp SM80_16x8_Row, mma_traits_sm90_gmma.hpp CLayout_64xN /
// ALayout_64x*).
#include "exec/mma_exec.hpp"

#include "core/wgmma_fragment.hpp"

#include <algorithm>
#include <cmath>

namespace layoutscope::exec {

namespace {

// An 8-bit float with `man` significand bits and exponent bias `bias`.
long double minifloat(uint32_t v, int man, int bias, bool ieeeSpecials) {
    const bool neg = v & 0x80;
    const uint32_t e = (v >> man) & ((1u << (7 - man)) - 1), f = v & ((1u << man) - 1);
    const uint32_t eMax = (1u << (7 - man)) - 1;
    long double r;
    if (ieeeSpecials && e == eMax)
        r = f ? NAN : INFINITY;
    else if (!ieeeSpecials && e == eMax && f == (1u << man) - 1)
        r = NAN; // e4m3: S.1111.111 is the only NaN, no infinities
    else if (e == 0)
        r = std::ldexp((long double)f, 1 - bias - man);
    else
        r = std::ldexp((long double)(f | (1u << man)), int(e) - bias - man);
    return neg ? -r : r;
}

} // namespace

long double meValue(uint64_t bits, ME e) {
    switch (e) {
    case ME::F16:
        return toDouble(bits & 0xffff, {TK::F16, 16});
    case ME::BF16:
        return toDouble(bits & 0xffff, {TK::BF16, 16});
    case ME::TF32: // unverified: the low 13 significand bits are ignored (truncated), not rounded
        return toDouble(bits & 0xffffe000u, {TK::F, 32});
    case ME::F32:
        return toDouble(bits & 0xffffffffu, {TK::F, 32});
    case ME::F64:
        return toDouble(bits, {TK::F, 64});
    case ME::E4M3:
        return minifloat(uint32_t(bits & 0xff), 3, 7, false);
    case ME::E5M2:
        return minifloat(uint32_t(bits & 0xff), 2, 15, true);
    case ME::S8:
        return (long double)signExtend(bits, 8);
    case ME::U8:
        return (long double)(bits & 0xff);
    case ME::S32:
        return (long double)signExtend(bits, 32);
    case ME::S4:
        return (long double)signExtend(bits, 4);
    case ME::U4:
        return (long double)(bits & 0xf);
    case ME::B1:
        return (long double)(bits & 1);
    case ME::None:
        break;
    }
    return 0;
}

uint64_t meStore(long double v, ME e, bool satfinite) {
    switch (e) {
    case ME::F16:
        return fromLongDouble(v, {TK::F16, 16}, Rnd::Rn, false);
    case ME::F32:
        return fromLongDouble(v, {TK::F, 32}, Rnd::Rn, false);
    case ME::F64:
        return fromLongDouble(v, {TK::F, 64}, Rnd::Rn, false);
    case ME::S32: {
        if (satfinite) return uint64_t(uint32_t(int32_t(std::clamp(v, -2147483648.0L, 2147483647.0L))));
        const long double w = std::fmod(v, 4294967296.0L); // wraps modulo 2^32
        return uint64_t(uint32_t(int64_t(w)));
    }
    default:
        return 0;
    }
}

uint64_t meStoreNoted(Machine& m, const Op& op, long double v, ME e, bool satfinite) {
    const uint64_t bits = meStore(v, e, satfinite);
    if (meValue(bits, e) == v || std::isnan(v) || m.notes.size() >= 16) return bits;
    for (const Diagnostic& d : m.notes)
        if (d.span.line == op.line && d.message.find("rounded") != std::string::npos) return bits;
    m.notes.push_back({Severity::Warning,
                       DiagCode::Unsupported,
                       {op.line, op.column, 1},
                       "`" + op.text.substr(0, op.text.find('\n')) +
                           "`: the exact sum of products was rounded to the accumulator (unverified: the "
                           "hardware's accumulation order and internal precision may give other last bits; "
                           "integer-valued inputs whose sums fit the accumulator are exact)",
                       kExecRef,
                       Provenance::Assumption});
    return bits;
}

uint32_t fragCount(const MmaForm& f, char which) {
    if (which == 'C' || which == 'D') return uint32_t(f.m) * f.n / 32;
    const uint32_t elems = which == 'A' ? uint32_t(f.m) * f.k : uint32_t(f.k) * f.n;
    return elems / 32 / (f.m == 64 ? 4 : 1); // wgmma A: per warp a 16-row slab
}

FragElem mmaFrag(const MmaForm& f, char which, uint32_t lane, uint32_t i) {
    const uint32_t g = lane / 4, t = lane % 4;
    const ME e = which == 'A' ? f.a : which == 'B' ? f.b : which == 'C' ? f.c : f.d;
    const uint32_t bits = meBits(e), perReg = bits >= 32 ? 1 : 32 / bits;
    FragElem r;
    r.reg = i / perReg, r.shift = (i % perReg) * bits;
    if (which == 'C' || which == 'D') {
        if (f.m == 8) // m8n8k4 f64: row g, columns 2t, 2t+1
            r.row = g, r.col = 2 * t + i;
        else // m16n8 (and each 16x8 block of wgmma D)
            r.row = g + 8 * ((i / 2) % 2), r.col = 2 * t + i % 2 + 8 * (i / 4);
        return r;
    }
    if (f.a == ME::F64) { // m8n8k4: A (g, t), B (k t, n g)
        r.row = which == 'A' ? g : t, r.col = which == 'A' ? t : g;
        return r;
    }
    // Integer, FP8 and .b1 operands: P = 32 / bits elements per register, K = 4P (one register per row
    // half: m16n8k16 8-bit, k32 4-bit, k128 .b1; m8n8: one row) or 8P (k32 8-bit, k64 4-bit, k256 .b1:
    // registers alternate rows g / g + 8, then the second K half).
    const uint32_t P = bits <= 8 ? 32 / bits : 0;
    if (which == 'A') {
        if (bits == 16 && f.k == 16)
            r.row = g + 8 * ((i / 2) % 2), r.col = 2 * t + i % 2 + 8 * (i / 4);
        else if (bits == 16)
            r.row = g + 8 * (i / 2), r.col = 2 * t + i % 2; // k8
        else if (bits == 32 && f.k == 8)
            r.row = g + 8 * (i % 2), r.col = t + 4 * (i / 2); // tf32 k8
        else if (bits == 32)
            r.row = g + 8 * i, r.col = t; // tf32 k4
        else if (f.m == 8)
            r.row = g, r.col = P * t + i; // m8n8k16 8-bit, k32 4-bit, k128 .b1
        else if (f.k == 8 * P)
            r.row = g + 8 * ((i / P) % 2), r.col = P * t + i % P + 4 * P * (i / (2 * P));
        else
            r.row = g + 8 * (i / P), r.col = P * t + i % P; // K = 4P
        return r;
    }
    // B (k, n), n = g. The K of mma.sp (f16 k32, tf32 k16, 8-bit k64) continues the pattern of the dense
    // K below it (the ISA gives those B layouts as figures only; the H200 records of scripts/probes/mma_sp
    // and mma_dense, ctests exec.h100.mma_sp and exec.h200.mma_dense, agree for every form run).
    r.col = g;
    if (bits == 16 && f.k >= 16)
        r.row = 2 * t + i % 2 + 8 * (i / 2);
    else if (bits == 16)
        r.row = 2 * t + i;
    else if (bits == 32 && f.k >= 8)
        r.row = t + 4 * i;
    else if (bits == 32)
        r.row = t;
    else if (f.k >= 8 * P)
        r.row = P * t + i % P + 4 * P * (i / P);
    else
        r.row = P * t + i; // K = 4P, and the m8n8 forms
    return r;
}

FragElem wgmmaD(const MmaForm& f, uint32_t warpInGroup, uint32_t lane, uint32_t i) {
    // The fragment formula shared with the scenario run (core/wgmma_fragment.hpp).
    const WgmmaDSlot s = wgmmaDSlot(warpInGroup, lane, i, meBits(f.d));
    return FragElem{s.reg, s.shift, s.row, s.col};
}

} // namespace layoutscope::exec
