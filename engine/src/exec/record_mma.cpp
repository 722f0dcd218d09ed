// The recorder's tcgen05 and wgmma statements (record.hpp): the instruction as written, its operands made
// concrete (Tensor Memory addresses and descriptors as `let` names, registers renumbered from 0, as the
// scenario's register model names them).
#include "exec/record.hpp"
#include "exec/tcgen05_state.hpp"
#include "layoutscope/tcgen05/umma.hpp"

#include <algorithm>
#include <bit>

namespace layoutscope::exec {
namespace {

std::string regList(const char* prefix, size_t n) {
    std::string s = "{";
    for (size_t i = 0; i < n; ++i) s += (i ? ", %" : "%") + std::string(prefix) + std::to_string(i);
    return s + "}";
}

std::string tmemRef(Machine& m, uint64_t taddr) {
    return "[" + letName(m, "tm", taddr) + "]";
}

} // namespace

void recordTcgen05(Machine& m, Warp& w, const Op& op, uint32_t exec) {
    if (!m.rec || !exec || m.rec->truncated) return;
    const Tc t = static_cast<Tc>(op.mode);
    const std::string opc = opcodeOf(op);
    const int first = std::countr_zero(exec);
    auto one = [&](int lane, const std::string& operands) {
        recordOrigin(m, w, op, lane);
        recordStatement(m, opc + (operands.empty() ? "" : " " + operands) + ";");
    };
    // .cta_group::2 alloc / dealloc: both CTAs of the pair execute it and it takes effect once (the even
    // CTA's, tcgen05_exec.cpp), as the scenario's single instruction does for the pair.
    if ((t == Tc::Alloc || t == Tc::Dealloc) && op.boolOp == 2 && (w.cta & 1)) return;
    switch (t) {
    case Tc::Alloc: {
        uint32_t cta = w.cta;
        uint64_t off = 0;
        if (!splitShared(m, w, false, tcgenAddress(m, w, op.o[0], first), cta, off).empty()) return;
        return one(first, "[" + smemRef(cta, off) + "], " +
                              std::to_string(uint32_t(readOperand(m, w, op.o[1], first, {TK::U, 32}))));
    }
    case Tc::Dealloc:
        return one(first, letName(m, "tm", uint32_t(readOperand(m, w, op.o[0], first, {TK::B, 32}))) + ", " +
                              std::to_string(uint32_t(readOperand(m, w, op.o[1], first, {TK::U, 32}))));
    case Tc::Relinquish:
        return one(first, "");
    case Tc::Ld: {
        if (opc.find(".red") != std::string::npos)
            return recordNote(
                m, "tcgen05.ld.red (its reduction results are registers the scenario does not model)");
        const Opnd& vec = op.o[0];
        std::string s =
            regList("r", vec.elems.size()) + ", " + tmemRef(m, uint32_t(tcgenAddress(m, w, op.o[1], first)));
        if (op.o.size() > 2) s += ", " + std::to_string(readOperand(m, w, op.o[2], first, {TK::U, 32}));
        return one(first, s);
    }
    case Tc::St: { // the warp's registers as a `poke regs`, then the store from r0..r(n-1)
        const Opnd& vec = op.o.back();
        const size_t n = vec.elems.size();
        if (!recordFits(m, 2 * 128 * n + 512, true)) return;
        static const char* digits = "0123456789abcdef";
        std::string line =
            "poke regs cta=" + std::to_string(w.cta) + " warp=" + std::to_string(w.firstThread / 32) + " 0=";
        line.reserve(line.size() + 2 * 128 * n);
        for (int l = 0; l < 32; ++l)
            for (size_t j = 0; j < n; ++j) {
                const uint32_t v =
                    (exec >> l & 1) ? uint32_t(readOperand(m, w, vec.elems[j], l, {TK::B, 32})) : 0;
                for (int b = 0; b < 4; ++b)
                    line += digits[v >> (8 * b + 4) & 15], line += digits[v >> 8 * b & 15];
            }
        recordOrigin(m, w, op, first);
        recordStatement(m, line);
        std::string s = tmemRef(m, uint32_t(tcgenAddress(m, w, op.o[0], first)));
        if (op.o.size() > 2) s += ", " + std::to_string(readOperand(m, w, op.o[1], first, {TK::U, 32}));
        return one(first, s + ", " + regList("r", n));
    }
    case Tc::WaitLd:
    case Tc::WaitSt:
    case Tc::Fence:
    case Tc::Commit: // ordering only: the executor's order model judged it
        return;
    case Tc::Mma:
    case Tc::Cp:
    case Tc::Shift:
        break;
    }
    for (uint32_t x = exec; x; x &= x - 1) {
        const int l = std::countr_zero(x);
        const std::string d = tmemRef(m, uint32_t(tcgenAddress(m, w, op.o[0], l)));
        if (t == Tc::Shift) {
            one(l, d);
            continue;
        }
        if (t == Tc::Cp) {
            one(l, d + ", " + letName(m, "desc", readOperand(m, w, op.o[1], l, {TK::B, 64})));
            continue;
        }
        const UmmaKind kind = static_cast<UmmaKind>(op.vec);
        const bool scaled = ummaKindBlockScaled(kind), ws = op.async & kMmaWs, sp = op.async & kMmaSp;
        const size_t at = mmaIdescOperand(op); // idesc (after [sp-meta-tmem] for .sp)
        const std::string a = op.o[1].kind == OK::Mem
                                  ? tmemRef(m, uint32_t(tcgenAddress(m, w, op.o[1], l)))
                                  : letName(m, "desc", readOperand(m, w, op.o[1], l, {TK::B, 64}));
        std::string s = d + ", " + a + ", " + letName(m, "desc", readOperand(m, w, op.o[2], l, {TK::B, 64}));
        if (sp) s += ", " + tmemRef(m, uint32_t(tcgenAddress(m, w, op.o[3], l))); // [sp-meta-tmem]
        s += ", " + letName(m, "idesc", uint32_t(readOperand(m, w, op.o[at], l, {TK::B, 32})));
        const bool mask = !scaled && !ws && op.o.size() > at + 1 && op.o[at + 1].kind == OK::Vec;
        if (scaled)
            s += ", " + tmemRef(m, uint32_t(tcgenAddress(m, w, op.o[4], l))) + ", " +
                 tmemRef(m, uint32_t(tcgenAddress(m, w, op.o[5], l)));
        const size_t en = scaled ? 6 : mask ? at + 2 : at + 1;
        if (en >= op.o.size()) continue;
        s += ", " + letName(m, "en", readOperand(m, w, op.o[en], l, {TK::Pred, 1}) & 1);
        if (opc.find(".collector::a") != std::string::npos || opc.find(".ashift") != std::string::npos) {
            recordNote(m, "tcgen05.mma with .collector::a or .ashift (the scenario has no such form)");
            continue;
        }
        if (ws && (op.async & kMmaZeroColumnMask)) // .ws: zero-column-mask-desc, the scenario's last operand
            s += ", " + letName(m, "zcm", readOperand(m, w, op.o[at + 2], l, {TK::B, 64}));
        if (mask && std::any_of(op.o[at + 1].elems.begin(), op.o[at + 1].elems.end(), [&](const Opnd& r) {
                return uint32_t(readOperand(m, w, r, l, {TK::B, 32})) != 0;
            })) { // h/xcomp: the scenario's tcgen05.mma has no mask; its lanes would be written
            recordNote(m, "tcgen05.mma with a non-zero disable-output-lane mask");
            continue;
        }
        one(l, s); // a zero disable-output-lane mask is left out
    }
}

void recordWgmma(Machine& m, Warp& w, const Op& op, uint32_t exec) {
    if (!m.rec || !exec || (w.firstThread / 32) % 4 != 0) return;
    const std::pair<uint32_t, uint32_t> group{w.cta, w.firstThread / 128};
    m.rec->wgmmaStatement.erase(group); // none until this one is written (orderWgmma)
    if (m.rec->truncated) return;
    const std::string opc = opcodeOf(op);
    // wgmma.mma_async.sync.aligned.m64nNk16.dtype.f16|bf16.f16|bf16 with both operands from descriptors.
    const size_t shape = opc.find(".m64n");
    if (op.o.size() != 8 || op.o[1].kind == OK::Vec || shape == std::string::npos ||
        (opc.find(".f16.f16", shape) == std::string::npos &&
         opc.find(".bf16.bf16", shape) == std::string::npos))
        return recordNote(m, "wgmma.mma_async other than the .f16/.bf16 forms with A and B in shared memory");
    m.rec->wgmmaStatement[group] = m.rec->statements; // the statement written below
    const int l = std::countr_zero(exec);
    recordOrigin(m, w, op, l);
    const std::string s = regList("f", op.o[0].elems.size()) + ", " +
                          letName(m, "desc", readOperand(m, w, op.o[1], l, {TK::B, 64})) + ", " +
                          letName(m, "desc", readOperand(m, w, op.o[2], l, {TK::B, 64})) + ", " +
                          letName(m, "en", readOperand(m, w, op.o[3], l, {TK::Pred, 1}) & 1);
    std::string imms;
    for (size_t i = 4; i < 8; ++i)
        imms += ", " + std::to_string(int64_t(readOperand(m, w, op.o[i], l, {TK::S, 32})));
    recordStatement(m, opc + " " + s + imms + ";");
}

} // namespace layoutscope::exec
