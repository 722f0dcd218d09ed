// The operand binders of the tma/mbarrier lowering (lowering.hpp): let values, [buffer+offset] and
// [mbarrier] places, [tensorMap, {coords}], and the shared-memory footprint check of a box.
#include "scenario/lowering.hpp"

#include <algorithm>
#include <limits>

namespace layoutscope::scn {

// An immediate or a let name, in [lo, hi].
std::optional<int64_t> Lowering::value(const Operand& op, const char* what, int64_t lo, int64_t hi,
                                       const char* ref, Provenance prov) {
    int64_t v = 0;
    if (op.kind == OperandKind::Immediate) {
        v = op.imm;
        if (v < 0 && !op.text.empty() && op.text[0] != '-')
            v = std::numeric_limits<int64_t>::max(); // > INT64_MAX
    } else if (op.kind == OperandKind::Symbol) {
        const NameInfo* n = ctx.lookup(op.text);
        if (!n && ctx.poisoned.count(op.text)) return std::nullopt;
        if (!n || n->kind != NameKind::Let) {
            fail(DiagCode::UnknownName, op.span,
                 std::string(what) + " '" + op.text + "' is not a name bound with 'let " + op.text +
                     " = <value>'");
            return std::nullopt;
        }
        v = n->value;
    } else if (op.kind == OperandKind::Register) {
        fail(DiagCode::Unsupported, op.span,
             "registers have no values in a scenario: write " + std::string(what) +
                 " as an integer or bind a name with 'let'");
        return std::nullopt;
    } else {
        fail(DiagCode::InvalidValue, op.span,
             "expected " + std::string(what) + " (an integer or a let name)");
        return std::nullopt;
    }
    if (v < lo || v > hi) {
        fail(DiagCode::InvalidValue, op.span,
             std::string(what) + " " + std::to_string(v) + " is outside [" + std::to_string(lo) + ", " +
                 std::to_string(hi) + "]",
             ref, prov);
        return std::nullopt;
    }
    return v;
}

// [name] or [name+offset] naming a buffer (wantBarrier = false) or an mbarrier.
std::optional<Lowering::Place> Lowering::smemOperand(const Operand& op, bool wantBarrier, const char* role) {
    if (op.kind != OperandKind::Address || op.elements.size() != 1) {
        fail(DiagCode::InvalidValue, op.span,
             std::string("expected [") + (wantBarrier ? "mbarrier" : "buffer") + "] as " + role);
        return std::nullopt;
    }
    const Operand& base = op.elements[0];
    if (base.kind == OperandKind::Register) {
        fail(DiagCode::Unsupported, base.span,
             "registers have no values in a scenario: name a declared " +
                 std::string(wantBarrier ? "mbarrier" : "smem buffer") + " instead of " + base.text);
        return std::nullopt;
    }
    if (base.kind != OperandKind::Symbol) {
        fail(DiagCode::InvalidValue, base.span,
             std::string("expected the name of a declared ") + (wantBarrier ? "mbarrier" : "smem buffer"));
        return std::nullopt;
    }
    Place p;
    p.name = base.text;
    uint32_t size = 0;
    if (const ScenarioBuffer* b = ctx.s.findBuffer(base.text); b && !wantBarrier) {
        p.cta = b->cta, p.addr = b->addr, size = b->size;
    } else if (const ScenarioBarrier* m = ctx.s.findBarrier(base.text); m && wantBarrier) {
        p.cta = m->cta, p.addr = m->addr, size = 8;
    } else if (ctx.poisoned.count(base.text)) {
        return std::nullopt;
    } else {
        const NameInfo* n = ctx.lookup(base.text);
        fail(n ? DiagCode::InvalidValue : DiagCode::UnknownName, base.span,
             "'" + base.text + "' is " + (n ? "declared, but not as " : "not declared; expected ") +
                 (wantBarrier ? "an mbarrier ('mbarrier " : "an smem buffer ('smem ") + base.text + " ...')");
        return std::nullopt;
    }
    if (op.imm < 0 || op.imm >= size || (wantBarrier && op.imm != 0)) {
        fail(DiagCode::InvalidValue, op.span,
             "offset " + std::to_string(op.imm) + " is outside " + base.text + " (" + std::to_string(size) +
                 " B)");
        return std::nullopt;
    }
    p.addr += static_cast<uint32_t>(op.imm);
    p.room = size - static_cast<uint32_t>(op.imm);
    return p;
}

// [tensorMap, {c0, ...}]
bool Lowering::tensorOperand(const Operand& op, int dim, const OpcodeToken& dimTok, TensorMap& map,
                             std::array<int32_t, kMaxTensorRank>& coords, int coordCount) {
    if (coordCount < 0) coordCount = dim; // gather4/scatter4: 5 ({col, row0..row3})
    if (op.kind != OperandKind::Address || op.elements.size() != 2 ||
        op.elements[1].kind != OperandKind::Vector || op.imm != 0)
        return fail(DiagCode::InvalidValue, op.span,
                    "expected [tensorMap, {c0, ...}] (the tensor map and its coordinates)", kTmaRef,
                    Provenance::PtxText);
    const Operand& name = op.elements[0];
    const ScenarioTensorMap* t = name.kind == OperandKind::Symbol ? ctx.tensorMap(name.text) : nullptr;
    if (!t && ctx.poisoned.count(name.text)) return false;
    if (!t) {
        const NameInfo* n = name.kind == OperandKind::Symbol ? ctx.lookup(name.text) : nullptr;
        return fail(n ? DiagCode::InvalidValue : DiagCode::UnknownName, name.span,
                    "'" + name.text + "' is " + (n ? "declared, but not as" : "not declared as") +
                        " a tensor map ('tensormap " + name.text + " tiled ...')");
    }
    if (static_cast<uint32_t>(dim) != t->map.p.tensorRank)
        return fail(DiagCode::InvalidValue, dimTok.span,
                    dimTok.text + " does not match tensor map " + t->name + " of rank " +
                        std::to_string(t->map.p.tensorRank) + " (.dim must equal the tensor rank)",
                    "tma.md §1; " + std::string(kTmaRef), Provenance::PtxText);
    const Operand& vec = op.elements[1];
    if (vec.elements.size() != static_cast<size_t>(coordCount))
        return fail(DiagCode::InvalidValue, vec.span,
                    dimTok.text + (coordCount != dim ? " .tile::gather4/scatter4" : "") + " needs " +
                        std::to_string(coordCount) + " coordinates, the vector has " +
                        std::to_string(vec.elements.size()),
                    kTmaRef, Provenance::PtxText);
    for (int k = 0; k < coordCount; ++k) {
        auto v = value(vec.elements[k], "a coordinate", std::numeric_limits<int32_t>::min(),
                       std::numeric_limits<int32_t>::max(), "tma.md §1: coordinates are .s32",
                       Provenance::PtxText);
        if (!v) return false;
        coords[k] = static_cast<int32_t>(*v);
    }
    map = t->map;
    return true;
}

// Shared-memory bytes a box spans from its start address (tma.md §4.1: rows * pitch).
uint64_t Lowering::footprint(const TensorMap& m) {
    const auto& p = m.p;
    const uint32_t bits = isSubByteType(p.dataType) ? (p.dataType == TensorDataType::T16U4_ALIGN8B ? 4 : 8)
                                                    : std::max<uint32_t>(elementBits(p.dataType), 8);
    auto entries = [&](uint32_t i) -> uint64_t {
        const uint32_t e = std::max<uint32_t>(p.elementStrides[i], 1);
        return (uint64_t{p.boxDim[i]} + e - 1) / e;
    };
    const uint64_t inner =
        ((p.interleave == TensorInterleave::NONE ? p.boxDim[0] : entries(0)) * bits + 7) / 8;
    uint64_t rows = 1;
    for (uint32_t i = 1; i < p.tensorRank && i < kMaxTensorRank; ++i) rows *= entries(i);
    const uint64_t pitch = std::max<uint64_t>(inner, swizzleSpan(p.swizzle));
    return rows * pitch;
}

bool Lowering::fits(const Place& p, const TensorMap& m, const Operand& op) {
    const uint64_t need = footprint(m);
    if (need <= p.room) return true;
    return fail(
        DiagCode::InvalidValue, op.span,
        "the box needs " + std::to_string(need) + " B of shared memory" +
            (m.p.swizzle != TensorSwizzle::NONE
                 ? " (rows padded to the " + std::to_string(swizzleSpan(m.p.swizzle)) + " B swizzle span)"
                 : std::string()) +
            " but only " + std::to_string(p.room) + " B of " + p.name + " remain from this address",
        "tma.md §4.1 (shared-memory image of the box)", Provenance::HardwareSm90);
}

} // namespace layoutscope::scn
