// The warp-synchronous data exchanges of the executor (warp_ops.hpp): shfl.sync (PTX ISA 9.2 §9.7.9.6),
// vote.sync (§9.7.13.9), match.sync (§9.7.13.10) and redux.sync (§9.7.13.12). The participating lanes are
// those of the member mask whose guard holds; warpSync stops the run when the mask names a live lane that
// is elsewhere.
#include "exec/warp_ops.hpp"

#include <bit>
#include <cmath>
#include <cstring>

namespace layoutscope::exec {

bool warpSync(Machine& m, Warp& w, const Op& op, uint32_t g, uint32_t member) {
    const uint32_t live = member & w.valid & ~w.exited;
    if ((live & g) != live)
        return m.fail(op, DiagCode::FaultIllegalInstruction,
                      "warp-synchronous instruction executed by lanes " + std::to_string(g) +
                          " (mask) while its member mask " + std::to_string(member) +
                          " names lanes at another instruction (a non-converged warp)");
    return true;
}

bool shfl(Machine& m, Warp& w, const Op& op, uint32_t g, uint32_t exec) {
    // shfl.sync.mode.b32 d[|p], a, b, c, membermask
    std::vector<Opnd> o = op.o;
    Opnd pdst;
    if (op.pairDest && o.size() == 6) pdst = o[1], o.erase(o.begin() + 1);
    if (o.size() != 5) return m.fail(op, DiagCode::Syntax, "shfl.sync needs d[|p], a, b, c, membermask");
    std::array<uint64_t, 32> a{};
    for (int l = 0; l < 32; ++l) a[l] = readOperand(m, w, o[1], l, op.t);
    const uint32_t member = uint32_t(readOperand(m, w, o[4], std::countr_zero(g), {TK::B, 32}));
    if (!warpSync(m, w, op, g, member)) return false;
    for (int l = 0; l < 32; ++l) {
        if (!(exec >> l & 1)) continue;
        const uint32_t b = uint32_t(readOperand(m, w, o[2], l, {TK::B, 32})) & 31;
        const uint32_t c = uint32_t(readOperand(m, w, o[3], l, {TK::B, 32}));
        const uint32_t cval = c & 31, segmask = (c >> 8) & 31;
        const uint32_t maxLane = (l & segmask) | (cval & ~segmask), minLane = l & segmask;
        int j = l;
        bool pval;
        switch (op.mode) {
        case 0:
            j = l - int(b), pval = j >= int(maxLane);
            break;
        case 1:
            j = l + int(b), pval = j <= int(maxLane);
            break;
        case 2:
            j = l ^ int(b), pval = j <= int(maxLane);
            break;
        default:
            j = int(minLane | (b & ~segmask)), pval = j <= int(maxLane);
            break;
        }
        if (!pval) j = l;
        // unverified: reading a lane outside the member mask (or exited) gives an undefined value; the
        // executor returns that lane's register as it is.
        writeOperand(m, w, o[0], l, maskBits(a[j], 32));
        writeOperand(m, w, pdst, l, pval);
    }
    return true;
}

bool vote(Machine& m, Warp& w, const Op& op, uint32_t g, uint32_t exec) {
    const auto& o = op.o;
    if (o.size() != 3) return m.fail(op, DiagCode::Syntax, "vote.sync needs d, {!}a, membermask");
    const uint32_t member = uint32_t(readOperand(m, w, o[2], std::countr_zero(g), {TK::B, 32}));
    if (!warpSync(m, w, op, g, member)) return false;
    uint32_t ballot = 0;
    for (int l = 0; l < 32; ++l)
        if ((exec & member) >> l & 1) ballot |= uint32_t(readOperand(m, w, o[1], l, {TK::Pred, 1}) & 1) << l;
    const uint32_t active = exec & member;
    for (int l = 0; l < 32; ++l) {
        if (!(exec >> l & 1)) continue;
        uint64_t r;
        switch (op.mode) {
        case 0:
            r = (ballot & active) == active;
            break;
        case 1:
            r = ballot != 0;
            break;
        case 2:
            r = ballot == 0 || ballot == active;
            break;
        default:
            r = ballot;
            break;
        }
        writeOperand(m, w, o[0], l, r);
    }
    return true;
}

bool match(Machine& m, Warp& w, const Op& op, uint32_t g, uint32_t exec) {
    // match.any.sync.b32|b64 d, a, membermask;  match.all.sync.b32|b64 d[|p], a, membermask;
    std::vector<Opnd> o = op.o;
    Opnd pdst;
    if (op.pairDest && o.size() == 4) pdst = o[1], o.erase(o.begin() + 1);
    if (o.size() != 3 || (op.pairDest && op.mode == 0))
        return m.fail(op, DiagCode::Syntax,
                      op.mode ? "match.all.sync needs d[|p], a, membermask"
                              : "match.any.sync needs d, a, membermask");
    if (op.t.bits != 32 && op.t.bits != 64)
        return m.fail(op, DiagCode::Syntax, "match.sync takes .b32 or .b64 (PTX ISA 9.2 §9.7.13.10)");
    // Each lane names its own member mask (lanes of two halves may match within their half).
    std::array<uint32_t, 32> member{};
    std::array<uint64_t, 32> a{};
    for (uint32_t x = exec; x; x &= x - 1) {
        const int l = std::countr_zero(x);
        member[l] = uint32_t(readOperand(m, w, o[2], l, {TK::B, 32}));
        if (!warpSync(m, w, op, g, member[l])) return false;
        a[l] = readOperand(m, w, o[1], l, op.t);
    }
    for (uint32_t x = exec; x; x &= x - 1) {
        const int l = std::countr_zero(x);
        const uint32_t part = exec & member[l];
        bool all = true;
        uint32_t d = 0;
        for (uint32_t y = part; y; y &= y - 1) {
            all &= a[std::countr_zero(y)] == a[std::countr_zero(part)];
            if (a[std::countr_zero(y)] == a[l]) d |= 1u << std::countr_zero(y);
        }
        if (op.mode == 1) d = all ? part : 0;
        writeOperand(m, w, o[0], l, d);
        if (op.pairDest) writeOperand(m, w, pdst, l, all);
    }
    return true;
}

namespace {

float asFloat(uint32_t v) {
    float f;
    std::memcpy(&f, &v, 4);
    return f;
}

// redux.sync.min|max{.abs}{.NaN}.f32 (sm_100a) of two values. -0 orders below +0; without .NaN a NaN is
// ignored. unverified: the NaN the hardware returns (canonical 0x7fffffff taken here) and -0 vs +0.
uint32_t fMinMax(uint32_t x, uint32_t y, bool max, bool nan) {
    const bool xn = std::isnan(asFloat(x)), yn = std::isnan(asFloat(y));
    if (xn || yn) return nan ? 0x7FFFFFFFu : xn ? y : x;
    const float a = asFloat(x), b = asFloat(y);
    if (a == b) { // equal values, or +0 and -0: -0 is the smaller
        const bool aNeg = x >> 31, bNeg = y >> 31;
        return (max ? (aNeg && !bNeg) : (!aNeg && bNeg)) ? y : x;
    }
    return (max ? a > b : a < b) ? x : y;
}

} // namespace

bool redux(Machine& m, Warp& w, const Op& op, uint32_t g, uint32_t exec) {
    // redux.sync.op.type d, a, membermask; op add/min/max .u32/.s32, and/or/xor .b32, min/max{.abs}{.NaN}.f32
    const auto& o = op.o;
    if (o.size() != 3) return m.fail(op, DiagCode::Syntax, "redux.sync needs d, a, membermask");
    const bool f32 = op.t.k == TK::F;
    const bool logic = op.atom == AtomOp::And || op.atom == AtomOp::Or || op.atom == AtomOp::Xor;
    const bool ok = op.t.bits == 32 && op.atom != AtomOp::None &&
                    (logic ? op.t.k == TK::B
                     : f32 ? (op.atom == AtomOp::Min || op.atom == AtomOp::Max)
                           : (op.t.k == TK::U || op.t.k == TK::S)) &&
                    (op.mode == 0 || f32);
    if (!ok)
        return m.fail(op, DiagCode::Syntax,
                      "redux.sync takes .add/.min/.max with .u32/.s32, .and/.or/.xor with .b32, or "
                      ".min/.max{.abs}{.NaN} with .f32 (PTX ISA 9.2 §9.7.13.12)");
    std::array<uint32_t, 32> member{}, value{};
    for (uint32_t x = exec; x; x &= x - 1) {
        const int l = std::countr_zero(x);
        member[l] = uint32_t(readOperand(m, w, o[2], l, {TK::B, 32}));
        if (!warpSync(m, w, op, g, member[l])) return false;
        value[l] = uint32_t(readOperand(m, w, o[1], l, {TK::B, 32}));
    }
    // Each lane reduces over the lanes of its own member mask.
    for (uint32_t x = exec; x; x &= x - 1) {
        const int l = std::countr_zero(x);
        const uint32_t part = exec & member[l];
        uint32_t r = 0;
        bool first = true;
        for (uint32_t y = part; y; y &= y - 1) {
            uint32_t v = value[std::countr_zero(y)];
            if (f32 && (op.mode & 1) && !std::isnan(asFloat(v))) v &= 0x7FFFFFFFu; // .abs
            if (first) {
                r = v, first = false;
                continue;
            }
            switch (op.atom) {
            case AtomOp::Add:
                r += v;
                break;
            case AtomOp::And:
                r &= v;
                break;
            case AtomOp::Or:
                r |= v;
                break;
            case AtomOp::Xor:
                r ^= v;
                break;
            default: { // min / max
                const bool max = op.atom == AtomOp::Max;
                if (f32)
                    r = fMinMax(r, v, max, op.mode & 2);
                else if (op.t.k == TK::S)
                    r = (max ? int32_t(v) > int32_t(r) : int32_t(v) < int32_t(r)) ? v : r;
                else
                    r = (max ? v > r : v < r) ? v : r;
            }
            }
        }
        writeOperand(m, w, o[0], l, r);
    }
    return true;
}

} // namespace layoutscope::exec
