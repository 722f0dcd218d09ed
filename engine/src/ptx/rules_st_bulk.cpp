// st.bulk (PTX ISA 9.0 §9.7.9.11), as CUDA 13.0 ptxas decides it (tests/data/ptxas_front/async_st.jsonl.gz,
// scripts/ptxas-diff/gen_async_st_cases.py):
//
//   st.bulk{.weak}{.shared::cta} [a], size, initval;        sm_100 and later, PTX 8.6
//
// size: a 64-bit register or an integer constant, a multiple of 8 in [0, 16777216]; initval: the constant
// 0 (written `0`, `00`, `0x0`). Qualifier order is free. Without `.shared::cta` the address is generic
// (a 32- or 64-bit register or any variable); with it a register (ptxas 13.0 rejects `[smem]` there:
// "Argument 1 of instruction 'add': must be register"). `.shared` is refused ("expected '.shared::cta'").
// The executor does not run st.bulk: a run stops at the instruction, naming its line.
#include "ptx/rules_shared_access.hpp"

namespace layoutscope::ptx {

namespace {

constexpr const char* kRef = "PTX ISA 9.0 §9.7.9.11 st.bulk";
constexpr TargetMask kSm100Up = kAllTargets & ~(kSm90 | kSm90a);

const InstrSpec kStBulk = {
    "st.bulk",
    {"st", ".bulk"},
    kSm100Up,
    86,
    kRef,
    {{"memory order", {{".weak", kAllTargets, 0}}, false, false, kRef},
     {"state space", {{".shared::cta", kAllTargets, 0}}, false, false, kRef}},
    {{".shared", "st.bulk writes `.shared::cta` memory (or a generic address): write `.shared::cta`"},
     {".shared::cluster", "st.bulk writes the executing CTA's shared memory: write `.shared::cta`"},
     {".global",
      "st.bulk writes shared memory: write `.shared::cta`, or no state space for a generic address"},
     {".relaxed", "st.bulk is `.weak` only"},
     {".release", "st.bulk is `.weak` only"},
     {".acquire", "st.bulk is `.weak` only"},
     {".volatile", "st.bulk is `.weak` only"},
     {".mmio", "st.bulk has no `.mmio` form"}},
    nullptr};

Status checkStBulk(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env) {
    Checker c(in, t, env, kStBulk);
    if (!c.matchQualifiers()) return c.finish();
    if (!c.expectCount(3, "[a], size, initval", kRef)) return c.finish();
    const Operand& a = in.operands[0];
    const bool cta = c.find("state space") != nullptr;
    if (a.kind != OperandKind::Address || a.elements.size() != 1) {
        c.error(DiagCode::InvalidValue, a.span, "the address must be `[…]`; `" + a.text + "` is not", kRef,
                Provenance::Ptxas);
    } else if (c.kindOf(a.elements[0]) == kImm) {
        c.error(DiagCode::InvalidValue, a.span,
                "an immediate address is only for `.local` memory: put the address in a register", kRef,
                Provenance::Ptxas);
    } else {
        c.expectScalar(a.elements[0], "the address (inside `[…]`)",
                       kR32 | kR64 | kOpenSym | (cta ? 0u : uint32_t(kSharedSym | kGlobalSym | kParamSym)),
                       kRef);
    }
    const Operand& size = in.operands[1];
    if (c.expectScalar(size, "the size", kR64 | kImm, kRef) && size.kind == OperandKind::Immediate) {
        const bool fp = size.text.size() > 2 && size.text[0] == '0' &&
                        std::string("fFdD").find(size.text[1]) != std::string::npos;
        if (fp || size.imm < 0 || size.imm > 16777216 || size.imm % 8 != 0)
            c.error(DiagCode::InvalidValue, size.span,
                    "the size is a byte count, a multiple of 8 in [0, 16777216]; `" + size.text + "` is not",
                    kRef, Provenance::Ptxas);
    }
    const Operand& init = in.operands[2];
    const bool fp = init.text.size() > 2 && init.text[0] == '0' &&
                    std::string("fFdD").find(init.text[1]) != std::string::npos;
    if (init.kind != OperandKind::Immediate || fp || init.imm != 0)
        c.error(DiagCode::InvalidValue, init.span,
                "initval must be the constant 0 (st.bulk only zero-fills); `" + init.text + "` is not", kRef,
                Provenance::Ptxas);
    return c.finish();
}

} // namespace

std::vector<InstrEntry> stBulkEntries() {
    return {{&kStBulk, &checkStBulk}};
}

} // namespace layoutscope::ptx
