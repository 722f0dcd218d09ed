// Warp-level matrix multiply-accumulate, dense (PTX ISA 9.2 §9.7.14.5.14 mma). The rules below as CUDA 13.0
// ptxas decides them (tests/data/ptxas_front/mma_sync.jsonl.gz):
//
//   mma.sync.aligned.shape.alayout.blayout{.satfinite}{.kind::f8f6f4}.dtype.atype.btype.ctype{.bitOp.popc}
//       d, a, b, c;        every operand a vector `{...}`, even of one register
//
//   atype.btype        shapes                          dtype / ctype       layouts
//   f16.f16            m8n8k4, m16n8k8, m16n8k16       f16|f32 / f16|f32   m8n8k4: any; else .row.col
//                      (d = c, except m8n8k4's .f32 d with a .f16 c)
//   bf16.bf16          m8n8k4 (ptxas only), m16n8k8/k16 f32 / f32           m8n8k4: any; else .row.col
//   tf32.tf32          m16n8k4, m16n8k8                f32 / f32           .row.col
//   f64.f64            m8n8k4, m16n8k4/k8/k16          f64 / f64           .row.col
//   s8|u8 x s8|u8      m8n8k16, m16n8k16, m16n8k32     s32 / s32           .row.col, .satfinite allowed
//   s4|u4 x s4|u4      m8n8k32, m16n8k32, m16n8k64     s32 / s32           .row.col, .satfinite allowed
//   b1.b1              m8n8k128, m16n8k128, m16n8k256  s32 / s32           .row.col, .xor|.and then .popc
//   e4m3|e5m2 (FP8)    m16n8k16 (PTX 8.7), m16n8k32    f32|f16 (8.7), d = c
//   .kind::f8f6f4      m16n8k32; e4m3 e5m2 e3m2 e2m3 e2m1; f32|f16, d = c; FP6/FP4: sm_120a/f, sm_121a/f
//
// ptxas 13.0 beyond the ISA text: `.sync` and `.aligned` are both required (no `.aligned`-less form),
// qualifier order is free (`.xor` before `.popc`), `.sync` may repeat; `.kind::f8f6f4` / `.kind::f16` /
// `.kind::tf32` / `.kind::i8` are target features (the tcgen05 targets; f8f6f4 also sm_120-like; i8 only
// sm_100a / sm_110a) that the FP8 forms take and ignore, every other non-FP6/FP4 form rejects.
// Operands: d takes registers or `_`, c also immediates; a and b registers only.
//
// The fragment sizes (registers per thread) are the ISA's: elements per thread (m*k/32 for A, n*k/32
// for B, m*n/32 for C and D) x element bits / 32, one 64-bit register per .f64 element, 8-bit containers
// for .kind::f8f6f4; m8n8k4 .f16/.bf16 runs one m8n8k4 per quad-pair (A, B: 2; C, D: 4 .f16x2 or 8 .f32).
// mma.sp and the .block_scale forms: rules_mma_sp.cpp.
#include "ptx/rules.hpp"

#include <algorithm>

