// Integer, bit, compare and select instructions over a warp's active lanes (PTX ISA 9.2 §9.7.1
// integer arithmetic, §9.7.4 logic and shift, §9.7.3 comparison and selection, §9.7.9.1 mov).
#include "exec/machine.hpp"

#include <algorithm>
#include <bit>

namespace layoutscope::exec {

namespace {

bool isSigned(Ty t) {
    return t.k == TK::S;
}
int64_t sv(uint64_t v, Ty t) {
    return signExtend(v, t.bits);
}
uint64_t uv(uint64_t v, Ty t) {
    return maskBits(v, t.bits);
}
// The stored form of a result of type t: signed values sign-extended to 64 bits, others masked.
uint64_t store(uint64_t v, Ty t) {
    return isSigned(t) ? static_cast<uint64_t>(sv(v, t)) : uv(v, t);
}

uint64_t mulHi(uint64_t a, uint64_t b, Ty t) {
    if (t.bits < 64) {
        if (isSigned(t)) return static_cast<uint64_t>((sv(a, t) * sv(b, t)) >> t.bits);
        return (uv(a, t) * uv(b, t)) >> t.bits;
    }
    if (isSigned(t)) return static_cast<uint64_t>((Int128(sv(a, t)) * sv(b, t)) >> 64);
    return static_cast<uint64_t>((UInt128(a) * b) >> 64);
}

bool intCompare(Cmp c, uint64_t a, uint64_t b, Ty t) {
    const bool s = isSigned(t);
    const int64_t sa = sv(a, t), sb = sv(b, t);
    const uint64_t ua = uv(a, t), ub = uv(b, t);
    switch (c) {
    case Cmp::Eq:
        return ua == ub;
    case Cmp::Ne:
        return ua != ub;
    case Cmp::Lt:
        return s ? sa < sb : ua < ub;
    case Cmp::Le:
        return s ? sa <= sb : ua <= ub;
    case Cmp::Gt:
        return s ? sa > sb : ua > ub;
    case Cmp::Ge:
        return s ? sa >= sb : ua >= ub;
    case Cmp::Lo:
        return ua < ub;
    case Cmp::Ls:
        return ua <= ub;
    case Cmp::Hi:
        return ua > ub;
    case Cmp::Hs:
        return ua >= ub;
    default:
        return false;
    }
}

uint32_t prmt(uint32_t a, uint32_t b, uint32_t c, uint8_t mode) {
    const uint64_t x = (uint64_t(b) << 32) | a; // bytes 0..7
    auto byte = [&](unsigned i) { return uint32_t((x >> (8 * (i & 7))) & 0xff); };
    uint32_t r = 0;
    if (mode == 0) { // default: each selector nibble picks a byte; bit 3 replicates its sign
        for (int i = 0; i < 4; ++i) {
            const unsigned sel = (c >> (4 * i)) & 0xf;
            uint32_t bt = byte(sel & 7);
            if (sel & 8) bt = (bt & 0x80) ? 0xff : 0;
            r |= bt << (8 * i);
        }
        return r;
    }
    const unsigned s = c & 3;
    static const uint8_t kF4e[4][4] = {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}};
    static const uint8_t kB4e[4][4] = {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}};
    static const uint8_t kRc8[4][4] = {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}};
    static const uint8_t kEcl[4][4] = {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}};
    static const uint8_t kEcr[4][4] = {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}};
    static const uint8_t kRc16[4][4] = {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}};
    const uint8_t(*t)[4] = mode == 1   ? kF4e
                           : mode == 2 ? kB4e
                           : mode == 3 ? kRc8
                           : mode == 4 ? kEcl
                           : mode == 5 ? kEcr
                                       : kRc16;
    for (int i = 0; i < 4; ++i) r |= byte(t[s][i]) << (8 * i);
    return r;
}

