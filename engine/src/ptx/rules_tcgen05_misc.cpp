// tcgen05.cp, tcgen05.shift, tcgen05.alloc / dealloc / relinquish_alloc_permit, tcgen05.commit.
//
//   tcgen05.cp.cta_group.shape{.multicast}{.dst_fmt.src_fmt} [taddr], s-desc;       §9.7.16.9.2, seed 000/001
//   tcgen05.shift.cta_group.down [taddr];                                              §9.7.16.9.3, seed 001
//   tcgen05.alloc.cta_group.sync.aligned{.shared::cta}.b32 [dst], nCols;               §9.7.16.7.1
//   tcgen05.dealloc.cta_group.sync.aligned.b32 taddr, nCols;                           §9.7.16.7.1
//   tcgen05.relinquish_alloc_permit.cta_group.sync.aligned;                            §9.7.16.7.1
//   tcgen05.commit.cta_group.mbarrier::arrive::one{.shared::cluster}{.multicast::cluster}.b64 [mbar]{,
//   ctaMask};
//
// Verdicts follow CUDA 13.0 ptxas (golden/ptxas README): decompression has no shape restriction (5),
// dealloc checks only "multiple of 32" (2), shift is not on sm_100f (7), an immediate taddr crashes
// ptxas in cp/shift and is reported here as an error (10).
#include "ptx/rules.hpp"

#include <algorithm>

