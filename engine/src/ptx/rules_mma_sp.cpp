// Warp-level mma with sparse A and the block-scaled mma (PTX ISA 9.2 §9.7.14.6.3 mma.sp /
// mma.sp::ordered_metadata; §9.7.14.5.14 mma `.block_scale`). The rules below as CUDA 13.0 ptxas decides
// them (tests/data/ptxas_front/mma_sp.jsonl.gz):
//   mma.spvariant.sync.aligned.shape.row.col{.satfinite}{.kind}{.block_scale{.scale_vec}}.dtype.atype.btype.ctype{.stype}
//       d, a, b, c, e, f {, scale-a-data, {byte-id-a, thread-id-a}, scale-b-data, {byte-id-b, thread-id-b}}
//   mma.sync.aligned.kind.block_scale{.scale_vec}.shape.row.col.f32.atype.btype.f32.stype (no e, f)
//   class (atype.btype)       sparse shapes (sel max)       dense b.s.   dtype = ctype        kind / target
//   f16                       m16n8k16 (3), m16n8k32 (1*)   -            f16 | f32            -
//   bf16                      m16n8k16 (3), m16n8k32 (1)    -            f32                  -
//   tf32                      m16n8k8 (3), m16n8k16 (1)     -            f32                  -
//   s8|u8 x s8|u8             m16n8k32 (1), m16n8k64 (0)    -            s32 (.satfinite)     -
//   s4|u4 x s4|u4             m16n8k64 (1), m16n8k128 (0)   -            s32 (.satfinite)     -
//   e4m3|e5m2 (FP8)           m16n8k64 (0)                  -            f32 (8.4, sm_89); f16: sm_120-like
//   .kind::f8f6f4 (FP6/FP4)   m16n8k64 (0)                  -            f16 | f32            sm_120-like
//   .kind::mxf8f6f4           m16n8k64                      m16n8k32     f32, .ue8m0, 1X      sm_120-like
//   .kind::mxf4  (e2m1)       m16n8k128                     m16n8k64     f32, .ue8m0, 2X      sm_120-like
//   .kind::mxf4nvf4 (e2m1)    m16n8k128                     m16n8k64     f32, 2X .ue8m0 | 4X .ue4m3
//   (*) m16n8k32 .f16 with .f32 accumulators: ptxas 13.0 takes the selector 0..3. mma.sp: sm_80 and later.
// Fragments (registers per thread): A holds M x K/2 stored elements (sparse) or M x K; B, C, D as dense
// mma; 8-bit containers for .kind::f8f6f4 / .kind::mxf8f6f4 elements, packed 4-bit for .kind::mxf4*.
// e: the metadata, a 32-bit register; f: the sparsity selector, an integer constant. Any `.kind` with
// sparse A needs `.sp::ordered_metadata` (PTX 8.5); the FP8 forms take and ignore a kind their target knows.
#include "ptx/rules.hpp"

#include <algorithm>

