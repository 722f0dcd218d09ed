// Hopper warpgroup MMA (PTX ISA 9.2 §9.7.15; sm_90a only, PTX 8.0). The rules below as CUDA 13.0
// ptxas decides them (tests/data/ptxas_front/front.jsonl.gz):
//
//   wgmma.mma_async{.sp}.sync.aligned.m64nNkK{.satfinite}.dtype.atype.btype{.and.popc}
//        d, a-desc|{a}, b-desc {, sp-meta, sp-sel}, scale-d {, imm-scale-a, imm-scale-b {, imm-trans-a}
//        {, imm-trans-b}};
//   wgmma.fence.sync.aligned;   wgmma.commit_group.sync.aligned;   wgmma.wait_group.sync.aligned N;
//
// d: N/2 registers (N/4 for an .f16 accumulator); a from registers: 4; K per type (below), doubled
// by `.sp`. The scale/negate immediates exist for floating-point types, the transposes only for
// .f16/.bf16 (and for A only when A comes from shared memory).
#include "ptx/rules.hpp"

#include <algorithm>

namespace layoutscope::ptx {

namespace {

constexpr const char* kMmaRef = "PTX ISA 9.2 §9.7.15.5.2 wgmma.mma_async";
constexpr const char* kSpRef = "PTX ISA 9.2 §9.7.15.6.2 wgmma.mma_async.sp";
constexpr const char* kSyncRef = "PTX ISA 9.2 §9.7.15.7 wgmma.fence / commit_group / wait_group";

/// Every m64nNkK spelling (N a multiple of 8 up to 256, K any that some type takes); the type rules
/// below narrow it down.
std::vector<QualSpec> shapes() {
    static const std::vector<std::string> spellings = [] {
        std::vector<std::string> v;
        for (int k : {8, 16, 32, 64, 256})
            for (int n = 8; n <= 256; n += 8)
                v.push_back(".m64n" + std::to_string(n) + "k" + std::to_string(k));
        return v;
    }();
    std::vector<QualSpec> v;
    for (const auto& s : spellings) v.push_back({s.c_str()});
    return v;
}

InstrSpec mmaSpec(const char* name, std::vector<const char*> tokens, const char* ref) {
    return {
        name,
        std::move(tokens),
        kSm90a,
        80,
        ref,
        {{"sync", {{".sync"}}, true, false, ref, true},
         {"alignment", {{".aligned"}}, false, false, ref}, // optional; twice: "Multiple .aligned modifiers"
         {"sparsity", {{".sp", kSm90a, 82}}, false, false, ref},
         {"shape", shapes(), true, false, ref},
         {"saturation", {{".satfinite"}}, false, false, ref},
         {"type",
          {{".f16"},
           {".bf16"},
           {".tf32"},
           {".f32"},
           {".e4m3"},
           {".e5m2"},
           {".s8"},
           {".u8"},
           {".s32"},
           {".b1"}},
          true,
          true,
          ref},
         {"bit operation", {{".and"}}, false, false, ref},
         {"population count", {{".popc"}}, false, false, ref}},
        {}};
}
// `.sp` may stand anywhere among the qualifiers (ptxas 13.0 takes `wgmma.mma_async.sync.sp.aligned`).
const InstrSpec kMma = mmaSpec("wgmma.mma_async", {"wgmma", ".mma_async"}, kMmaRef);

InstrSpec syncSpec(const char* name, const char* tok) {
    return {name,
            {"wgmma", tok},
            kSm90a,
            80,
            kSyncRef,
            // ptxas 13.0: `.aligned` may be left out, and a repeated `.sync` is ignored.
            {{"sync", {{".sync"}}, true, false, kSyncRef, true},
             {"alignment", {{".aligned"}}, false, false, kSyncRef}},
            {}};
}
const InstrSpec kFence = syncSpec("wgmma.fence", ".fence");
const InstrSpec kCommit = syncSpec("wgmma.commit_group", ".commit_group");
const InstrSpec kWait = syncSpec("wgmma.wait_group", ".wait_group");

/// One dtype.atype.btype combination with its dense K.
struct TypeCombo {
    const char* d;
    const char* a;
    const char* b;
    int k;
};
const TypeCombo kCombos[] = {
    {".f16", ".f16", ".f16", 16},   {".f32", ".f16", ".f16", 16},   {".f32", ".bf16", ".bf16", 16},
    {".f32", ".tf32", ".tf32", 8},  {".f16", ".e4m3", ".e4m3", 32}, {".f16", ".e4m3", ".e5m2", 32},
    {".f16", ".e5m2", ".e4m3", 32}, {".f16", ".e5m2", ".e5m2", 32}, {".f32", ".e4m3", ".e4m3", 32},
    {".f32", ".e4m3", ".e5m2", 32}, {".f32", ".e5m2", ".e4m3", 32}, {".f32", ".e5m2", ".e5m2", 32},
    {".s32", ".s8", ".s8", 32},     {".s32", ".s8", ".u8", 32},     {".s32", ".u8", ".s8", 32},
    {".s32", ".u8", ".u8", 32},     {".s32", ".b1", ".b1", 256},
};

bool intN(int n) {
    return n == 8 || n == 16 || n == 24 || (n >= 32 && n % 16 == 0);
}

Status checkMma(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env) {
    const InstrSpec& spec = kMma;
    Checker c(in, t, env, spec);
    if (!c.matchQualifiers()) return c.finish();
    const bool sparse = c.find("sparsity") != nullptr;
    const char* ref = sparse ? kSpRef : kMmaRef;
    std::vector<const Matched*> types;
    for (const auto& m : c.quals)
        if (std::string_view(m.group->name) == "type") types.push_back(&m);
    if (types.size() != 3) {
        c.error(DiagCode::InvalidValue, types.empty() ? c.opcodeSpan() : types.back()->tok->span,
                std::string(spec.name) +
                    " names three types, dtype.atype.btype (e.g. `.f32.bf16.bf16`); found " +
                    std::to_string(types.size()),
                ref, Provenance::Ptxas);
        return c.finish();
    }
    const std::string dt = types[0]->tok->text, at = types[1]->tok->text, bt = types[2]->tok->text;
    const TypeCombo* combo = nullptr;
    for (const auto& k : kCombos)
        if (dt == k.d && at == k.a && bt == k.b) combo = &k;
    if (!combo || (sparse && combo->k == 256)) {
        c.error(DiagCode::InvalidValue, types[0]->tok->span,
                "`" + dt + at + bt + "` is not a type combination of " + spec.name +
                    " (dtype.atype.btype: .f16/.f32 with .f16.f16 or FP8 e4m3/e5m2; .f32 with .bf16.bf16 or "
                    ".tf32.tf32; .s32 with .s8/.u8" +
                    (sparse ? "" : " or .b1.b1") + ")",
                ref, Provenance::Ptxas);
        return c.finish();
    }
    const bool integer = dt == ".s32", b1 = at == ".b1";
    // ptxas 13.0: "Feature 'WGMMA with mixed integer types' requires PTX ISA .version 8.4" (dense and
    // sparse); sparse floating-point / FP8 / integer forms need 8.2 (`.sp` is gated above).
    if (integer && at != bt && c.bit && c.ptx < 84)
        c.error(DiagCode::TargetMismatch, types[1]->tok->span,
                "mixed integer types (`" + at + bt +
                    "`) need PTX ISA 8.4 or later; this kernel declares .version " + ptxText(c.ptx),
                ref, Provenance::Ptxas);
    // Shape: m64nNkK with K from the types (doubled by .sp) and N per class.
    const std::string shape = c.value("shape");
    const int n = std::stoi(shape.substr(5, shape.find('k') - 5));
    const int k = std::stoi(shape.substr(shape.find('k') + 1));
    const int wantK = combo->k * (sparse ? 2 : 1);
    if (k != wantK)
        c.error(DiagCode::InvalidValue, c.spanOf("shape"),
                "`" + at + "` inputs take K = " + std::to_string(wantK) + (sparse ? " (sparse)" : "") +
                    ": write `.m64n" + std::to_string(n) + "k" + std::to_string(wantK) + "`",
                ref, Provenance::Ptxas);
    if ((integer) && !intN(n))
        c.error(DiagCode::InvalidValue, c.spanOf("shape"),
                "integer wgmma takes N = 8, 16, 24 or a multiple of 16 from 32 to 256; found " +
                    std::to_string(n),
                ref, Provenance::Ptxas);
    if (c.find("saturation") && !integer)
        c.error(DiagCode::InvalidValue, c.spanOf("saturation"),
                "`.satfinite` is for the integer (.s32) forms only", ref, Provenance::Ptxas);
    if (c.find("saturation") && b1)
        c.error(DiagCode::InvalidValue, c.spanOf("saturation"), "`.satfinite` is not for `.b1`", ref,
                Provenance::Ptxas);
    const bool andOp = c.find("bit operation") != nullptr, popc = c.find("population count") != nullptr;
    if (b1 && (!andOp || !popc))
        c.error(DiagCode::InvalidValue, c.opcodeSpan(), "`.b1` wgmma needs `.and.popc` after its types", ref,
                Provenance::Ptxas);
    if (!b1 && (andOp || popc))
        c.error(DiagCode::InvalidValue, c.spanOf(andOp ? "bit operation" : "population count"),
                "`.and`/`.popc` belong to the `.b1` form only", ref, Provenance::Ptxas);
    if (c.diags.size()) return c.finish();
    // Operands.
    const auto& ops = in.operands;
    const bool aRegs = ops.size() > 1 && ops[1].kind == OperandKind::Vector;
    const bool trans = at == ".f16" || at == ".bf16";
    const size_t nScale = integer ? 0 : 2;
    const size_t nTrans = trans ? (aRegs ? 1 : 2) : 0;
    const size_t count = 3 + (sparse ? 2 : 0) + 1 + nScale + nTrans;
    std::string list = std::string("d, ") + (aRegs ? "{a}" : "a-desc") + ", b-desc" +
                       (sparse ? ", sp-meta, sp-sel" : "") + ", scale-d" +
                       (nScale ? ", imm-scale-a, imm-scale-b" : "") +
                       (nTrans == 2   ? ", imm-trans-a, imm-trans-b"
                        : nTrans == 1 ? ", imm-trans-b"
                                      : "");
    if (!c.expectCount(count, list, ref)) return c.finish();
    const size_t dLen = static_cast<size_t>(dt == ".f16" ? n / 4 : n / 2);
    c.expectVector(ops[0], "d (the accumulator, " + std::to_string(dLen) + " registers)", dLen, kR32, ref);
    if (aRegs)
        c.expectVector(ops[1], "a (from registers)", 4, kR32, ref);
    else
        c.expectScalar(ops[1], "a-desc (the shared-memory matrix descriptor)", kR64 | kImm, ref);
    c.expectScalar(ops[2], "b-desc (the shared-memory matrix descriptor)", kR64 | kImm, ref);
    size_t i = 3;
    if (sparse) {
        c.expectScalar(ops[i++], "sp-meta (the sparsity metadata)", kR32 | kImm, ref);
        c.expectScalar(ops[i++], "sp-sel (the sparsity selector)", kImm, ref);
    }
    // scale-d: a predicate, or the immediate 0 / 1 ("unexpected value '16', expected to be 0 or 1").
    if (c.expectScalar(ops[i], "scale-d", kPred | kImm, ref) && ops[i].kind == OperandKind::Immediate &&
        ops[i].imm != 0 && ops[i].imm != 1)
        c.error(DiagCode::InvalidValue, ops[i].span, "scale-d is a predicate or 0 / 1; found " + ops[i].text,
                ref, Provenance::Ptxas);
    ++i;
    for (size_t s = 0; s < nScale; ++s, ++i)
        if (c.expectScalar(ops[i], s ? "imm-scale-b" : "imm-scale-a", kImm, ref) && ops[i].imm != 1 &&
            ops[i].imm != -1)
            c.error(DiagCode::InvalidValue, ops[i].span,
                    std::string(s ? "imm-scale-b" : "imm-scale-a") + " is 1 or -1 (negate); found " +
                        ops[i].text,
                    ref, Provenance::Ptxas);
    for (size_t s = 0; s < nTrans; ++s, ++i)
        if (c.expectScalar(ops[i], "imm-trans", kImm, ref) && ops[i].imm != 0 && ops[i].imm != 1)
            c.error(DiagCode::InvalidValue, ops[i].span,
                    "imm-trans is 0 (K-major) or 1 (transposed); found " + ops[i].text, ref,
                    Provenance::Ptxas);
    return c.finish();
}

Status checkNoOps(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env, const InstrSpec& s) {
    Checker c(in, t, env, s);
    c.matchQualifiers();
    c.expectCount(0, "no operands", kSyncRef);
    return c.finish();
}
Status checkFence(const ParsedInstr& i, const PtxTarget& t, const PtxEnvironment& e) {
    return checkNoOps(i, t, e, kFence);
}
Status checkCommit(const ParsedInstr& i, const PtxTarget& t, const PtxEnvironment& e) {
    return checkNoOps(i, t, e, kCommit);
}
Status checkWait(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env) {
    Checker c(in, t, env, kWait);
    c.matchQualifiers();
    if (c.expectCount(1, "N (the number of wgmma groups that may stay pending)", kSyncRef))
        c.expectScalar(in.operands[0], "N", kImm, kSyncRef);
    return c.finish();
}

} // namespace

std::vector<InstrEntry> wgmmaEntries() {
    return {{&kMma, &checkMma}, {&kFence, &checkFence}, {&kCommit, &checkCommit}, {&kWait, &checkWait}};
}

} // namespace layoutscope::ptx