namespace layoutscope::ptx {

namespace {

constexpr const char* kRef = "PTX ISA 9.2 §9.7.14.5.14 mma";

/// The forms this file does not model: sparse `mma.sp` (`.sp`, `.sp::ordered_metadata`) and block scaling
/// (rules_mma_sp.cpp).
bool claimsDense(const ParsedInstr& in) {
    return std::none_of(in.opcode.begin(), in.opcode.end(), [](const OpcodeToken& t) {
        return t.text == ".sp" || t.text.rfind(".sp::", 0) == 0 || t.text == ".block_scale" ||
               t.text.rfind(".kind::mx", 0) == 0;
    });
}

const InstrSpec kMma{
    "mma.sync",
    {"mma"},
    kAllTargets,
    64,
    kRef,
    {{"sync", {{".sync"}}, true, false, kRef, true},   // ".sync modifier required"; twice is ignored
     {"alignment", {{".aligned"}}, true, false, kRef}, // ".aligned modifier required for instruction 'mma'"
     // PTX versions as ptxas 13.0 gives them ("Feature '.m16n8k8' requires PTX ISA .version 6.5"); which
     // forms a target runs: turingForm() below.
     {"shape",
      {{".m8n8k4", kAllTargets, 64},
       {".m16n8k4", kAllTargets, 70},
       {".m16n8k8", kAllTargets, 65},
       {".m16n8k16", kAllTargets, 70},
       {".m8n8k16", kAllTargets, 65},
       {".m16n8k32", kAllTargets, 70},
       {".m8n8k32", kAllTargets, 65},
       {".m16n8k64", kAllTargets, 70},
       {".m8n8k128", kAllTargets, 70},
       {".m16n8k128", kAllTargets, 70},
       {".m16n8k256", kAllTargets, 70}},
      true,
      false,
      kRef},
     {"layout", {{".row"}, {".col"}}, true, true, kRef}, // alayout then blayout
     {"saturation", {{".satfinite"}}, false, false, kRef},
     // ptxas 13.0 knows the tcgen05 kinds on mma as target features; see kindRule() below.
     {"kind",
      {{".kind::f8f6f4", kTcgen05Targets | kSm120Like},
       {".kind::f16", kTcgen05Targets},
       {".kind::tf32", kTcgen05Targets},
       {".kind::i8", kSm100a | kSm110a}},
      false,
      false,
      kRef},
     {"type",
      {{".f16"},
       {".f32"},
       {".bf16"},
       {".tf32"},
       {".f64"},
       {".s32"},
       {".s8"},
       {".u8"},
       {".s4"},
       {".u4"},
       {".b1"},
       {".e4m3"},
       {".e5m2"},
       {".e3m2"},
       {".e2m3"},
       {".e2m1"}},
      true,
      true,
      kRef},
     {"bit operation", {{".xor"}, {".and", kAllTargets, 71}}, false, false, kRef},
     {"population count", {{".popc"}}, false, false, kRef}},
    {},
    &claimsDense};

/// The classes of atype.btype the ISA table lists, each with its shapes.
enum class Cls { F16, Bf16, Tf32, F64, I8, I4, B1, Fp8, F8f6f4 };
struct ClassInfo {
    Cls cls;
    const char* words;               ///< for messages
    std::vector<const char*> shapes; ///< the shapes the class takes
    std::vector<const char*> accums; ///< dtype (= ctype unless noted) values
};
const ClassInfo kClasses[] = {
    {Cls::F16, "`.f16` inputs", {".m8n8k4", ".m16n8k8", ".m16n8k16"}, {".f16", ".f32"}},
    // m8n8k4 .bf16 is not in the ISA table; ptxas 13.0 takes it like m8n8k4 .f16 (any layout, 2 + 2
    // registers).
    {Cls::Bf16, "`.bf16` inputs", {".m8n8k4", ".m16n8k8", ".m16n8k16"}, {".f32"}},
    {Cls::Tf32, "`.tf32` inputs", {".m16n8k4", ".m16n8k8"}, {".f32"}},
    {Cls::F64, "`.f64` inputs", {".m8n8k4", ".m16n8k4", ".m16n8k8", ".m16n8k16"}, {".f64"}},
    {Cls::I8, "8-bit integer inputs", {".m8n8k16", ".m16n8k16", ".m16n8k32"}, {".s32"}},
    {Cls::I4, "4-bit integer inputs", {".m8n8k32", ".m16n8k32", ".m16n8k64"}, {".s32"}},
    {Cls::B1, "`.b1` inputs", {".m8n8k128", ".m16n8k128", ".m16n8k256"}, {".s32"}},
    {Cls::Fp8, "FP8 inputs", {".m16n8k16", ".m16n8k32"}, {".f32", ".f16"}},
    {Cls::F8f6f4, "`.kind::f8f6f4` inputs", {".m16n8k32"}, {".f32", ".f16"}},
};

bool oneOf(const std::string& t, std::initializer_list<const char*> l) {
    return std::any_of(l.begin(), l.end(), [&](const char* s) { return t == s; });
}

/// The forms Turing (sm_75) runs, as ptxas 13.0 decides them
/// (tests/data/ptxas_front/mma_sync_pre90.jsonl.gz): f16 m8n8k4 and m16n8k8, s8/u8 m8n8k16, s4/u4 m8n8k32 and
/// b1 m8n8k128 `.xor`; every other form needs sm_80
/// ("Feature '.m16n8k16' requires .target sm_80 or higher"), FP8 sm_89.
bool turingForm(Cls cls, const std::string& shape, const std::string& bitOp) {
    switch (cls) {
    case Cls::F16:
        return shape == ".m8n8k4" || shape == ".m16n8k8";
    case Cls::I8:
        return shape == ".m8n8k16";
    case Cls::I4:
        return shape == ".m8n8k32";
    case Cls::B1:
        return shape == ".m8n8k128" && bitOp == ".xor";
    default:
        return false;
    }
}

/// The class of atype.btype, or nullptr when the pair is not in the table.
/// FP6 / FP4 inputs (any of them makes the form `.kind::f8f6f4`'s own) need that kind; FP8 pairs are the FP8
/// class with or without it.
const ClassInfo* classOf(const std::string& a, const std::string& b, bool f8f6f4) {
    const auto info = [](Cls c) { return &kClasses[static_cast<int>(c)]; };
    const auto f8 = [](const std::string& t) { return oneOf(t, {".e4m3", ".e5m2"}); };
    const auto f6f4 = [](const std::string& t) { return oneOf(t, {".e3m2", ".e2m3", ".e2m1"}); };
    if (f8f6f4 && (f6f4(a) || f6f4(b)) && (f8(a) || f6f4(a)) && (f8(b) || f6f4(b))) return info(Cls::F8f6f4);
    if (oneOf(a, {".s8", ".u8"}) && oneOf(b, {".s8", ".u8"})) return info(Cls::I8);
    if (oneOf(a, {".s4", ".u4"}) && oneOf(b, {".s4", ".u4"})) return info(Cls::I4);
    if (oneOf(a, {".e4m3", ".e5m2"}) && oneOf(b, {".e4m3", ".e5m2"})) return info(Cls::Fp8);
    if (a != b) return nullptr;
    if (a == ".f16") return info(Cls::F16);
    if (a == ".bf16") return info(Cls::Bf16);
    if (a == ".tf32") return info(Cls::Tf32);
    if (a == ".f64") return info(Cls::F64);
    if (a == ".b1") return info(Cls::B1);
    return nullptr;
}

int typeBits(const std::string& t, Cls cls) {
    if (cls == Cls::F8f6f4) return 8; // every f8f6f4 element sits in an 8-bit container
    if (t == ".f64") return 64;
    if (oneOf(t, {".f32", ".s32", ".tf32"})) return 32;
    if (oneOf(t, {".f16", ".bf16"})) return 16;
    if (oneOf(t, {".s4", ".u4"})) return 4;
    if (t == ".b1") return 1;
    return 8;
}

/// Registers of one fragment: `elems` elements per thread of type `t`.
size_t fragmentRegs(int elems, const std::string& t, Cls cls) {
    const int bits = typeBits(t, cls);
    return static_cast<size_t>(std::max(1, bits == 64 ? elems : elems * bits / 32));
}

/// d, a, b, c: four vectors of the fragment sizes; d takes registers or `_`, c also immediates.
Status checkOperands(Checker& c, const std::string (&tp)[4], Cls cls, int m, int n, int k) {
    size_t len[4];
    if (m == 8 && k == 4 && (cls == Cls::F16 || cls == Cls::Bf16)) { // one m8n8k4 per quad-pair
        len[0] = tp[0] == ".f32" ? 8 : 4;
        len[1] = len[2] = 2;
        len[3] = tp[3] == ".f32" ? 8 : 4;
    } else {
        len[0] = fragmentRegs(m * n / 32, tp[0], Cls::F16);
        len[1] = fragmentRegs(m * k / 32, tp[1], cls);
        len[2] = fragmentRegs(n * k / 32, tp[2], cls);
        len[3] = fragmentRegs(m * n / 32, tp[3], Cls::F16);
    }
    // ptxas 13.0 also takes two registers for B of the m16n8k16 FP8 forms (the ISA lists one; what the second
    // holds is unverified).
    const Operand* b = c.in.operands.size() > 2 ? &c.in.operands[2] : nullptr;
    if (cls == Cls::Fp8 && k == 16 && b && b->kind == OperandKind::Vector && b->elements.size() == 2)
        len[2] = 2;
    const std::string list = "d (" + std::to_string(len[0]) + " registers), a (" + std::to_string(len[1]) +
                             "), b (" + std::to_string(len[2]) + "), c (" + std::to_string(len[3]) + ")";
    if (!c.expectCount(4, list, kRef)) return c.finish();
    static const char* kRole[4] = {"d (the result fragment", "a (the A fragment", "b (the B fragment",
                                   "c (the accumulator fragment"};
    for (size_t i = 0; i < 4; ++i) {
        const uint32_t reg = tp[i] == ".f64" ? kR64 : kR32;
        const uint32_t accept = i == 0 ? reg | kSink : i == 3 ? reg | kImm : reg;
        c.expectVector(c.in.operands[i],
                       std::string(kRole[i]) + ", in " + (reg == kR64 ? "64" : "32") + "-bit registers)",
                       len[i], accept, kRef);
    }
    return c.finish();
}

Status checkMma(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env) {
    Checker c(in, t, env, kMma);
    if (!c.matchQualifiers()) return c.finish();
    std::vector<const Matched*> types, layouts;
    for (const auto& q : c.quals) {
        if (std::string_view(q.group->name) == "type") types.push_back(&q);
        if (std::string_view(q.group->name) == "layout") layouts.push_back(&q);
    }
    if (layouts.size() != 2) {
        c.error(DiagCode::InvalidValue, layouts.empty() ? c.spanOf("shape") : layouts.back()->tok->span,
                "mma names two layouts, alayout.blayout (e.g. `.row.col`); found " +
                    std::to_string(layouts.size()),
                kRef, Provenance::Ptxas);
        return c.finish();
    }
    if (types.size() != 4) {
        c.error(DiagCode::InvalidValue, types.empty() ? c.opcodeSpan() : types.back()->tok->span,
                "mma names four types, dtype.atype.btype.ctype (e.g. `.f32.f16.f16.f32`); found " +
                    std::to_string(types.size()),
                kRef, Provenance::Ptxas);
        return c.finish();
    }
    const std::string tp[4] = {types[0]->tok->text, types[1]->tok->text, types[2]->tok->text,
                               types[3]->tok->text};
    const std::string& dt = tp[0];
    const std::string &at = tp[1], &bt = tp[2], &ct = tp[3];
    const std::string kind = c.value("kind");
    const ClassInfo* ci = classOf(at, bt, kind == ".kind::f8f6f4");
    if (!ci) {
        const bool f6f4 = oneOf(at, {".e3m2", ".e2m3", ".e2m1"}) || oneOf(bt, {".e3m2", ".e2m3", ".e2m1"});
        c.error(DiagCode::InvalidValue, types[1]->tok->span,
                "`" + at + bt + "` is not an atype.btype pair of mma" +
                    (f6f4 && kind != ".kind::f8f6f4"
                         ? ": FP6/FP4 inputs (e3m2, e2m3, e2m1) need `.kind::f8f6f4` (sm_120a/f, sm_121a/f)"
                         : " (f16, bf16, tf32 or f64 pairs; s8/u8 or s4/u4 mixes; b1; e4m3/e5m2 mixes; with "
                           "`.kind::f8f6f4` any of e4m3, e5m2, e3m2, e2m3, e2m1)"),
                kRef, Provenance::Ptxas);
        return c.finish();
    }
    // `.kind::*`: the FP6/FP4 forms' qualifier. ptxas 13.0 also takes (and ignores) a kind its target knows
    // on the FP8 forms; on any other form it is an "Illegal modifier".
    if (!kind.empty() && ci->cls != Cls::Fp8 && ci->cls != Cls::F8f6f4)
        c.error(DiagCode::InvalidValue, c.spanOf("kind"),
                "`" + kind + "` is for FP8/FP6/FP4 inputs (`.kind::f8f6f4`): remove it from the " +
                    ci->words + " form",
                kRef, Provenance::Ptxas);
    if (ci->cls == Cls::F8f6f4 && c.bit && !(c.bit & kSm120Like))
        c.targetError(types[1]->tok->span, "mma with FP6/FP4 inputs", kSm120Like, kRef, Provenance::Ptxas);
    const std::string shape = c.value("shape");
    if (std::find_if(ci->shapes.begin(), ci->shapes.end(), [&](const char* s) { return shape == s; }) ==
        ci->shapes.end()) {
        std::string list;
        for (const char* s : ci->shapes) list += std::string(list.empty() ? "`" : ", `") + s + "`";
        c.error(DiagCode::InvalidValue, c.spanOf("shape"),
                std::string(ci->words) + " take the shapes " + list + "; found `" + shape + "`", kRef,
                Provenance::Ptxas);
    }
    // Targets before Hopper: the Turing forms everywhere, FP8 from sm_89, the f64 shapes beyond m8n8k4 from
    // sm_90 (PTX 7.8: "Feature '.m16n8k4 with double types' requires .target sm_90 or higher"), the rest from
    // sm_80.
    const bool f64Hopper = ci->cls == Cls::F64 && shape != ".m8n8k4";
    if (const TargetMask valid = ci->cls == Cls::Fp8                                    ? kSm89 | kSm90Up
                                 : f64Hopper                                            ? kSm90Up
                                 : turingForm(ci->cls, shape, c.value("bit operation")) ? kAllTargets
                                                                                        : kSm80Up;
        c.bit && !(c.bit & valid))
        c.targetError(c.spanOf("shape"), "mma `" + shape + "` with " + ci->words, valid, kRef,
                      Provenance::Ptxas);
    else if (f64Hopper && c.bit && c.ptx < 78)
        c.error(DiagCode::TargetMismatch, c.spanOf("shape"),
                "mma `" + shape +
                    "` with `.f64` inputs needs PTX ISA 7.8 or later; this kernel declares .version " +
                    ptxText(c.ptx),
                kRef, Provenance::Ptxas);
    // Accumulators: dtype and ctype from the class's list; equal, except for m8n8k4 .f16.
    const auto accumOk = [&](const std::string& x) {
        return std::any_of(ci->accums.begin(), ci->accums.end(), [&](const char* s) { return x == s; });
    };
    std::string accums;
    for (const char* s : ci->accums) accums += std::string(accums.empty() ? "`" : " or `") + s + "`";
    if (!accumOk(dt) || !accumOk(ct))
        c.error(DiagCode::InvalidValue, accumOk(dt) ? types[3]->tok->span : types[0]->tok->span,
                std::string(ci->words) + " accumulate in " + accums + " (dtype and ctype); found `" + dt +
                    "` / `" + ct + "`",
                kRef, Provenance::Ptxas);
    else if (dt != ct && !(ci->cls == Cls::F16 && shape == ".m8n8k4" && dt == ".f32"))
        c.error(
            DiagCode::InvalidValue, types[0]->tok->span,
            "dtype must equal ctype here (only m8n8k4 `.f16` takes `.f32` for dtype with `.f16` for ctype): "
            "write `" +
                ct + "` for dtype",
            kRef, Provenance::Ptxas);
    // Layouts: .row.col, except m8n8k4 .f16 (and .bf16) which take any of the four.
    const bool quadPair = shape == ".m8n8k4" && (ci->cls == Cls::F16 || ci->cls == Cls::Bf16);
    const std::string la = layouts[0]->tok->text, lb = layouts[1]->tok->text;
    if ((la != ".row" || lb != ".col") && !quadPair)
        c.error(DiagCode::InvalidValue, layouts[0]->tok->span,
                "`" + shape + "` with " + ci->words +
                    " takes the layouts `.row.col` only (A row-major, B "
                    "column-major); found `" +
                    la + lb + "`",
                kRef, Provenance::Ptxas);
    // Saturation: the integer forms only.
    if (c.find("saturation") && ci->cls != Cls::I8 && ci->cls != Cls::I4)
        c.error(DiagCode::InvalidValue, c.spanOf("saturation"),
                "`.satfinite` is for the s8/u8 and s4/u4 forms only: remove it", kRef, Provenance::Ptxas);
    // .b1: one bit operation, then .popc; nothing else takes them.
    const Matched *bitOp = c.find("bit operation"), *popc = c.find("population count");
    if (ci->cls == Cls::B1) {
        if (!bitOp || !popc)
            c.error(DiagCode::InvalidValue, c.opcodeSpan(),
                    "`.b1` mma needs its operation: `.xor.popc` or `.and.popc`", kRef, Provenance::Ptxas);
        else if (bitOp->position > popc->position)
            c.error(DiagCode::InvalidValue, popc->tok->span,
                    "write the bit operation before `.popc`: `" + bitOp->tok->text + ".popc`", kRef,
                    Provenance::Ptxas);
    } else if (bitOp || popc) {
        c.error(DiagCode::InvalidValue, (bitOp ? bitOp : popc)->tok->span,
                "`.xor` / `.and` / `.popc` belong to the `.b1` form only: remove them", kRef,
                Provenance::Ptxas);
    }
    // PTX versions of the FP8 forms (ptxas 13.0: "Feature 'mma with FP8 floating point type' requires
    // PTX ISA .version 8.4", "... and .m16n8k16 shape" / "... and FP16 accumulation" 8.7).
    if (ci->cls == Cls::Fp8 && c.bit) {
        const int need = shape == ".m16n8k16" || dt == ".f16" ? 87 : 84;
        if (c.ptx < need)
            c.error(DiagCode::TargetMismatch, types[1]->tok->span,
                    std::string("mma with FP8 inputs") +
                        (need == 87 ? (shape == ".m16n8k16" ? " and `.m16n8k16`" : " and `.f16` accumulation")
                                    : "") +
                        " needs PTX ISA " + ptxText(need) + " or later; this kernel declares .version " +
                        ptxText(c.ptx),
                    kRef, Provenance::Ptxas);
    }
    if (!c.diags.empty()) return c.finish();
    const int m = std::stoi(shape.substr(2, shape.find('n') - 2)); // ".m16n8k16" -> 16
    const int kk = std::stoi(shape.substr(shape.find('k') + 1));
    return checkOperands(c, tp, ci->cls, m, 8, kk);
}

} // namespace

std::vector<InstrEntry> mmaSyncEntries() {
    return {{&kMma, &checkMma}};
}

} // namespace layoutscope::ptx
