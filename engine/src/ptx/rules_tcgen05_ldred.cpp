// tcgen05.ld.red (PTX ISA §9.7.16.8.3, tcgen05.ld with reduction; sm_103a/sm_103f/sm_110a/sm_110f):
//
//   tcgen05.ld.red.sync{.aligned}.shape.num.redOp{.abs}{.NaN}.type  r, redval, [taddr] {, immHalfSplitoff};
//   .shape = .32x32b, .16x32bx2     .num = .x2 … .x128     .redOp = .min, .max
//   .type  = .f32, .u32, .s32        (.abs and .NaN only with .f32)
//
// A load that also reduces the loaded values into redval: it is its own instruction, not a broken
// tcgen05.ld. Verdicts measured with CUDA 13.0 ptxas (scripts/gen-ptxas-diff,
// tests/data/golden/ptxas_tcgen05): like tcgen05.ld, `.aligned` is optional and immHalfSplitoff is
// any immediate; unlike it, `.x1` and the 16x64b/16x128b/16x256b shapes are refused and there is no
// `.pack::16b`.
#include "ptx/rules.hpp"

namespace layoutscope::ptx {

namespace {

constexpr const char* kRef = "PTX ISA §9.7.16.8.3 tcgen05.ld (.red)";
constexpr TargetMask kLdRedTargets = kSm103a | kSm103f | kSm110a | kSm110f;

const InstrSpec kLdRed{
    "tcgen05.ld.red",
    {"tcgen05", ".ld", ".red"},
    kLdRedTargets,
    88,
    kRef,
    {
        {"synchronization", {{".sync"}}, true, false, kRef, /*repeatsIgnored=*/true},
        {"alignment", {{".aligned"}}, false, false, "ptxas 13.0: `.aligned` is optional"},
        {"shape", {{".32x32b"}, {".16x32bx2"}}, true, false, kRef},
        {"repeat count (.num)",
         {{".x2"}, {".x4"}, {".x8"}, {".x16"}, {".x32"}, {".x64"}, {".x128"}},
         true,
         false,
         kRef},
        {"reduction operation", {{".min"}, {".max"}}, true, false, kRef},
        {"absolute value", {{".abs"}}, false, false, kRef},
        {"NaN propagation", {{".NaN"}}, false, false, kRef},
        {"type", {{".f32"}, {".u32"}, {".s32"}}, true, false, kRef},
    },
    {
        {".x1", "the reduction needs at least two values per thread: the smallest count is `.x2`"},
        {".16x64b", "tcgen05.ld.red reads only the .32x32b and .16x32bx2 shapes"},
        {".16x128b", "tcgen05.ld.red reads only the .32x32b and .16x32bx2 shapes"},
        {".16x256b", "tcgen05.ld.red reads only the .32x32b and .16x32bx2 shapes"},
        {".add", "the reductions are `.min` and `.max`"},
        {".pack::16b", "tcgen05.ld.red does not pack; remove `.pack::16b`"},
        {".b32", "the type is `.f32`, `.u32` or `.s32`"},
        {".cta_group::1", "it acts for one warp and takes no `.cta_group`; remove it"},
        {".cta_group::2", "it acts for one warp and takes no `.cta_group`; remove it"},
    }};

Status checkLdRed(const ParsedInstr& in, const PtxTarget& target, const PtxEnvironment& env) {
    Checker c(in, target, env, kLdRed);
    c.matchQualifiers();
    const std::string type = c.value("type");
    for (const char* flag : {"absolute value", "NaN propagation"})
        if (c.find(flag) && !type.empty() && type != ".f32")
            c.error(DiagCode::InvalidValue, c.spanOf(flag),
                    "`" + c.value(flag) + "` applies to `.f32` values only, not `" + type + "`", kRef,
                    Provenance::Ptxas);
    const std::string shape = c.value("shape"), numText = c.value("repeat count (.num)");
    if (shape.empty() || numText.empty()) return c.finish();
    const bool split = shape == ".16x32bx2";
    const size_t len = static_cast<size_t>(std::stoi(numText.substr(2)));
    const std::string list = split ? "{regs}, redval, [taddr], immHalfSplitoff" : "{regs}, redval, [taddr]";
    const size_t n = split ? 4 : 3;
    if (in.operands.size() != n) {
        if (split && in.operands.size() == 3)
            c.error(DiagCode::InvalidValue, in.operands.back().span,
                    "`.16x32bx2` needs the immHalfSplitoff immediate: write `tcgen05.ld.red " + list + "`",
                    kRef, Provenance::Ptxas);
        else
            (void)c.expectCount(n, list, kRef);
        return c.finish();
    }
    const Operand& regs = in.operands[0];
    if (regs.kind == OperandKind::Vector && regs.elements.size() != len)
        c.error(DiagCode::InvalidValue, regs.span,
                "the register vector must hold exactly " + std::to_string(len) + " registers (" +
                    numText.substr(1) + "); it has " + std::to_string(regs.elements.size()),
                kRef, Provenance::Ptxas);
    else
        c.expectVector(regs, "the destination vector", len, kR32, kRef);
    c.expectScalar(in.operands[1], "redval (the reduced value)", kR32, kRef);
    c.expectAddress(in.operands[2], "the tensor-memory address taddr", kR32, true, kRef);
    if (split) c.expectScalar(in.operands[3], "immHalfSplitoff", kImm, kRef);
    return c.finish();
}

} // namespace

std::vector<InstrEntry> tcgen05LdRedEntries() {
    return {{&kLdRed, &checkLdRed}};
}

} // namespace layoutscope::ptx