namespace layoutscope::ptx {

namespace {

constexpr const char* kCpRef = "PTX ISA §9.7.16.9.2 tcgen05.cp";
constexpr const char* kShiftRef = "PTX ISA §9.7.16.9.3 tcgen05.shift";
constexpr const char* kAllocRef = "PTX ISA §9.7.16.7.1 tcgen05.alloc/dealloc/relinquish_alloc_permit";
constexpr const char* kCommitRef = "PTX ISA §9.7.16.12.1 tcgen05.commit";
constexpr const char* kWaitRef = "PTX ISA §9.7.16.8.5 tcgen05.wait";
constexpr const char* kFenceRef = "PTX ISA §9.7.16.11.1 tcgen05.fence";
constexpr TargetMask kShiftTargets = kSm100a | kSm103a | kSm110a; // README departure 7: not sm_100f

QualGroup ctaGroup(const char* ref) {
    return {"CTA group", {{".cta_group::1"}, {".cta_group::2"}}, true, false, ref};
}
QualGroup syncGroup() {
    return {"synchronization", {{".sync"}}, true, false, kAllocRef, /*repeatsIgnored=*/true};
}
QualGroup alignedGroup() {
    return {"alignment", {{".aligned"}}, true, false, kAllocRef};
}

const std::vector<IllegalQual> kNoSyncNoType = {
    {".sync", "it is issued by a single thread; remove `.sync`"},
    {".aligned", "it is issued by a single thread; remove `.aligned`"},
    {".b32", "it takes no type qualifier"},
    {".b64", "it takes no type qualifier"},
    {".shared::cta", "it takes no state-space qualifier"},
    {".shared", "it takes no state-space qualifier"},
};

// [SECTION] tcgen05.cp ---------------------------------------------------------------------------

const InstrSpec kCp{
    "tcgen05.cp",
    {"tcgen05", ".cp"},
    kTcgen05Targets,
    86,
    kCpRef,
    {ctaGroup(kCpRef),
     {"shape", {{".128x256b"}, {".4x256b"}, {".128x128b"}, {".64x128b"}, {".32x128b"}}, true, false, kCpRef},
     {"multicast", {{".warpx2::02_13"}, {".warpx2::01_23"}, {".warpx4"}}, false, false, kCpRef},
     {"destination format", {{".b8x16"}}, false, false, "PTX ISA §9.7.16.9.1 (decompression)"},
     {"source format",
      {{".b6x16_p32"}, {".b4x16_p64"}},
      false,
      false,
      "PTX ISA §9.7.16.9.1 (decompression)"}},
    kNoSyncNoType};

/// Which multicast each shape needs: "" = none allowed; otherwise one of the listed is required.
struct CpShapeRow {
    const char* shape;
    std::vector<const char*> multicast;
};
const CpShapeRow kCpShapes[] = {
    {".128x256b", {}},         {".4x256b", {}},
    {".128x128b", {}},         {".64x128b", {".warpx2::02_13", ".warpx2::01_23"}},
    {".32x128b", {".warpx4"}},
};

Status checkCp(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env) {
    Checker c(in, t, env, kCp);
    c.matchQualifiers();
    const std::string shape = c.value("shape"), mc = c.value("multicast");
    for (const auto& row : kCpShapes) {
        if (shape != row.shape) continue;
        std::string options;
        for (size_t i = 0; i < row.multicast.size(); ++i)
            options += std::string(i ? " or `" : "`") + row.multicast[i] + "`";
        if (row.multicast.empty() && !mc.empty())
            c.error(DiagCode::InvalidValue, c.spanOf("multicast"),
                    "`" + shape + "` copies to all 128 lanes and takes no multicast; remove `" + mc + "`",
                    kCpRef, Provenance::Ptxas);
        else if (!row.multicast.empty() && mc.empty())
            c.error(DiagCode::InvalidValue, c.spanOf("shape"), "`" + shape + "` needs " + options, kCpRef,
                    Provenance::Ptxas);
        else if (!row.multicast.empty() &&
                 std::find(row.multicast.begin(), row.multicast.end(), mc) == row.multicast.end())
            c.error(DiagCode::InvalidValue, c.spanOf("multicast"),
                    "`" + mc + "` does not go with `" + shape + "`; it needs " + options, kCpRef,
                    Provenance::Ptxas);
    }
    const Matched* dst = c.find("destination format");
    const Matched* src = c.find("source format");
    if (dst && !src)
        c.error(DiagCode::InvalidValue, dst->tok->span,
                "decompression names both formats, destination then source: add `.b6x16_p32` or `.b4x16_p64` "
                "after `.b8x16`",
                "PTX ISA §9.7.16.9.1", Provenance::Ptxas);
    else if (src && !dst)
        c.error(DiagCode::InvalidValue, src->tok->span,
                "decompression names both formats, destination then source: write `.b8x16" + src->tok->text +
                    "`",
                "PTX ISA §9.7.16.9.1", Provenance::Ptxas);
    else if (dst && src && src->position < dst->position)
        c.error(DiagCode::InvalidValue, src->tok->span,
                "the destination format comes first: write `.b8x16" + src->tok->text + "`",
                "PTX ISA §9.7.16.9.1; ptxas 13.0", Provenance::Ptxas);
    if (c.expectCount(2, "[taddr], s-desc", kCpRef)) {
        c.expectAddress(in.operands[0], "the tensor-memory address taddr", kR32, true, kCpRef);
        c.expectScalar(in.operands[1], "the shared-memory descriptor s-desc", kR64 | kImm, kCpRef);
    }
    return c.finish();
}

// [SECTION] tcgen05.shift ------------------------------------------------------------------------

const InstrSpec kShift{"tcgen05.shift",
                       {"tcgen05", ".shift"},
                       kShiftTargets,
                       86,
                       kShiftRef,
                       {ctaGroup(kShiftRef), {"direction", {{".down"}}, true, false, kShiftRef}},
                       {{".up", "only `.down` exists (rows move down by 32 lanes); write `.down`"},
                        {".sync", "it takes no `.sync`"},
                        {".aligned", "it takes no `.aligned`"}}};

Status checkShift(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env) {
    Checker c(in, t, env, kShift);
    c.matchQualifiers();
    if (c.expectCount(1, "[taddr]", kShiftRef))
        c.expectAddress(in.operands[0], "the tensor-memory address taddr", kR32, true, kShiftRef);
    return c.finish();
}

// [SECTION] tcgen05.alloc / dealloc / relinquish_alloc_permit -------------------------------------

const std::vector<IllegalQual> kAllocIllegal = {
    {".shared::cluster",
     "the address is written to the CTA's own shared memory: use `.shared::cta` or no state space"},
    {".shared", "write `.shared::cta` (or leave the state space out)"},
    {".global", "the address is written to shared memory: use `.shared::cta` or no state space"},
    {".u32", "the only type is `.b32`"},
    {".b64", "the only type is `.b32`"},
};

const InstrSpec kAlloc{"tcgen05.alloc",
                       {"tcgen05", ".alloc"},
                       kTcgen05Targets,
                       86,
                       kAllocRef,
                       {ctaGroup(kAllocRef),
                        syncGroup(),
                        alignedGroup(),
                        {"state space", {{".shared::cta"}}, false, false, kAllocRef},
                        {"type", {{".b32"}}, true, false, kAllocRef}},
                       kAllocIllegal};
const InstrSpec kDealloc{
    "tcgen05.dealloc",
    {"tcgen05", ".dealloc"},
    kTcgen05Targets,
    86,
    kAllocRef,
    {ctaGroup(kAllocRef), syncGroup(), alignedGroup(), {"type", {{".b32"}}, true, false, kAllocRef}},
    kAllocIllegal};
const InstrSpec kRelinquish{"tcgen05.relinquish_alloc_permit",
                            {"tcgen05", ".relinquish_alloc_permit"},
                            kTcgen05Targets,
                            86,
                            kAllocRef,
                            {ctaGroup(kAllocRef), syncGroup(), alignedGroup()},
                            {{".b32", "it takes no type qualifier"}}};

Status checkAlloc(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env) {
    Checker c(in, t, env, kAlloc);
    c.matchQualifiers();
    if (c.expectCount(2, "[dst], nCols", kAllocRef)) {
        const Operand& dst = in.operands[0];
        if (dst.kind == OperandKind::Address && !dst.elements.empty() && c.kindOf(dst.elements[0]) == kImm)
            c.error(DiagCode::InvalidValue, dst.span,
                    "the destination must be a .shared::cta variable or a register holding its address; an "
                    "immediate "
                    "address is not allowed",
                    kAllocRef, Provenance::Ptxas);
        else
            c.expectAddress(dst, "the destination (where the TMEM address is written)",
                            kSharedSym | kR32 | kR64, true, kAllocRef);
        const Operand& n = in.operands[1];
        if (c.expectScalar(n, "nCols", kImm | kR32, kAllocRef) && n.kind == OperandKind::Immediate) {
            const bool pow2 = n.imm > 0 && (n.imm & (n.imm - 1)) == 0;
            if (n.imm < 32 || n.imm > 512)
                c.error(DiagCode::InvalidValue, n.span,
                        "nCols = " + std::to_string(n.imm) +
                            " is outside [32, 512]; allocate 32, 64, 128, 256 or 512 columns",
                        kAllocRef, Provenance::Ptxas);
            else if (!pow2)
                c.error(DiagCode::InvalidValue, n.span,
                        "nCols = " + std::to_string(n.imm) +
                            " is not a power of two; allocate 32, 64, 128, 256 or 512 columns",
                        kAllocRef, Provenance::Ptxas);
        }
    }
    return c.finish();
}

Status checkDealloc(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env) {
    Checker c(in, t, env, kDealloc);
    c.matchQualifiers();
    if (c.expectCount(2, "taddr, nCols", kAllocRef)) {
        const Operand& ta = in.operands[0];
        if (ta.kind == OperandKind::Address)
            c.error(DiagCode::InvalidValue, ta.span,
                    "taddr is a plain value here, not an address: write `" +
                        (ta.elements.empty() ? std::string("taddr") : ta.elements[0].text) +
                        "` without brackets",
                    kAllocRef, Provenance::Ptxas);
        else
            c.expectScalar(ta, "taddr", kR32 | kImm, kAllocRef);
        const Operand& n = in.operands[1];
        // ptxas checks only "multiple of 32" (README departure 2: 0, 1024, -32 assemble).
        if (c.expectScalar(n, "nCols", kImm | kR32, kAllocRef) && n.kind == OperandKind::Immediate &&
            n.imm % 32 != 0)
            c.error(DiagCode::InvalidValue, n.span,
                    "nCols = " + std::to_string(n.imm) +
                        " is not a multiple of 32; free the column count that was allocated",
                    kAllocRef, Provenance::Ptxas);
    }
    return c.finish();
}

Status checkRelinquish(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env) {
    Checker c(in, t, env, kRelinquish);
    c.matchQualifiers();
    (void)c.expectCount(0, "no operands", kAllocRef);
    return c.finish();
}

// [SECTION] tcgen05.commit -----------------------------------------------------------------------

const InstrSpec kCommit{
    "tcgen05.commit",
    {"tcgen05", ".commit"},
    kTcgen05Targets,
    86,
    kCommitRef,
    {ctaGroup(kCommitRef),
     {"completion mechanism", {{".mbarrier::arrive::one"}}, true, false, kCommitRef},
     {"state space", {{".shared::cluster"}}, false, false, kCommitRef},
     {"multicast", {{".multicast::cluster"}}, false, false, kCommitRef},
     {"type", {{".b64"}}, true, false, kCommitRef}},
    {{".shared::cta", "the barrier is addressed in .shared::cluster; write `.shared::cluster` or leave "
                      "the state space out"},
     {".sync", "it takes no `.sync`"},
     {".aligned", "it takes no `.aligned`"}}};

Status checkCommit(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env) {
    Checker c(in, t, env, kCommit);
    c.matchQualifiers();
    const bool mc = c.has(".multicast::cluster");
    if (c.expectCount(mc ? 2 : 1, mc ? "[mbar], ctaMask" : "[mbar]", kCommitRef)) {
        c.expectAddress(in.operands[0], "the mbarrier address", kSharedSym | kR32 | kR64, true, kCommitRef);
        if (mc) c.expectScalar(in.operands[1], "ctaMask", kR16, kCommitRef);
    }
    return c.finish();
}

// [SECTION] tcgen05.wait / tcgen05.fence ----------------------------------------------------------
//   tcgen05.wait::{ld,st}.sync.aligned;              §9.7.16.8.5
//   tcgen05.fence::{before,after}_thread_sync;       §9.7.16.11.1
// Checked by hand with ptxas 13.0: wait needs both `.sync` and `.aligned` (a repeated `.sync` is
// accepted, `.aligned.aligned` is not); fence takes neither; no type, state space, .cta_group or
// operand; same targets as tcgen05.alloc (sm_100f included), PTX 8.6.

const std::vector<IllegalQual> kOrderingIllegal = {
    {".cta_group::1", "it takes no `.cta_group`; remove it"},
    {".cta_group::2", "it takes no `.cta_group`; remove it"},
    {".b32", "it takes no type qualifier"},
    {".b64", "it takes no type qualifier"},
    {".shared::cta", "it takes no state-space qualifier"},
    {".shared::cluster", "it takes no state-space qualifier"},
    {".shared", "it takes no state-space qualifier"},
};

std::vector<IllegalQual> waitIllegal(const char* other) {
    std::vector<IllegalQual> v = kOrderingIllegal;
    v.push_back({other, "one wait per instruction: write `tcgen05.wait::ld` and `tcgen05.wait::st` apart"});
    return v;
}

std::vector<IllegalQual> fenceIllegal(const char* other) {
    std::vector<IllegalQual> v = kOrderingIllegal;
    v.push_back({".sync", "it takes no `.sync`"});
    v.push_back({".aligned", "it takes no `.aligned`"});
    v.push_back({other, "one fence per instruction: write the two fences as two instructions"});
    return v;
}

InstrSpec orderingSpec(const char* name, const char* kind, const char* ref, std::vector<QualGroup> groups,
                       std::vector<IllegalQual> illegal) {
    return {name, {"tcgen05", kind}, kTcgen05Targets, 86, ref, std::move(groups), std::move(illegal)};
}

std::vector<QualGroup> waitGroups() {
    return {{"synchronization", {{".sync"}}, true, false, kWaitRef, /*repeatsIgnored=*/true},
            {"alignment", {{".aligned"}}, true, false, kWaitRef}};
}

const InstrSpec kWaitLd =
    orderingSpec("tcgen05.wait::ld", ".wait::ld", kWaitRef, waitGroups(), waitIllegal(".wait::st"));
const InstrSpec kWaitSt =
    orderingSpec("tcgen05.wait::st", ".wait::st", kWaitRef, waitGroups(), waitIllegal(".wait::ld"));
const InstrSpec kFenceBefore = orderingSpec("tcgen05.fence::before_thread_sync", ".fence::before_thread_sync",
                                            kFenceRef, {}, fenceIllegal(".fence::after_thread_sync"));
const InstrSpec kFenceAfter = orderingSpec("tcgen05.fence::after_thread_sync", ".fence::after_thread_sync",
                                           kFenceRef, {}, fenceIllegal(".fence::before_thread_sync"));

template <const InstrSpec& Spec>
Status checkOrdering(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env) {
    Checker c(in, t, env, Spec);
    c.matchQualifiers();
    (void)c.expectCount(0, "no operands", Spec.ref);
    return c.finish();
}

} // namespace

std::vector<InstrEntry> tcgen05MiscEntries() {
    return {{&kCp, &checkCp},
            {&kShift, &checkShift},
            {&kAlloc, &checkAlloc},
            {&kDealloc, &checkDealloc},
            {&kRelinquish, &checkRelinquish},
            {&kCommit, &checkCommit},
            {&kWaitLd, &checkOrdering<kWaitLd>},
            {&kWaitSt, &checkOrdering<kWaitSt>},
            {&kFenceBefore, &checkOrdering<kFenceBefore>},
            {&kFenceAfter, &checkOrdering<kFenceAfter>}};
}

} // namespace layoutscope::ptx
