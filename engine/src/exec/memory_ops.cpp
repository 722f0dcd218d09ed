// ld / st / atom / red / cvta over a warp's active lanes (PTX ISA 9.2 §9.7.9.7 cvta, §9.7.9.8 ld,
// §9.7.9.10 st, §9.7.13.5 atom, §9.7.13.6 red). Lanes run in ascending lane order, so atomics of one
// warp apply in lane order (deterministic; the hardware order is unspecified).
#include "exec/fp_round.hpp"
#include "exec/machine.hpp"

#include <cmath>
#include <cstring>

namespace layoutscope::exec {

namespace {

uint64_t addressOf(Machine& m, Warp& w, const Opnd& o, int lane) {
    uint64_t a = static_cast<uint64_t>(o.imm);
    if (o.hasBase) a += m.reg(w, o.reg, lane);
    if (o.sym >= 0) a += symbolAddress(m, m.p.symbols[o.sym], w, lane);
    return a;
}

uint64_t loadBytes(const uint8_t* p, int n) {
    uint64_t v = 0;
    std::memcpy(&v, p, n);
    return v;
}

uint64_t extend(uint64_t v, Ty t) {
    return t.k == TK::S ? static_cast<uint64_t>(signExtend(v, t.bits)) : maskBits(v, t.bits);
}

double asDouble(uint64_t v, int bits) {
    if (bits == 64) {
        double d;
        std::memcpy(&d, &v, 8);
        return d;
    }
    float f;
    const uint32_t b = static_cast<uint32_t>(v);
    std::memcpy(&f, &b, 4);
    return f;
}
uint64_t fromDouble(double d, int bits) {
    uint64_t v = 0;
    if (bits == 64)
        std::memcpy(&v, &d, 8);
    else {
        const float f = static_cast<float>(d);
        std::memcpy(&v, &f, 4);
    }
    return v;
}

/// `atom/red.add.noftz` of one f16 or bf16 (PTX ISA 9.2 §9.7.13.5: rounds to nearest even, keeps subnormal
/// inputs and results: `.noftz`). A NaN gives the canonical NaN 0x7fff, as the H200 record
/// tests/data/exec/atom_shared_h100.jsonl shows (exec_atom_shared_h100_test).
uint64_t addHalf(uint64_t x, uint64_t y, FpFormat f) {
    const long double a = fromBits(x & 0xffff, f), b = fromBits(y & 0xffff, f);
    const long double sum = a + b; // exact: two 11-bit (8-bit) significands fit a long double's 64 bits
    if (std::isnan(sum)) return canonicalNaN(f);
    return roundTo(sum, f, Rnd::Rn) & 0xffff;
}

uint64_t atomApply(const Op& op, uint64_t old, uint64_t b, uint64_t c, bool& ok) {
    const Ty t = op.t;
    ok = true;
    if (t.k == TK::F16 || t.k == TK::BF16 || t.k == TK::F16x2 || t.k == TK::BF16x2) {
        // .add.noftz only (the validator's table, rules_atom_shared.cpp); .x2: each 16-bit half alone.
        if (op.atom != AtomOp::Add) {
            ok = false;
            return old;
        }
        const FpFormat f = formatOf(t);
        const uint64_t lo = addHalf(old, b, f);
        if (t.bits == 16) return lo;
        return lo | addHalf(old >> 16, b >> 16, f) << 16;
    }
    if (t.k == TK::F) {
        if (op.atom == AtomOp::Add && t.bits == 32) { // one float add, rounded to nearest even
            // A NaN result is the canonical 0x7fffffff, whatever the inputs' payloads: the H200 record
            // tests/data/exec/atom_shared_h100.jsonl (0x7fc00001 + 1 and 0x7f800001 + 1 both give it).
            const float sum = static_cast<float>(asDouble(old, 32)) + static_cast<float>(asDouble(b, 32));
            return std::isnan(sum) ? 0x7fffffffu : fromDouble(sum, 32);
        }
        if (op.atom == AtomOp::Add) return fromDouble(asDouble(old, t.bits) + asDouble(b, t.bits), t.bits);
        if (op.atom == AtomOp::Exch) return b;
        if (op.atom == AtomOp::Min || op.atom == AtomOp::Max) {
            const double x = asDouble(old, t.bits), y = asDouble(b, t.bits);
            return fromDouble(op.atom == AtomOp::Min ? std::fmin(x, y) : std::fmax(x, y), t.bits);
        }
        ok = false;
        return old;
    }
    const bool s = t.k == TK::S;
    const int64_t so = signExtend(old, t.bits), sb = signExtend(b, t.bits);
    const uint64_t uo = maskBits(old, t.bits), ub = maskBits(b, t.bits);
    switch (op.atom) {
    case AtomOp::Add:
        return old + b;
    case AtomOp::Min:
        return s ? (so < sb ? old : b) : (uo < ub ? old : b);
    case AtomOp::Max:
        return s ? (so > sb ? old : b) : (uo > ub ? old : b);
    case AtomOp::Exch:
        return b;
    case AtomOp::Cas:
        return uo == ub ? c : old;
    case AtomOp::And:
        return old & b;
    case AtomOp::Or:
        return old | b;
    case AtomOp::Xor:
        return old ^ b;
    case AtomOp::Inc:
        return uo >= ub ? 0 : uo + 1;
    case AtomOp::Dec:
        return (uo == 0 || uo > ub) ? ub : uo - 1;
    default:
        ok = false;
        return old;
    }
}

} // namespace

bool execMemory(Machine& m, Warp& w, const Op& op, uint32_t mask) {
    const auto& o = op.o;
    if (op.opc == Opc::Cvta) {
        if (o.size() != 2) return m.fail(op, DiagCode::Syntax, "cvta needs 2 operands");
        const Space sp = op.space;
        uint64_t base = 0;
        if (sp == Space::Shared || sp == Space::SharedCluster)
            base = kSharedWindow;
        else if (sp == Space::Local)
            base = kLocalWindow;
        else if (sp == Space::Const)
            base = kConstBase;
        else if (sp == Space::Param) // PTX ISA 9.2 §9.7.9.7: cvta.param (kernel parameters, sm_70+)
            base = kParamWindow;
        else if (sp != Space::Global)
            return m.fail(op, DiagCode::Unsupported, "cvta of this state space is not modelled");
        for (int l = 0; l < 32; ++l)
            if (mask >> l & 1) {
                const uint64_t a = readOperand(m, w, o[1], l, op.t);
                writeOperand(m, w, o[0], l, maskBits(op.toGeneric ? a + base : a - base, op.t.bits));
            }
        return true;
    }
    const bool isLoad = op.opc == Opc::Ld, isStore = op.opc == Opc::St;
    const int addrIdx = isStore || op.opc == Opc::Red ? 0 : 1;
    if (int(o.size()) <= addrIdx + (isLoad ? 0 : 1) || o[addrIdx].kind != OK::Mem)
        return m.fail(op, DiagCode::Syntax, "expects an address operand `[...]`");
    const int eb = std::max(1, op.t.bits / 8);
    if (op.t.k == TK::Pred || op.t.k == TK::None) return m.fail(op, DiagCode::Syntax, "needs a data type");
    const Opnd& data = o[isLoad ? 0 : isStore ? 1 : 0];
    const int n = isLoad || isStore ? op.vec : 1;
    if (n > 1 && (data.kind != OK::Vec || int(data.elems.size()) != n))
        return m.fail(op, DiagCode::Syntax,
                      "a .v" + std::to_string(n) + " access needs a {...} of " + std::to_string(n) +
                          " registers");
    for (int l = 0; l < 32; ++l) {
        if (!(mask >> l & 1)) continue;
        const uint64_t a = addressOf(m, w, o[addrIdx], l);
        uint8_t* p = resolve(m, w, op, op.space, a, uint64_t(eb) * n, l, !isLoad);
        if (!p) return false;
        if (isLoad) {
            for (int i = 0; i < n; ++i) {
                const uint64_t v = extend(loadBytes(p + i * eb, eb), op.t);
                writeOperand(m, w, n > 1 ? data.elems[i] : data, l, v);
            }
        } else if (isStore) {
            for (int i = 0; i < n; ++i) {
                const uint64_t v = readOperand(m, w, n > 1 ? data.elems[i] : data, l, op.t);
                std::memcpy(p + i * eb, &v, eb);
            }
        } else { // atom d, [a], b{, c} / red [a], b
            const bool red = op.opc == Opc::Red;
            const uint64_t b = readOperand(m, w, o[red ? 1 : 2], l, op.t);
            const uint64_t c = o.size() > 3 && !red ? readOperand(m, w, o[3], l, op.t) : 0;
            const uint64_t old = loadBytes(p, eb);
            bool ok = true;
            const uint64_t nv = atomApply(op, old, b, c, ok);
            if (!ok)
                return m.fail(op, DiagCode::Unsupported, "this atomic operation and type are not modelled");
            std::memcpy(p, &nv, eb);
            if (!red) writeOperand(m, w, o[0], l, extend(old, op.t));
        }
    }
    return true;
}

} // namespace layoutscope::exec
