// tcgen05.ld / tcgen05.st (PTX ISA §9.7.16.8.3-4, seed 002; golden/ptxas README "tcgen05.ld / tcgen05.st"):
//
//   tcgen05.ld.sync{.aligned}.shape.num{.pack::16b}.b32    r, [taddr] {, immHalfSplitoff};
//   tcgen05.st.sync{.aligned}.shape.num{.unpack::16b}.b32  [taddr] {, immHalfSplitoff}, r;
//
// ptxas departures followed here: `.aligned` is optional (README departure 1); pack/unpack change
// neither the vector length nor the allowed shapes (4); immHalfSplitoff has no range (3).
#include "ptx/rules.hpp"

namespace layoutscope::ptx {

namespace {

constexpr const char* kLdRef = "PTX ISA §9.7.16.8.3 tcgen05.ld";
constexpr const char* kStRef = "PTX ISA §9.7.16.8.4 tcgen05.st";
constexpr const char* kTable50 = "PTX ISA §9.7.16.8.3 Table 50 (.num vs shape); ptxas 13.0";

std::vector<QualSpec> nums() {
    return {{".x1"}, {".x2"}, {".x4"}, {".x8"}, {".x16"}, {".x32"}, {".x64"}, {".x128"}};
}

std::vector<QualGroup> groups(bool load) {
    const char* ref = load ? kLdRef : kStRef;
    return {
        {"synchronization", {{".sync"}}, true, false, ref, /*repeatsIgnored=*/true},
        {"alignment",
         {{".aligned"}},
         false,
         false,
         "ptxas 13.0: `.aligned` is optional (README departure 1)"},
        {"shape",
         {{".16x64b"}, {".16x128b"}, {".16x256b"}, {".32x32b"}, {".16x32bx2"}},
         true,
         false,
         "PTX ISA §9.7.16.2.3 (data-movement shapes)"},
        {"repeat count (.num)", nums(), true, false, kTable50},
        {"packing",
         {{load ? ".pack::16b" : ".unpack::16b"}},
         false,
         false,
         "PTX ISA §9.7.16.8.2 (pack/unpack)"},
        {"type", {{".b32"}}, true, false, ref},
    };
}

std::vector<IllegalQual> illegal(bool load) {
    std::vector<IllegalQual> v = {
        {".cta_group::1", "tcgen05.ld and tcgen05.st act for one warp and take no `.cta_group`; remove it"},
        {".cta_group::2", "tcgen05.ld and tcgen05.st act for one warp and take no `.cta_group`; remove it"},
        {".u32", "the only type is `.b32`"},
        {".s32", "the only type is `.b32`"},
        {".f32", "the only type is `.b32`"},
        {".b16", "the only type is `.b32`"},
        {".b64", "the only type is `.b32`"},
        {".b8", "the only type is `.b32`"},
    };
    if (load)
        v.push_back({".unpack::16b", "it belongs to tcgen05.st; a load packs with `.pack::16b`"});
    else
        v.push_back({".pack::16b", "it belongs to tcgen05.ld; a store unpacks with `.unpack::16b`"});
    return v;
}

const InstrSpec kLd{"tcgen05.ld", {"tcgen05", ".ld"}, kTcgen05Targets, 86,
                    kLdRef,       groups(true),       illegal(true)};
const InstrSpec kSt{"tcgen05.st", {"tcgen05", ".st"}, kTcgen05Targets, 86,
                    kStRef,       groups(false),      illegal(false)};

/// Table 50: registers per thread = num × regsPerNum; "NA" cells are num > maxNum.
struct ShapeRow {
    const char* shape;
    int regsPerNum;
    int maxNum;
    bool halfSplitoff; ///< takes the immHalfSplitoff immediate
};
constexpr ShapeRow kShapes[] = {
    {".16x64b", 1, 128, false}, {".16x128b", 2, 64, false},  {".16x256b", 4, 32, false},
    {".32x32b", 1, 128, false}, {".16x32bx2", 1, 128, true},
};

Status check(const ParsedInstr& in, const PtxTarget& target, const PtxEnvironment& env, bool load) {
    Checker c(in, target, env, load ? kLd : kSt);
    const char* ref = load ? kLdRef : kStRef;
    const bool qualsOk = c.matchQualifiers();
    const std::string shape = c.value("shape");
    const std::string numText = c.value("repeat count (.num)");
    const ShapeRow* row = nullptr;
    for (const auto& r : kShapes)
        if (shape == r.shape) row = &r;
    if (!row || numText.empty()) {
        if (qualsOk)
            c.error(DiagCode::InvalidValue, c.opcodeSpan(), "shape and .num are both required", ref,
                    Provenance::Ptxas);
        return c.finish();
    }
    const int num = std::stoi(numText.substr(2));
    if (num > row->maxNum) {
        c.error(DiagCode::InvalidValue, c.spanOf("repeat count (.num)"),
                "`" + numText + "` is not allowed with `" + shape +
                    "` (Table 50 has no such cell: it would need " + std::to_string(num * row->regsPerNum) +
                    " registers per thread, over 128); the largest is `.x" + std::to_string(row->maxNum) +
                    "`",
                kTable50, Provenance::Ptxas);
    }
    const size_t len = static_cast<size_t>(num * row->regsPerNum);
    const std::string lenWords =
        std::to_string(len) + " registers (" + numText.substr(1) +
        (row->regsPerNum > 1 ? " × " + std::to_string(row->regsPerNum) : std::string()) + " for `" + shape +
        "`; `.pack/.unpack` do not change it)";
    const size_t n = row->halfSplitoff ? 3 : 2;
    const std::string list =
        load ? (row->halfSplitoff ? "{regs}, [taddr], immHalfSplitoff" : "{regs}, [taddr]")
             : (row->halfSplitoff ? "[taddr], immHalfSplitoff, {regs}" : "[taddr], {regs}");
    if (in.operands.size() != n) {
        if (row->halfSplitoff && in.operands.size() == 2)
            c.error(DiagCode::InvalidValue, in.operands.back().span,
                    "`.16x32bx2` needs the immHalfSplitoff immediate (the column offset of the second half): "
                    "write `" +
                        std::string(c.spec.name) + " " + list + "`",
                    ref, Provenance::Ptxas);
        else if (!row->halfSplitoff && in.operands.size() == 3)
            c.error(DiagCode::InvalidValue, in.operands[load ? 2 : 1].span,
                    "only `.16x32bx2` takes an immHalfSplitoff operand; remove `" +
                        in.operands[load ? 2 : 1].text + "` or use `.16x32bx2`",
                    ref, Provenance::Ptxas);
        else
            (void)c.expectCount(n, list, ref);
        return c.finish();
    }
    const Operand& regs = load ? in.operands[0] : in.operands[n - 1];
    const Operand& taddr = load ? in.operands[1] : in.operands[0];
    c.expectAddress(taddr, "the tensor-memory address taddr", kR32, true, ref);
    if (row->halfSplitoff) c.expectScalar(in.operands[load ? 2 : 1], "immHalfSplitoff", kImm, ref);
    if (regs.kind == OperandKind::Vector && regs.elements.size() != len) {
        c.error(DiagCode::InvalidValue, regs.span,
                "the register vector must hold exactly " + lenWords + "; it has " +
                    std::to_string(regs.elements.size()),
                kTable50, Provenance::Ptxas);
    } else if (c.expectVector(regs, load ? "the destination vector" : "the source vector", len,
                              load ? kR32 : kR32 | kImm, ref) &&
               !load) {
        bool anyReg = false;
        for (const auto& e : regs.elements) anyReg = anyReg || c.kindOf(e) != kImm;
        if (!anyReg)
            c.error(DiagCode::InvalidValue, regs.span,
                    "the source vector may mix registers and immediates but cannot be all immediates; put at "
                    "least one "
                    "value in a .b32 register",
                    "ptxas 13.0 (golden/ptxas README, tcgen05.st)", Provenance::Ptxas);
    }
    return c.finish();
}

Status checkLd(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& e) {
    return check(in, t, e, true);
}
Status checkSt(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& e) {
    return check(in, t, e, false);
}

} // namespace

std::vector<InstrEntry> tcgen05LdStEntries() {
    return {{&kLd, &checkLd}, {&kSt, &checkSt}};
}

} // namespace layoutscope::ptx
