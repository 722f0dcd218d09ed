#pragma once
// Internal: the operand binders of the cp.async.bulk.tensor and mbarrier lowering (lowering.cpp) and the two
// lowerings themselves (ops_tma.cpp), called by applyInstruction (ops.cpp).
#include "layoutscope/ptx/instruction.hpp"
#include "scenario/parse.hpp"

#include <array>
#include <optional>
#include <string>

namespace layoutscope::scn {

struct Lowering {
    static constexpr const char* kTmaRef = "PTX ISA 9.2 §9.7.9.25.5.2 (cp.async.bulk.tensor)";
    static constexpr const char* kMbarRef = "PTX ISA 9.2 §9.7.13.15 (mbarrier)";

    Context& ctx;
    const ParsedInstr& in;

    bool fail(DiagCode code, SourceSpan span, std::string msg, std::string ref = kFormatRef,
              Provenance prov = Provenance::Assumption) {
        ctx.error(code, span, std::move(msg), std::move(ref), prov);
        return false;
    }

    // An immediate or a let name, in [lo, hi].
    std::optional<int64_t> value(const Operand& op, const char* what, int64_t lo, int64_t hi,
                                 const char* ref = kFormatRef, Provenance prov = Provenance::Assumption);

    // [name] or [name+offset] naming a buffer (wantBarrier = false) or an mbarrier.
    struct Place {
        uint32_t cta = 0;
        uint32_t addr = 0;
        uint32_t room = 0; ///< bytes from addr to the end of the buffer
        std::string name;
    };
    std::optional<Place> smemOperand(const Operand& op, bool wantBarrier, const char* role);

    // [tensorMap, {c0, ...}]
    bool tensorOperand(const Operand& op, int dim, const OpcodeToken& dimTok, TensorMap& map,
                       std::array<int32_t, kMaxTensorRank>& coords, int coordCount = -1);

    // Shared-memory bytes a box spans from its start address (tma.md §4.1: rows * pitch).
    static uint64_t footprint(const TensorMap& m);

    bool fits(const Place& p, const TensorMap& m, const Operand& op);

    bool tma(ScenarioInstr& out);      // ops_tma.cpp
    bool mbarrier(ScenarioInstr& out); // ops_tma.cpp
};

} // namespace layoutscope::scn
