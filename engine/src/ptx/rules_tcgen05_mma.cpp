// tcgen05.mma, tcgen05.mma.sp, tcgen05.mma.ws, tcgen05.mma.ws.sp (PTX ISA §9.7.16.10.9; CCCL
// cuda/__ptx/instructions/generated/tcgen05_mma*.h for the forms; verdicts from CUDA 13.0 ptxas,
// tests/data/golden/ptxas_tcgen05, scripts/gen-ptxas-diff):
//
//   tcgen05.mma{.sp}.cta_group.kind{.block_scale{.scale}}{.collector::a::use}{.ashift}
//       [d-tmem], a-desc | [a-tmem], b-desc, {[sp-meta-tmem],} idesc,
//       {[scale-A-tmem], [scale-B-tmem],} {{disable-output-lane},} enable-input-d {, scale-input-d};
//   tcgen05.mma.ws{.sp}.cta_group::1.kind{.collector::bN::use}
//       [d-tmem], a-desc | [a-tmem], b-desc, {[sp-meta-tmem],} idesc, enable-input-d {, zero-col-mask};
//
// The name is `tcgen05.mma` + `.sp` / `.ws` / `.ws.sp` (ptxas: `.sp.ws` is "Unknown modifier '.ws'").
#include "ptx/rules.hpp"

#include <algorithm>