namespace layoutscope::ptx {

namespace {

constexpr const char* kRef = "PTX ISA 9.2 §9.7.14.6.3 mma.sp";
constexpr const char* kDenseRef = "PTX ISA 9.2 §9.7.14.5.14 mma (.block_scale)";

bool isSparseToken(const OpcodeToken& t) {
    return t.text == ".sp" || t.text.rfind(".sp::", 0) == 0;
}
bool claimsSparse(const ParsedInstr& in) {
    return std::any_of(in.opcode.begin(), in.opcode.end(), isSparseToken);
}
bool claimsBlockScale(const ParsedInstr& in) {
    return !claimsSparse(in) && std::any_of(in.opcode.begin(), in.opcode.end(), [](const OpcodeToken& t) {
        return t.text == ".block_scale" || t.text.rfind(".kind::mx", 0) == 0;
    });
}

std::vector<QualSpec> specs(std::initializer_list<const char*> texts) {
    std::vector<QualSpec> v;
    for (const char* t : texts) v.push_back({t});
    return v;
}

/// `.kind::mxf4*` with sparse A: arch-specific targets only (ptxas 13.0: ".kind::mxf4 with .sp modifier" not
/// on sm_100f, "Sparse mma with block scale" not on sm_120f).
constexpr TargetMask kMxSparse = kSm100a | kSm103a | kSm110a | kSm120a | kSm121a;

std::vector<QualGroup> groups(const char* ref, bool sparse) {
    std::vector<QualGroup> g{
        {"sync", {{".sync"}}, true, false, ref, true},
        {"alignment", {{".aligned"}}, true, false, ref},
        {"shape",
         specs({".m8n8k4", ".m16n8k4", ".m16n8k8", ".m16n8k16", ".m8n8k16", ".m16n8k32", ".m8n8k32",
                ".m16n8k64", ".m8n8k128", ".m16n8k128", ".m16n8k256"}),
         true, false, ref},
        {"layout", {{".row"}, {".col"}}, true, true, ref},
        {"saturation", {{".satfinite"}}, false, false, ref},
        {"kind",
         {{".kind::f8f6f4", kTcgen05Targets | kSm120Like},
          {".kind::f16", kTcgen05Targets},
          {".kind::tf32", kTcgen05Targets},
          {".kind::i8", kSm100a | kSm110a},
          {".kind::mxf8f6f4", kTcgen05Targets | kSm120Like},
          {".kind::mxf4", sparse ? kMxSparse : kTcgen05Targets | kSm120Like},
          {".kind::mxf4nvf4", sparse ? kMxSparse : kTcgen05Targets | kSm120Like}},
         false,
         false,
         ref},
        {"block scaling", {{".block_scale"}}, false, false, ref},
        {"scale vector size",
         {{".scale_vec::1X"}, {".scale_vec::2X"}, {".scale_vec::4X"}},
         false,
         false,
         ref},
        {"type",
         specs({".f16", ".f32", ".bf16", ".tf32", ".f64", ".s32", ".s8", ".u8", ".s4", ".u4", ".b1", ".e4m3",
                ".e5m2", ".e3m2", ".e2m3", ".e2m1", ".ue8m0", ".ue4m3"}),
         true, true, ref},
        {"bit operation", {{".xor"}, {".and"}}, false, false, ref},
        {"population count", {{".popc"}}, false, false, ref}};
    const std::vector<QualSpec> sp{{".sp", kAllTargets, 71}, {".sp::ordered_metadata", kAllTargets, 85}};
    if (sparse) g.insert(g.begin(), QualGroup{"sparsity", sp, true, false, ref});
    return g;
}

const InstrSpec kMmaSp{"mma.sp", {"mma"}, kSm80Up, 71, kRef, groups(kRef, true), {}, &claimsSparse};
const InstrSpec kMmaScaled{"mma.sync (block scale)", {"mma"}, kSm90Up,          87, kDenseRef,
                           groups(kDenseRef, false), {},      &claimsBlockScale};

bool oneOf(const std::string& t, std::initializer_list<const char*> l) {
    return std::any_of(l.begin(), l.end(), [&](const char* s) { return t == s; });
}
bool f8(const std::string& t) {
    return oneOf(t, {".e4m3", ".e5m2"});
}
bool f8f6f4(const std::string& t) {
    return oneOf(t, {".e4m3", ".e5m2", ".e3m2", ".e2m3", ".e2m1"});
}

struct Form {        ///< what a form is made of, once its qualifiers are read
    std::string cls; ///< "f16", "bf16", "tf32", "i8", "i4", "fp8", "f8f6f4", "mxf8f6f4", "mxf4"
    std::vector<const char*> shapes; ///< the shapes the class takes
    std::vector<const char*> accums; ///< dtype = ctype values
    int aBits = 0, bBits = 0;        ///< element (container) bits of A and B
};

/// The class of a form from its kind and atype.btype (empty cls: none).
Form classOf(const std::string& kind, const std::string& a, const std::string& b, bool sparse, bool scaled) {
    Form f;
    const auto set = [&](const char* c, std::vector<const char*> sh, std::vector<const char*> acc, int bits) {
        f.cls = c, f.shapes = std::move(sh), f.accums = std::move(acc), f.aBits = f.bBits = bits;
    };
    if (scaled && (kind == ".kind::mxf4" || kind == ".kind::mxf4nvf4")) {
        if (a == ".e2m1" && b == ".e2m1") set("mxf4", {sparse ? ".m16n8k128" : ".m16n8k64"}, {".f32"}, 4);
    } else if (scaled && kind == ".kind::mxf8f6f4") {
        if (f8f6f4(a) && f8f6f4(b)) set("mxf8f6f4", {sparse ? ".m16n8k64" : ".m16n8k32"}, {".f32"}, 8);
    } else if (kind == ".kind::f8f6f4" && f8f6f4(a) && f8f6f4(b) && !(f8(a) && f8(b))) {
        set("f8f6f4", {".m16n8k64"}, {".f32", ".f16"}, 8);
    } else if (f8(a) && f8(b)) {
        set("fp8", {".m16n8k64"}, {".f32", ".f16"}, 8);
    } else if (oneOf(a, {".s8", ".u8"}) && oneOf(b, {".s8", ".u8"})) {
        set("i8", {".m16n8k32", ".m16n8k64"}, {".s32"}, 8);
    } else if (oneOf(a, {".s4", ".u4"}) && oneOf(b, {".s4", ".u4"})) {
        set("i4", {".m16n8k64", ".m16n8k128"}, {".s32"}, 4);
    } else if (a == b && a == ".f16") {
        set("f16", {".m16n8k16", ".m16n8k32"}, {".f16", ".f32"}, 16);
    } else if (a == b && a == ".bf16") {
        set("bf16", {".m16n8k16", ".m16n8k32"}, {".f32"}, 16);
    } else if (a == b && a == ".tf32") {
        set("tf32", {".m16n8k8", ".m16n8k16"}, {".f32"}, 32);
    }
    return f;
}

std::string listOf(const std::vector<const char*>& v, const char* sep) {
    std::string s;
    for (const char* x : v) s += std::string(s.empty() ? "`" : sep) + x + "`";
    return s;
}

/// The largest sparsity selector ptxas 13.0 takes ("Argument 6 ... out of range"): the ISA's thread
/// counts (§9.7.14.6.1: one thread 0..3, a pair 0..1, all four 0), except m16n8k32 .f16 with .f32
/// accumulators, which ptxas also takes with 0..3.
int selectorMax(const Form& f, int k, const std::string& dtype) {
    if (f.cls == "f16") return k == 16 || dtype == ".f32" ? 3 : 1;
    if (f.cls == "bf16") return k == 16 ? 3 : 1;
    if (f.cls == "tf32") return k == 8 ? 3 : 1;
    if (f.cls == "i8") return k == 32 ? 1 : 0;
    if (f.cls == "i4") return k == 64 ? 1 : 0;
    return 0;
}

/// ptxas 13.0 also takes the metadata e as a one-register vector `{%r}` or a predicate where it expands
/// mma.sp without checking e's type: bf16 and tf32 always; f16 and 8-bit integers with
/// ::ordered_metadata, or `.sp` on sm_90/sm_90a; FP8 on the sm_120 targets; every class before Hopper
/// (mma_sp_pre90.jsonl.gz); elsewhere "Type of argument does not match formal parameter 'e'".
bool laxMetadata(const Checker& c, const Form& f, bool ordered) {
    if (f.cls == "bf16" || f.cls == "tf32" || (c.bit & kPreHopper)) return true;
    if (f.cls == "f16" || f.cls == "i8") return ordered || (c.bit & (kSm90 | kSm90a));
    if (f.cls == "fp8") return c.bit & (kSm120 | kSm120Like);
    return false;
}

/// d, a, b, c (vectors of the fragment sizes), then e (a 32-bit register) and f (an integer constant in
/// the shape's selector range) of mma.sp, then the block-scale operands.
Status checkOperands(Checker& c, const Form& f, const std::string& shape, const std::string (&tp)[5],
                     bool sparse, bool scaled) {
    const int m = 16, n = 8, k = std::stoi(shape.substr(shape.find('k') + 1));
    const auto regs = [](int elems, int bits) { return size_t(std::max(1, elems * bits / 32)); };
    const int accBits = tp[0] == ".f16" ? 16 : 32;
    const size_t len[4] = {regs(m * n / 32, accBits), regs(m * (sparse ? k / 2 : k) / 32, f.aBits),
                           regs(n * k / 32, f.bBits), regs(m * n / 32, accBits)};
    const size_t count = 4 + (sparse ? 2 : 0) + (scaled ? 4 : 0);
    std::string list = "d (" + std::to_string(len[0]) + " registers), a (" + std::to_string(len[1]) +
                       "), b (" + std::to_string(len[2]) + "), c (" + std::to_string(len[3]) + ")";
    if (sparse) list += ", e (the metadata), f (the sparsity selector)";
    if (scaled) list += ", scale-a-data, {byte-id-a, thread-id-a}, scale-b-data, {byte-id-b, thread-id-b}";
    if (!c.expectCount(count, list, c.spec.ref)) return c.finish();
    static const char* kRole[4] = {"d (the result fragment", "a (the A fragment", "b (the B fragment",
                                   "c (the accumulator fragment"};
    static const uint32_t kAccept[4] = {kR32 | kSink, kR32, kR32, kR32 | kImm};
    for (size_t i = 0; i < 4; ++i)
        c.expectVector(c.in.operands[i], std::string(kRole[i]) + ", in 32-bit registers)", len[i], kAccept[i],
                       c.spec.ref);
    size_t at = 4;
    if (sparse) {
        const Operand& e = c.in.operands[4];
        const bool lax = laxMetadata(c, f, c.value("sparsity") == ".sp::ordered_metadata");
        const bool laxForm =
            lax &&
            ((e.kind == OperandKind::Vector && e.elements.size() == 1 && c.kindOf(e.elements[0]) == kR32) ||
             (e.kind != OperandKind::Vector && c.kindOf(e) == kPred));
        if (!laxForm) c.expectScalar(e, "e (the sparsity metadata, a 32-bit register)", kR32, c.spec.ref);
        const Operand& sel = c.in.operands[5];
        if (c.expectScalar(sel, "f (the sparsity selector, an integer constant)", kImm, c.spec.ref)) {
            const int max = selectorMax(f, k, tp[0]);
            const long long v = sel.kind == OperandKind::Immediate ? (long long)sel.imm : 0;
            if (v < 0 || v > max)
                c.error(DiagCode::InvalidValue, sel.span,
                        "the sparsity selector of " + shape + " with " + f.cls + " inputs is " +
                            (max ? "0.." + std::to_string(max) : std::string("0")) + "; found " +
                            std::to_string(v) + " (" +
                            (max == 3   ? "one thread of each quad holds the metadata"
                             : max == 1 ? "a thread pair: 0 for T0 T1, 1 for T2 T3"
                                        : "all four threads of each quad hold the metadata") +
                            ", PTX ISA §9.7.14.6.1)",
                        c.spec.ref, Provenance::Ptxas);
        }
        at = 6;
    }
    // Block scaling: scale-x-data a 32-bit register (or `{%r}`), then {byte-id-x, thread-id-x}: 16-bit
    // registers or constants; ptxas 13.0 checks the constants: byte-id 0..3 (1X), 0 or 2 (2X), 0 (4X);
    // thread-id 0..1 for A, 0..3 for B.
    const std::string vs = c.value("scale vector size");
    const int vec = vs == ".scale_vec::4X" ? 4 : vs == ".scale_vec::2X" || f.cls == "mxf4" ? 2 : 1;
    if (scaled)
        for (size_t j = 0; j < 2; ++j) {
            const char* who = j ? "b" : "a";
            const Operand& data = c.in.operands[at + 2 * j];
            if (!(data.kind == OperandKind::Vector && data.elements.size() == 1 &&
                  c.kindOf(data.elements[0]) == kR32))
                c.expectScalar(data, std::string("scale-") + who + "-data (a 32-bit register)", kR32,
                               c.spec.ref);
            const Operand& ids = c.in.operands[at + 2 * j + 1];
            if (!c.expectVector(ids, std::string("{byte-id-") + who + ", thread-id-" + who + "}", 2,
                                kR16 | kImm, c.spec.ref))
                continue;
            const Operand &byte = ids.elements[0], &thread = ids.elements[1];
            if (byte.kind == OperandKind::Immediate && (vec == 1   ? byte.imm < 0 || byte.imm > 3
                                                        : vec == 2 ? byte.imm != 0 && byte.imm != 2
                                                                   : byte.imm != 0))
                c.error(DiagCode::InvalidValue, byte.span,
                        std::string("byte-id-") + who + " of `.scale_vec::" + std::to_string(vec) + "X` is " +
                            (vec == 1   ? "0..3"
                             : vec == 2 ? "0 or 2"
                                        : "0") +
                            "; found " + std::to_string(byte.imm),
                        c.spec.ref, Provenance::Ptxas);
            const int tmax = j ? 3 : 1;
            if (thread.kind == OperandKind::Immediate && (thread.imm < 0 || thread.imm > tmax))
                c.error(DiagCode::InvalidValue, thread.span,
                        std::string("thread-id-") + who + " is 0.." + std::to_string(tmax) + "; found " +
                            std::to_string(thread.imm),
                        c.spec.ref, Provenance::Ptxas);
        }
    return c.finish();
}

Status checkMma(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env, bool sparse) {
    const InstrSpec& spec = sparse ? kMmaSp : kMmaScaled;
    const char* ref = spec.ref;
    Checker c(in, t, env, spec);
    if (!c.matchQualifiers()) return c.finish();
    std::vector<const Matched*> types, layouts;
    for (const auto& q : c.quals) {
        if (std::string_view(q.group->name) == "type") types.push_back(&q);
        if (std::string_view(q.group->name) == "layout") layouts.push_back(&q);
    }
    const bool scaled = c.find("block scaling") != nullptr;
    const size_t wantTypes = scaled ? 5 : 4;
    if (layouts.size() != 2 || layouts[0]->tok->text != ".row" || layouts[1]->tok->text != ".col") {
        c.error(DiagCode::InvalidValue, layouts.empty() ? c.spanOf("shape") : layouts[0]->tok->span,
                std::string(spec.name) + " takes the layouts `.row.col` (A row-major, B column-major)", ref,
                Provenance::Ptxas);
        return c.finish();
    }
    if (types.size() != wantTypes) {
        c.error(DiagCode::InvalidValue, types.empty() ? c.opcodeSpan() : types.back()->tok->span,
                std::string(spec.name) + " names " +
                    (scaled ? "five types, dtype.atype.btype.ctype.stype"
                            : "four types, dtype.atype.btype.ctype") +
                    "; found " + std::to_string(types.size()),
                ref, Provenance::Ptxas);
        return c.finish();
    }
    std::string tp[5];
    for (size_t i = 0; i < wantTypes; ++i) tp[i] = types[i]->tok->text;
    const std::string kind = c.value("kind"), shape = c.value("shape");
    const Form f = classOf(kind, tp[1], tp[2], sparse, scaled);
    if (f.cls.empty()) {
        c.error(DiagCode::InvalidValue, types[1]->tok->span,
                "`" + tp[1] + tp[2] + "`" + (kind.empty() ? "" : " with `" + kind + "`") +
                    " is not a form of " + spec.name +
                    (sparse ? " (f16, bf16, tf32 pairs; s8/u8 or s4/u4 mixes; e4m3/e5m2 mixes; FP6/FP4 with "
                              "`.kind::f8f6f4`; e2m1 with `.kind::mxf4` / `.kind::mxf4nvf4`)"
                            : " (`.kind::mxf8f6f4` with e4m3, e5m2, e3m2, e2m3, e2m1; `.kind::mxf4` / "
                              "`.kind::mxf4nvf4` with e2m1)"),
                ref, Provenance::Ptxas);
        return c.finish();
    }
    // Kind: `.kind::f8f6f4` is the FP6/FP4 forms' and block scaling goes with the mx kinds; with sparse A
    // any kind needs ::ordered_metadata ("Illegal modifier '.sp'").
    if (sparse && !kind.empty() && c.value("sparsity") != ".sp::ordered_metadata")
        c.error(DiagCode::InvalidValue, c.spanOf("kind"),
                "`" + kind + "` with sparse A needs `.sp::ordered_metadata` (not `.sp`)", ref,
                Provenance::Ptxas);
    const bool mx = f.cls == "mxf4" || f.cls == "mxf8f6f4";
    if (mx != scaled)
        c.error(DiagCode::InvalidValue, scaled ? c.spanOf("block scaling") : c.spanOf("kind"),
                scaled ? "`.block_scale` goes with `.kind::mxf8f6f4`, `.kind::mxf4` or `.kind::mxf4nvf4`"
                       : "`" + kind + "` needs `.block_scale` and a scale type (`.ue8m0`)",
                ref, Provenance::Ptxas);
    // The FP8 forms take (and ignore) any kind their target knows, as dense mma does (rules_mma_sync.cpp).
    if (!mx && !kind.empty() && f.cls != "f8f6f4" && f.cls != "fp8")
        c.error(DiagCode::InvalidValue, c.spanOf("kind"),
                "`" + kind + "` is for FP8/FP6/FP4 inputs: remove it from the " + f.cls + " form", ref,
                Provenance::Ptxas);
    if (c.find("scale vector size") && !scaled)
        c.error(DiagCode::InvalidValue, c.spanOf("scale vector size"),
                "`" + c.value("scale vector size") + "` is for `.block_scale` forms only", ref,
                Provenance::Ptxas);
    if (scaled && mx) {
        const std::string vs = c.value("scale vector size"), st = tp[4];
        const bool nv = kind == ".kind::mxf4nvf4";
        const bool ok =
            f.cls == "mxf8f6f4" ? (vs.empty() || vs == ".scale_vec::1X") && st == ".ue8m0"
            : nv ? (vs == ".scale_vec::2X" && st == ".ue8m0") || (vs == ".scale_vec::4X" && st == ".ue4m3")
                 : (vs.empty() || vs == ".scale_vec::2X") && st == ".ue8m0";
        if (!ok)
            c.error(DiagCode::InvalidValue, types[4]->tok->span,
                    "`" + kind + "` takes " +
                        (f.cls == "mxf8f6f4" ? std::string("`.scale_vec::1X` (the default) with `.ue8m0`")
                         : nv
                             ? std::string("`.scale_vec::2X` with `.ue8m0` or `.scale_vec::4X` with `.ue4m3`")
                             : std::string("`.scale_vec::2X` (the default) with `.ue8m0`")) +
                        "; found `" + (vs.empty() ? "(none)" : vs) + "` with `" + st + "` (PTX ISA Table 36)",
                    ref, Provenance::Ptxas);
    } else if (!scaled && wantTypes == 4 && oneOf(tp[0], {".ue8m0", ".ue4m3"})) {
        c.error(DiagCode::InvalidValue, types[0]->tok->span, "a scale type is for `.block_scale` forms", ref,
                Provenance::Ptxas);
    }
    // Targets: FP8 from sm_89; FP6/FP4 and the block-scaled kinds are sm_120-family features.
    if (f.cls == "fp8" && c.bit && !(c.bit & (kSm89 | kSm90Up)))
        c.targetError(types[1]->tok->span, "FP8 mma.sp", kSm89 | kSm90Up, ref, Provenance::Ptxas);
    if ((f.cls == "f8f6f4" || mx) && c.bit && !(c.bit & kSm120Like))
        c.targetError(types[1]->tok->span, std::string(spec.name) + " with `" + kind + "`", kSm120Like, ref,
                      Provenance::Ptxas);
    // FP8 with .f16 accumulators: sm_120-like targets and ::ordered_metadata only ("mma with F16 accumulator
    // and F8 floating point type" not supported elsewhere; "Illegal modifier '.sp'" there).
    if (f.cls == "fp8" && tp[0] == ".f16" && c.bit && !(c.bit & kSm120Like))
        c.targetError(types[0]->tok->span,
                      std::string(spec.name) + " with FP8 inputs and `.f16` accumulators", kSm120Like, ref,
                      Provenance::Ptxas);
    else if (f.cls == "fp8" && tp[0] == ".f16" && sparse && c.value("sparsity") != ".sp::ordered_metadata")
        c.error(DiagCode::InvalidValue, c.spanOf("sparsity"),
                "FP8 with `.f16` accumulators needs `.sp::ordered_metadata` (not `.sp`)", ref,
                Provenance::Ptxas);
    if (f.cls == "fp8" && c.bit && c.ptx < 84)
        c.error(DiagCode::TargetMismatch, types[1]->tok->span,
                std::string(spec.name) + " with FP8 inputs needs PTX ISA 8.4 or later; .version is " +
                    ptxText(c.ptx),
                ref, Provenance::Ptxas);
    if (std::find_if(f.shapes.begin(), f.shapes.end(), [&](const char* x) { return shape == x; }) ==
        f.shapes.end())
        c.error(DiagCode::InvalidValue, c.spanOf("shape"),
                std::string(spec.name) + " with " + f.cls + " inputs takes " + listOf(f.shapes, ", `") +
                    "; found `" + shape + "`",
                ref, Provenance::Ptxas);
    const auto accumOk = [&](const std::string& x) {
        return std::any_of(f.accums.begin(), f.accums.end(), [&](const char* a) { return x == a; });
    };
    if (!accumOk(tp[0]) || tp[3] != tp[0])
        c.error(DiagCode::InvalidValue, types[0]->tok->span,
                std::string(spec.name) + " with " + f.cls + " inputs accumulates in " +
                    listOf(f.accums, " or `") + ", dtype equal to ctype; found `" + tp[0] + "` / `" + tp[3] +
                    "`",
                ref, Provenance::Ptxas);
    if (c.find("saturation") && f.cls != "i8" && f.cls != "i4")
        c.error(DiagCode::InvalidValue, c.spanOf("saturation"),
                "`.satfinite` is for the s8/u8 and s4/u4 forms only: remove it", ref, Provenance::Ptxas);
    for (const char* g : {"bit operation", "population count"})
        if (c.find(g))
            c.error(DiagCode::InvalidValue, c.spanOf(g),
                    "`.xor` / `.and` / `.popc` are for the dense `.b1` mma", ref, Provenance::Ptxas);
    if (!c.diags.empty()) return c.finish();
    return checkOperands(c, f, shape, tp, sparse, scaled);
}

Status checkSparse(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env) {
    return checkMma(in, t, env, true);
}
Status checkScaled(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env) {
    return checkMma(in, t, env, false);
}

} // namespace

std::vector<InstrEntry> mmaSpEntries() {
    return {{&kMmaSp, &checkSparse}, {&kMmaScaled, &checkScaled}};
}

} // namespace layoutscope::ptx