uint64_t bfe(uint64_t a, uint32_t pos, uint32_t len, Ty t) {
    const int msb = t.bits - 1;
    pos &= 0xff, len &= 0xff;
    const bool sbit = isSigned(t) && len != 0 &&
                      ((pos + len - 1 > unsigned(msb)) ? ((a >> msb) & 1) : ((a >> (pos + len - 1)) & 1));
    uint64_t r = 0;
    for (int i = 0; i <= msb; ++i) {
        const bool bit = (unsigned(i) < len && pos + i <= unsigned(msb)) ? ((a >> (pos + i)) & 1) : sbit;
        r |= uint64_t(bit) << i;
    }
    return store(r, t);
}

uint64_t bfi(uint64_t a, uint64_t b, uint32_t pos, uint32_t len, Ty t) {
    pos &= 0xff, len &= 0xff;
    uint64_t r = b;
    for (unsigned i = 0; i < len && pos + i < t.bits; ++i)
        r = (r & ~(uint64_t(1) << (pos + i))) | (((a >> i) & 1) << (pos + i));
    return uv(r, t);
}

} // namespace

bool execInteger(Machine& m, Warp& w, const Op& op, uint32_t mask) {
    const Ty t = op.t;
    const auto& o = op.o;
    auto need = [&](size_t n) {
        return o.size() == n ? true
                             : m.fail(op, DiagCode::Syntax, "expects " + std::to_string(n) + " operands");
    };
    switch (op.opc) {
    case Opc::Mov:
        if (!need(2)) return false;
        if (o[0].kind == OK::Vec || o[1].kind == OK::Vec) { // pack / unpack: mov.b64 %rd, {%r1, %r2}
            const Opnd& v = o[0].kind == OK::Vec ? o[0] : o[1];
            const int n = static_cast<int>(v.elems.size());
            const int eb = n ? t.bits / n : 0;
            for (int l = 0; l < 32; ++l) {
                if (!(mask >> l & 1)) continue;
                if (o[0].kind == OK::Vec) {
                    const uint64_t x = readOperand(m, w, o[1], l, t);
                    for (int i = 0; i < n; ++i)
                        writeOperand(m, w, v.elems[i], l, maskBits(x >> (i * eb), eb));
                } else {
                    uint64_t x = 0;
                    for (int i = 0; i < n; ++i)
                        x |= maskBits(readOperand(m, w, v.elems[i], l, {TK::B, uint8_t(eb)}), eb) << (i * eb);
                    writeOperand(m, w, o[0], l, x);
                }
            }
            return true;
        }
        for (int l = 0; l < 32; ++l)
            if (mask >> l & 1) writeOperand(m, w, o[0], l, readOperand(m, w, o[1], l, t));
        return true;
    case Opc::Setp: {
        // setp.cmp.type p[|q], a, b[, {!}c]; with `p|q`, q receives the complement.
        const size_t k = op.pairDest ? 1 : 0;
        if (o.size() < 3 + k) return need(3 + k);
        const Opnd& a = o[1 + k];
        const Opnd& b = o[2 + k];
        for (int l = 0; l < 32; ++l) {
            if (!(mask >> l & 1)) continue;
            const uint64_t x = readOperand(m, w, a, l, t), y = readOperand(m, w, b, l, t);
            bool r = t.isFloat() || t.k == TK::F16x2 ? compareFloat(op.cmp, toDouble(x, t), toDouble(y, t))
                                                     : intCompare(op.cmp, x, y, t);
            bool q = !r;
            if (op.boolOp) {
                if (o.size() < 4 + k)
                    return m.fail(op, DiagCode::Syntax, "setp with .and/.or/.xor needs a 4th operand");
                const bool c =
                    readOperand(m, w, o[3 + k], l, {TK::Pred, 1}) & 1; // `!c` applied by readOperand
                q = op.boolOp == 1 ? (q && c) : op.boolOp == 2 ? (q || c) : (q != c);
                r = op.boolOp == 1 ? (r && c) : op.boolOp == 2 ? (r || c) : (r != c);
            }
            writeOperand(m, w, o[0], l, r);
            if (k) writeOperand(m, w, o[1], l, q);
        }
        return true;
    }
    default:
        break;
    }
    // Everything else: d, a[, b[, c[, e]]].
    if (o.empty()) return m.fail(op, DiagCode::Syntax, "missing operands");
    const Ty wideT{t.k, uint8_t(t.bits * 2)};
    for (int l = 0; l < 32; ++l) {
        if (!(mask >> l & 1)) continue;
        auto in = [&](size_t i, Ty tt) { return i < o.size() ? readOperand(m, w, o[i], l, tt) : 0; };
        const uint64_t a = in(1, t), b = in(2, t);
        uint64_t r = 0;
        Ty rt = t;
        switch (op.opc) {
        case Opc::Add:
            r = a + b;
            break;
        case Opc::Sub:
            r = a - b;
            break;
        case Opc::AddCC:
            r = uv(a, t) + uv(b, t), w.carry = (w.carry & ~(1u << l)) | uint32_t((r >> t.bits) & 1) << l;
            break;
        case Opc::AddC: {
            const uint64_t ci = (w.carry >> l) & 1;
            r = uv(a, t) + uv(b, t) + ci;
            if (op.cc) w.carry = (w.carry & ~(1u << l)) | uint32_t((r >> t.bits) & 1) << l;
            break;
        }
        case Opc::SubCC:
            r = uv(a, t) - uv(b, t), w.carry = (w.carry & ~(1u << l)) | uint32_t(uv(a, t) < uv(b, t)) << l;
            break;
        case Opc::SubC: {
            const uint64_t bi = (w.carry >> l) & 1;
            r = uv(a, t) - uv(b, t) - bi;
            if (op.cc) w.carry = (w.carry & ~(1u << l)) | uint32_t(uv(a, t) < uv(b, t) + bi) << l;
            break;
        }
        case Opc::Mul:
        case Opc::Mad:
            if (op.mode == 2) {
                r = isSigned(t) ? static_cast<uint64_t>(sv(a, t) * sv(b, t)) : uv(a, t) * uv(b, t);
                rt = wideT;
            } else {
                r = op.mode == 1 ? mulHi(a, b, t) : a * b;
            }
            if (op.opc == Opc::Mad) r += in(3, rt);
            if (op.sat && op.opc == Opc::Mad && isSigned(t)) { // mad.hi.sat.s32
                const int64_t x = sv(mulHi(a, b, t), t) + sv(in(3, t), t);
                r = static_cast<uint64_t>(std::clamp<int64_t>(x, INT32_MIN, INT32_MAX));
            }
            break;
        case Opc::Mul24:
        case Opc::Mad24: {
            const uint64_t a24 = isSigned(t) ? uint64_t(signExtend(a, 24)) : maskBits(a, 24);
            const uint64_t b24 = isSigned(t) ? uint64_t(signExtend(b, 24)) : maskBits(b, 24);
            const uint64_t p = isSigned(t) ? uint64_t(int64_t(a24) * int64_t(b24)) : a24 * b24;
            r = op.mode == 1 ? (p >> 16) : p;
            if (op.opc == Opc::Mad24) r += in(3, t);
            break;
        }
        case Opc::Div:
        case Opc::Rem:
            if (uv(b, t) == 0) { // unverified: hardware returns an unspecified value, no fault
                r = op.opc == Opc::Div ? ~uint64_t(0) : a;
            } else if (isSigned(t)) {
                const int64_t x = sv(a, t), y = sv(b, t);
                if (y == -1)
                    r = op.opc == Opc::Div ? uint64_t(0) - uint64_t(x) : 0;
                else
                    r = static_cast<uint64_t>(op.opc == Opc::Div ? x / y : x % y);
            } else {
                r = op.opc == Opc::Div ? uv(a, t) / uv(b, t) : uv(a, t) % uv(b, t);
            }
            break;
        case Opc::Abs:
            r = sv(a, t) < 0 ? uint64_t(0) - a : a;
            break;
        case Opc::Neg:
            r = uint64_t(0) - a;
            break;
        case Opc::Min:
            r = isSigned(t) ? (sv(a, t) < sv(b, t) ? a : b) : (uv(a, t) < uv(b, t) ? a : b);
            break;
        case Opc::Max:
            r = isSigned(t) ? (sv(a, t) > sv(b, t) ? a : b) : (uv(a, t) > uv(b, t) ? a : b);
            break;
        case Opc::And:
            r = a & b;
            break;
        case Opc::Or:
            r = a | b;
            break;
        case Opc::Xor:
            r = a ^ b;
            break;
        case Opc::Not:
            r = t.k == TK::Pred ? !(a & 1) : ~a;
            break;
        case Opc::Cnot:
            r = uv(a, t) == 0;
            break;
        case Opc::Shl: {
            const uint64_t s = maskBits(in(2, {TK::U, 32}), 32);
            r = s >= t.bits ? 0 : a << s;
            break;
        }
        case Opc::Shr: {
            const uint64_t s = maskBits(in(2, {TK::U, 32}), 32);
            if (isSigned(t))
                r = static_cast<uint64_t>(sv(a, t) >> std::min<uint64_t>(s, t.bits - 1));
            else
                r = s >= t.bits ? 0 : uv(a, t) >> s;
            break;
        }
        case Opc::Bfe:
            r = bfe(a, uint32_t(in(2, {TK::U, 32})), uint32_t(in(3, {TK::U, 32})), t);
            break;
        case Opc::Bfi:
            r = bfi(a, b, uint32_t(in(3, {TK::U, 32})), uint32_t(in(4, {TK::U, 32})), t);
            break;
        case Opc::Prmt:
            r = prmt(uint32_t(a), uint32_t(b), uint32_t(in(3, t)), op.mode);
            break;
        case Opc::Popc:
            r = std::popcount(uv(a, t)), rt = {TK::U, 32};
            break;
        case Opc::Clz:
            r = std::countl_zero(uv(a, t)) - (64 - t.bits), rt = {TK::U, 32};
            break;
        case Opc::Brev: {
            uint64_t x = uv(a, t), y = 0;
            for (int i = 0; i < t.bits; ++i) y |= ((x >> i) & 1) << (t.bits - 1 - i);
            r = y;
            break;
        }
        case Opc::Bfind: {
            uint64_t x = uv(a, t);
            if (isSigned(t) && sv(a, t) < 0) x = uv(~x, t);
            int pos = x ? 63 - std::countl_zero(x) : -1;
            if (pos >= 0 && op.mode == 1) pos = t.bits - 1 - pos;
            r = pos < 0 ? 0xffffffffu : uint32_t(pos);
            rt = {TK::U, 32};
            break;
        }
        case Opc::Selp:
            r = (in(3, {TK::Pred, 1}) & 1) ? a : b;
            break;
        case Opc::Slct: {
            const uint64_t c = in(3, op.t2);
            const bool ge = op.t2.k == TK::F ? toDouble(c, op.t2) >= 0.0 : sv(c, op.t2) >= 0;
            r = ge ? a : b;
            break;
        }
        default:
            return m.fail(op, DiagCode::Unsupported, "the executor has no integer form of this instruction");
        }
        if (op.sat && isSigned(t) && t.bits == 32 && (op.opc == Opc::Add || op.opc == Opc::Sub)) {
            const int64_t x = op.opc == Opc::Add ? sv(a, t) + sv(b, t) : sv(a, t) - sv(b, t);
            r = static_cast<uint64_t>(std::clamp<int64_t>(x, INT32_MIN, INT32_MAX));
        }
        writeOperand(m, w, o[0], l, t.k == TK::Pred ? (r & 1) : store(r, rt));
    }
    return true;
}

} // namespace layoutscope::exec