namespace layoutscope::ptx {

namespace {

constexpr const char* kMmaRef = "PTX ISA §9.7.16.10.9 tcgen05.mma";
constexpr const char* kKindRef = "PTX ISA §9.7.16.10.9 tcgen05.mma (.kind); ptxas 13.0";
constexpr const char* kScaleRef = "PTX ISA §9.7.16.10.9 tcgen05.mma (.block_scale, .scale_vectorsize)";

constexpr TargetMask kArchTargets = kSm100a | kSm103a | kSm110a;
/// scale-input-d: ptxas 13.0 "Feature 'argument scale-inp-d-imm' not supported on .target 'sm_110a'".
constexpr TargetMask kScaleInputDTargets = kSm100a | kSm100f | kSm103a | kSm103f;

constexpr const char* kMxKinds[] = {".kind::mxf8f6f4", ".kind::mxf4", ".kind::mxf4nvf4"};

std::vector<QualGroup> mmaGroups(bool ws) {
    std::vector<QualGroup> g;
    g.push_back({"CTA group", {{".cta_group::1"}, {".cta_group::2"}}, true, false, kMmaRef});
    g.push_back({"kind",
                 {{".kind::f16"},
                  {".kind::tf32"},
                  {".kind::f8f6f4"},
                  {".kind::i8", kSm100a | kSm110a}, // ptxas 13.0: not on sm_103a or any f target
                  {".kind::mxf8f6f4"},
                  {".kind::mxf4"},
                  {".kind::mxf4nvf4", kAllTargets, 87}},
                 true,
                 false,
                 kKindRef});
    g.push_back({"block scaling", {{".block_scale"}}, false, false, kScaleRef});
    g.push_back({"scale vector size",
                 // ptxas 13.0: the .scale_vec::NX spellings are arch-specific (not on sm_100f/103f/110f);
                 // .block16/.block32 are the family spellings, from PTX 8.8.
                 {{".scale_vec::1X", kArchTargets},
                  {".scale_vec::2X", kArchTargets},
                  {".scale_vec::4X", kArchTargets, 87},
                  {".block16", kAllTargets, 88},
                  {".block32", kAllTargets, 88}},
                 false,
                 false,
                 kScaleRef});
    std::vector<QualSpec> coll;
    static const char* kWsColl[4][4] = {
        {".collector::b0::fill", ".collector::b0::use", ".collector::b0::lastuse", ".collector::b0::discard"},
        {".collector::b1::fill", ".collector::b1::use", ".collector::b1::lastuse", ".collector::b1::discard"},
        {".collector::b2::fill", ".collector::b2::use", ".collector::b2::lastuse", ".collector::b2::discard"},
        {".collector::b3::fill", ".collector::b3::use", ".collector::b3::lastuse",
         ".collector::b3::discard"}};
    static const char* kAColl[] = {".collector::a::fill", ".collector::a::use", ".collector::a::lastuse",
                                   ".collector::a::discard"};
    if (ws)
        for (auto& row : kWsColl)
            for (const char* c : row) coll.push_back({c});
    else
        for (const char* c : kAColl) coll.push_back({c});
    g.push_back({"collector usage", coll, false, false, "PTX ISA §9.7.16.10.9 (collector buffers)"});
    if (!ws) g.push_back({"A shift", {{".ashift"}}, false, false, kMmaRef});
    return g;
}

std::vector<IllegalQual> mmaIllegal(bool ws) {
    std::vector<IllegalQual> v = {
        {".sync", "it is issued by one thread; remove `.sync`"},
        {".aligned", "it is issued by one thread; remove `.aligned`"},
    };
    static const char* kAColl[] = {".collector::a::fill", ".collector::a::use", ".collector::a::lastuse",
                                   ".collector::a::discard"};
    if (ws) {
        for (const char* c : kAColl)
            v.push_back({c, "the .ws form keeps B in collector buffers b0..b3: write `.collector::b0::…`"});
        v.push_back({".ashift", "only the non-.ws form with A in Tensor Memory shifts A"});
    } else {
        v.push_back({".collector::b0::fill", "buffers b0..b3 belong to tcgen05.mma.ws; this form uses "
                                             "`.collector::a::…`"});
    }
    return v;
}

InstrSpec mmaSpec(const char* name, std::vector<const char*> tokens, bool ws) {
    std::vector<IllegalQual> illegal = mmaIllegal(ws);
    if (!ws && tokens.size() == 3) // tcgen05.mma.sp.ws: ptxas "Unknown modifier '.ws'"
        illegal.push_back(
            {".ws", "the weight-stationary sparse form is spelt `tcgen05.mma.ws.sp` (`.ws` first)"});
    return {name, std::move(tokens), kTcgen05Targets, 86, kMmaRef, mmaGroups(ws), std::move(illegal)};
}

const InstrSpec kMma = mmaSpec("tcgen05.mma", {"tcgen05", ".mma"}, false);
const InstrSpec kMmaSp = mmaSpec("tcgen05.mma.sp", {"tcgen05", ".mma", ".sp"}, false);
const InstrSpec kMmaWs = mmaSpec("tcgen05.mma.ws", {"tcgen05", ".mma", ".ws"}, true);
const InstrSpec kMmaWsSp = mmaSpec("tcgen05.mma.ws.sp", {"tcgen05", ".mma", ".ws", ".sp"}, true);

bool isMx(const std::string& kind) {
    return std::any_of(std::begin(kMxKinds), std::end(kMxKinds), [&](const char* k) { return kind == k; });
}

/// Which scale-vector sizes each block-scaled kind takes (ptxas 13.0; PTX ISA "Valid combinations").
bool scaleFits(const std::string& kind, const std::string& scale) {
    if (scale.empty()) return true;
    if (kind == ".kind::mxf8f6f4") return scale == ".scale_vec::1X" || scale == ".block32";
    if (kind == ".kind::mxf4") return scale == ".scale_vec::2X" || scale == ".block32";
    if (kind == ".kind::mxf4nvf4")
        return scale == ".scale_vec::2X" || scale == ".scale_vec::4X" || scale == ".block16" ||
               scale == ".block32";
    return false;
}

Status check(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env, const InstrSpec& spec,
             bool ws, bool sp) {
    Checker c(in, t, env, spec);
    c.matchQualifiers();
    const std::string kind = c.value("kind"), scale = c.value("scale vector size");
    const std::string cta = c.value("CTA group");
    const bool block = c.has(".block_scale");
    const bool mx = isMx(kind);
    if (ws && cta == ".cta_group::2")
        c.error(DiagCode::InvalidValue, c.spanOf("CTA group"),
                "`tcgen05.mma.ws` runs on one CTA only: write `.cta_group::1` (a CTA pair needs "
                "`tcgen05.mma` without `.ws`)",
                kMmaRef, Provenance::Ptxas);
    if (!kind.empty()) {
        if (ws && mx)
            c.error(DiagCode::InvalidValue, c.spanOf("kind"),
                    "`" + kind +
                        "` is block-scaled and `tcgen05.mma.ws` has no block scaling; use "
                        "`tcgen05.mma` for it, or a kind of .f16/.tf32/.f8f6f4/.i8",
                    kKindRef, Provenance::Ptxas);
        else if (mx && !block)
            c.error(DiagCode::InvalidValue, c.spanOf("kind"),
                    "`" + kind + "` needs `.block_scale` (and the operands [scale-A-tmem], [scale-B-tmem])",
                    kScaleRef, Provenance::Ptxas);
        else if (!mx && block && !ws)
            c.error(DiagCode::InvalidValue, c.spanOf("block scaling"),
                    "`.block_scale` goes only with .kind::mxf8f6f4, .kind::mxf4 or .kind::mxf4nvf4, not `" +
                        kind + "`",
                    kScaleRef, Provenance::Ptxas);
        if (!scale.empty() && !block && !(ws && mx))
            c.error(DiagCode::InvalidValue, c.spanOf("scale vector size"),
                    "`" + scale + "` sets the block-scale vector size: it needs `.block_scale`", kScaleRef,
                    Provenance::Ptxas);
        else if (mx && block && !scaleFits(kind, scale))
            c.error(DiagCode::InvalidValue, c.spanOf("scale vector size"),
                    "`" + kind + "` cannot be combined with `" + scale + "`", kScaleRef, Provenance::Ptxas);
        else if (mx && block && scale.empty() && kind == ".kind::mxf4nvf4")
            c.error(DiagCode::InvalidValue, c.spanOf("kind"),
                    "`.kind::mxf4nvf4` needs its scale vector size written: add `.block16`, `.block32`, "
                    "`.scale_vec::2X` or `.scale_vec::4X`",
                    kScaleRef, Provenance::Ptxas);
        else if (mx && block && scale.empty() && c.ptx < 88)
            // ptxas 13.0 reads the omitted size as `.block32`: "Feature '.block32' requires PTX ISA
            // .version 8.8"
            c.error(
                DiagCode::TargetMismatch, c.spanOf("block scaling"),
                "`.block_scale` without a vector size means `.block32`, which needs PTX ISA 8.8; this kernel "
                "declares .version " +
                    ptxText(c.ptx) + ": write `" +
                    (kind == ".kind::mxf4" ? ".scale_vec::2X" : ".scale_vec::1X") + "` or raise the .version",
                kScaleRef, Provenance::Ptxas);
    }
    // ptxas 13.0: "Feature '.kind::mxf4 with .sp modifier' not supported on .target 'sm_100f'".
    if (sp && (kind == ".kind::mxf4" || kind == ".kind::mxf4nvf4") && c.bit && !(c.bit & kArchTargets))
        c.targetError(c.spanOf("kind"), "`" + kind + "` with `.sp`", kArchTargets, kKindRef,
                      Provenance::Ptxas);
    const bool aTmem = in.operands.size() > 1 && in.operands[1].kind == OperandKind::Address;
    const std::string coll = c.value("collector usage");
    if (c.has(".ashift") && !aTmem)
        c.error(
            DiagCode::InvalidValue, c.spanOf("A shift"),
            "`.ashift` shifts A in Tensor Memory: it needs A as `[a-tmem]`, not a shared-memory descriptor",
            kMmaRef, Provenance::Ptxas);
    else if (c.has(".ashift") && mx)
        c.error(DiagCode::InvalidValue, c.spanOf("A shift"),
                "`.ashift` does not go with the block-scaled `" + kind + "`; remove it", kMmaRef,
                Provenance::Ptxas);
    else if (c.has(".ashift") && (coll == ".collector::a::fill" || coll == ".collector::a::use"))
        c.error(
            DiagCode::InvalidValue, c.spanOf("collector usage"),
            "`" + coll +
                "` cannot be combined with `.ashift` (a shifted A is not kept in the collector); "
                "use `.collector::a::discard` or `.collector::a::lastuse`, or drop the collector qualifier",
            kMmaRef, Provenance::Ptxas);
    // Operand list.
    std::string list = std::string("[d-tmem], a-desc or [a-tmem], b-desc, ") +
                       (sp ? "[sp-meta-tmem], " : "") + "idesc, " +
                       (block && !ws ? "[scale-A-tmem], [scale-B-tmem], " : "");
    const size_t fixed = 4 + (sp ? 1 : 0) + (block && !ws ? 2 : 0);
    std::string tail = ws ? "enable-input-d {, zero-column-mask-desc}"
                          : std::string(block ? "" : "{disable-output-lane}, ") + "enable-input-d" +
                                (block ? "" : " {, scale-input-d}");
    list += tail;
    const auto& ops = in.operands;
    if (ops.size() < fixed + 1 || ops.size() > fixed + 3) {
        (void)c.expectCount(ops.size() < fixed + 1 ? fixed + 1 : fixed + 2, list, kMmaRef);
        return c.finish();
    }
    c.expectAddress(ops[0], "the accumulator address d-tmem", kR32, true, kMmaRef);
    if (aTmem)
        c.expectAddress(ops[1], "A in Tensor Memory", kR32, true, kMmaRef);
    else
        c.expectScalar(ops[1], "the A descriptor a-desc", kR64, kMmaRef);
    c.expectScalar(ops[2], "the B descriptor b-desc", kR64, kMmaRef);
    size_t k = 3;
    if (sp) c.expectAddress(ops[k++], "the sparsity metadata sp-meta-tmem", kR32, true, kMmaRef);
    c.expectScalar(ops[k++], "the instruction descriptor idesc", kR32, kMmaRef);
    if (block && !ws) {
        c.expectAddress(ops[k++], "scale-A-tmem", kR32, true, kScaleRef);
        c.expectAddress(ops[k++], "scale-B-tmem", kR32, true, kScaleRef);
    }
    // The rest: [{disable-output-lane},] enable-input-d [, scale-input-d | zero-column-mask-desc].
    const bool dol = k < ops.size() && ops[k].kind == OperandKind::Vector;
    if (dol) {
        if (ws || block)
            c.error(DiagCode::InvalidValue, ops[k].span,
                    std::string("this form takes no disable-output-lane vector") +
                        (ws ? " (tcgen05.mma.ws)" : " (block-scaled kinds)") + "; remove it",
                    kMmaRef, Provenance::Ptxas);
        else
            c.expectVector(ops[k], "disable-output-lane", cta == ".cta_group::2" ? 8 : 4, kR32, kMmaRef);
        ++k;
    }
    if (k >= ops.size()) {
        (void)c.expectCount(k + 1, list, kMmaRef);
        return c.finish();
    }
    c.expectScalar(ops[k++], "enable-input-d", kPred, kMmaRef);
    if (k < ops.size()) {
        const Operand& last = ops[k];
        if (ws) {
            c.expectScalar(last, "the zero-column mask descriptor", kR64, kMmaRef);
        } else if (block) {
            c.error(DiagCode::InvalidValue, last.span,
                    "block-scaled kinds take no scale-input-d; remove `" + last.text + "`", kScaleRef,
                    Provenance::Ptxas);
        } else if (c.expectScalar(last, "scale-input-d", kImm, kMmaRef)) {
            if (kind == ".kind::f8f6f4")
                c.error(DiagCode::InvalidValue, last.span,
                        "scale-input-d exists for .kind::f16, .kind::tf32 and .kind::i8, not `" + kind +
                            "`; remove it",
                        kMmaRef, Provenance::Ptxas);
            else if (sp && dol && kind == ".kind::i8")
                // ptxas 13.0: "Arguments mismatch" for this one list only (without the vector it passes)
                c.error(
                    DiagCode::InvalidValue, last.span,
                    "`tcgen05.mma.sp` with `.kind::i8` takes scale-input-d or disable-output-lane, not both "
                    "(ptxas 13.0 has no such operand list); remove one",
                    kMmaRef, Provenance::Ptxas);
            else if (kind != ".kind::i8" && c.bit && !(c.bit & kScaleInputDTargets)) // ptxas: i8 passes
                c.targetError(last.span, "the scale-input-d operand", kScaleInputDTargets, kMmaRef,
                              Provenance::Ptxas);
            else if (last.imm < 0 || last.imm > 15)
                c.error(DiagCode::InvalidValue, last.span,
                        "scale-input-d = " + std::to_string(last.imm) +
                            " is outside [0, 15] (D is scaled by 2^-scale-input-d)",
                        kMmaRef, Provenance::Ptxas);
        }
        ++k;
    }
    if (k < ops.size()) (void)c.expectCount(k, list, kMmaRef);
    return c.finish();
}

Status checkMma(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& e) {
    return check(in, t, e, kMma, false, false);
}
Status checkMmaSp(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& e) {
    return check(in, t, e, kMmaSp, false, true);
}
Status checkMmaWs(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& e) {
    return check(in, t, e, kMmaWs, true, false);
}
Status checkMmaWsSp(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& e) {
    return check(in, t, e, kMmaWsSp, true, true);
}

} // namespace

std::vector<InstrEntry> tcgen05MmaEntries() {
    return {{&kMma, &checkMma}, {&kMmaSp, &checkMmaSp}, {&kMmaWs, &checkMmaWs}, {&kMmaWsSp, &checkMmaWsSp}};
}

} // namespace layoutscope::ptx
