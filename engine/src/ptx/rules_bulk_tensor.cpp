// The tensor bulk operations besides cp.async.bulk.tensor (rules_tma.cpp): reduction into global
// memory and prefetch into L2 (PTX ISA 9.2 §9.7.9.25.5.3, §9.7.9.25.5.4; CCCL
// cp_reduce_async_bulk_tensor.h; rules as CUDA 13.0 ptxas decides them,
// tests/data/ptxas_bulk/bulk.jsonl.gz):
//
//   cp.reduce.async.bulk.tensor.dim.global.shared::cta.redOp{.load_mode}.bulk_group{.L2::cache_hint}
//                  [tensorMap, {coords}], [srcMem] {, policy};
//   cp.async.bulk.prefetch.tensor.dim.L2.global{.load_mode}{.L2::cache_hint}
//                  [tensorMap, {coords}] {, {im2colInfo}} {, policy};
//
// No data type is written: the tensor map holds it ("Unexpected instruction types specified").
#include "ptx/rules.hpp"

namespace layoutscope::ptx {

namespace {

constexpr const char* kRedRef = "PTX ISA 9.2 §9.7.9.25.5.3 cp.reduce.async.bulk.tensor";
constexpr const char* kPfRef = "PTX ISA 9.2 §9.7.9.25.5.4 cp.async.bulk.prefetch.tensor";
constexpr const char* kModeRef = "PTX ISA 9.2 §5.5 (tensor load modes); ptxas 13.0";
constexpr const char* kNoType = "the tensor map holds the element type: write no type qualifier";

QualGroup dims(const char* ref) {
    return {"dimension", {{".1d"}, {".2d"}, {".3d"}, {".4d"}, {".5d"}}, true, false, ref};
}
std::vector<IllegalQual> noTypes() {
    std::vector<IllegalQual> v;
    for (const char* t : {".b8", ".b16", ".b32", ".b64", ".u8", ".u16", ".u32", ".u64", ".s32", ".s64",
                          ".f16", ".bf16", ".f32", ".f64"})
        v.push_back({t, kNoType});
    return v;
}

/// A load mode of these instructions: targets, dimensions, coordinates, im2col values.
struct Mode {
    const char* text;
    TargetMask targets;
    int minDim, maxDim;
    int coords; ///< 0: one per dimension
    int im2col; ///< -1: no im2colInfo; 0: dim-2 values; n: exactly n
};
const Mode kRedModes[] = {
    {".tile", kSm90Up, 1, 5, 0, -1},
    {".im2col_no_offs", kSm90Up, 3, 5, 0, -1},
    {".tile::scatter4", kTcgen05Targets, 2, 2, 5, -1},
};
const Mode kPfModes[] = {
    {".tile", kSm90Up, 1, 5, 0, -1},
    {".im2col", kSm90Up, 3, 5, 0, 0},
    {".im2col::w", kTcgen05Targets, 3, 5, 0, 2},
    {".im2col::w::128", kTcgen05Targets, 3, 5, 0, 2},
    {".tile::gather4", kTcgen05Targets, 2, 2, 5, -1},
};

QualGroup modes(const Mode* m, size_t n) {
    QualGroup g{"load mode", {}, false, false, kModeRef};
    for (size_t i = 0; i < n; ++i) g.values.push_back({m[i].text});
    return g;
}

const InstrSpec kReduceTensor{
    "cp.reduce.async.bulk.tensor",
    {"cp", ".reduce", ".async", ".bulk", ".tensor"},
    kSm90Up,
    80,
    kRedRef,
    {dims(kRedRef),
     {"state space", {{".global"}, {".shared::cta"}, {".shared::cluster"}}, false, true, kRedRef},
     {"reduction",
      {{".add"}, {".min"}, {".max"}, {".inc"}, {".dec"}, {".and"}, {".or"}, {".xor"}},
      true,
      false,
      kRedRef},
     modes(kRedModes, std::size(kRedModes)),
     {"completion mechanism", {{".bulk_group"}}, true, false, kRedRef},
     {"cache hint", {{".L2::cache_hint"}}, false, false, kRedRef}},
    noTypes(),
};

const InstrSpec kPrefetchTensor{
    "cp.async.bulk.prefetch.tensor",
    {"cp", ".async", ".bulk", ".prefetch", ".tensor"},
    kSm90Up,
    80,
    kPfRef,
    {dims(kPfRef),
     {"cache level", {{".L2"}}, true, false, kPfRef},
     {"state space", {{".global"}}, true, false, kPfRef},
     modes(kPfModes, std::size(kPfModes)),
     {"cache hint", {{".L2::cache_hint"}}, false, false, kPfRef}},
    noTypes(),
};

const Mode* findMode(const Checker& c, const Mode* m, size_t n) {
    const std::string v = c.value("load mode").empty() ? ".tile" : c.value("load mode");
    for (size_t i = 0; i < n; ++i)
        if (v == m[i].text) return &m[i];
    return nullptr;
}

/// Mode gates and dimension; returns the coordinate count (0 when the dimension is unknown).
size_t modeChecks(Checker& c, const Mode& m, const char* what) {
    const std::string dimText = c.value("dimension");
    const int dim = dimText.empty() ? 0 : dimText[1] - '0';
    if (!(m.targets & c.bit))
        c.targetError(c.spanOf("load mode"), "`" + std::string(m.text) + "` in " + what, m.targets, kModeRef,
                      Provenance::Ptxas);
    if (dim && (dim < m.minDim || dim > m.maxDim))
        c.error(DiagCode::InvalidValue, c.spanOf("dimension"),
                "`" + std::string(m.text) + "` needs " +
                    (m.minDim == m.maxDim
                         ? "`." + std::to_string(m.minDim) + "d`"
                         : "`." + std::to_string(m.minDim) + "d` to `." + std::to_string(m.maxDim) + "d`") +
                    "; this is `" + dimText + "`",
                kModeRef, Provenance::Ptxas);
    if (!dim) return 0;
    return m.coords ? static_cast<size_t>(m.coords) : static_cast<size_t>(dim);
}

/// `[tensorMap, {c0, …}]`: a 16/32/64-bit register and `coords` 32-bit registers or immediates.
void tensorOperand(Checker& c, const Operand& op, size_t coords, const char* ref) {
    if (op.kind != OperandKind::Address || op.elements.size() != 2) {
        c.error(DiagCode::InvalidValue, op.span,
                "the tensor operand is `[tensorMap, {c0, …}]`: the tensor map's address and a vector of " +
                    std::to_string(coords) + " coordinates",
                ref, Provenance::Ptxas);
        return;
    }
    if (op.imm != 0)
        c.error(DiagCode::Syntax, op.span, "the tensor map address takes no `+offset`", ref,
                Provenance::Ptxas);
    c.expectScalar(op.elements[0], "the tensor map (its generic address in a register)", kR64 | kR32 | kR16,
                   ref);
    c.expectVector(op.elements[1], "the coordinate vector", coords, kR32 | kImm, ref);
}

Status checkReduceTensor(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env) {
    Checker c(in, t, env, kReduceTensor);
    c.matchQualifiers();
    std::vector<const Matched*> sp;
    for (const auto& m : c.quals)
        if (std::string_view(m.group->name) == "state space") sp.push_back(&m);
    if (sp.size() != 2 || sp[0]->tok->text != ".global" || sp[1]->tok->text != ".shared::cta")
        c.error(DiagCode::InvalidValue, sp.size() == 2 ? sp[0]->tok->span : c.opcodeSpan(),
                "cp.reduce.async.bulk.tensor reduces shared::cta data into a global tensor: write "
                "`.global.shared::cta` (destination first)",
                kRedRef, Provenance::Ptxas);
    const Mode* m = findMode(c, kRedModes, std::size(kRedModes));
    if (!m) return c.finish();
    const size_t coords = modeChecks(c, *m, "cp.reduce.async.bulk.tensor");
    const bool pol = c.find("cache hint") != nullptr;
    if (coords &&
        c.expectCount(2 + pol,
                      pol ? "[tensorMap, {coords}], [srcMem], policy" : "[tensorMap, {coords}], [srcMem]",
                      kRedRef)) {
        tensorOperand(c, in.operands[0], coords, kRedRef);
        const Operand& src = in.operands[1];
        // As for cp.async.bulk.tensor stores: the shared source may be written bare.
        const uint32_t smem = kSharedSym | kR16 | kR32 | kR64 | kOpenSym;
        if (src.kind == OperandKind::Register || src.kind == OperandKind::Symbol)
            c.expectScalar(src, "the source", smem, kRedRef);
        else
            c.expectAddress(src, "the source", smem, true, kRedRef);
        if (pol) c.expectScalar(in.operands[2], "the cache policy", kR64 | kImm, kRedRef);
    }
    return c.finish();
}

Status checkPrefetchTensor(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env) {
    Checker c(in, t, env, kPrefetchTensor);
    c.matchQualifiers();
    const Mode* m = findMode(c, kPfModes, std::size(kPfModes));
    if (!m) return c.finish();
    const size_t coords = modeChecks(c, *m, "cp.async.bulk.prefetch.tensor");
    const std::string dimText = c.value("dimension");
    const int dim = dimText.empty() ? 0 : dimText[1] - '0';
    const int im2col = m->im2col < 0 ? 0 : (m->im2col ? m->im2col : std::max(dim - 2, 1));
    const bool pol = c.find("cache hint") != nullptr;
    std::string list = "[tensorMap, {coords}]";
    if (im2col) list += ", {im2colInfo}";
    if (pol) list += ", policy";
    if (coords && c.expectCount(1 + (im2col > 0) + pol, list, kPfRef)) {
        tensorOperand(c, in.operands[0], coords, kPfRef);
        size_t i = 1;
        if (im2col)
            c.expectVector(in.operands[i++], "the im2col offsets", static_cast<size_t>(im2col), kR16 | kImm,
                           kModeRef);
        if (pol) c.expectScalar(in.operands[i++], "the cache policy", kR64 | kImm, kPfRef);
    }
    return c.finish();
}

} // namespace

std::vector<InstrEntry> bulkTensorEntries() {
    return {{&kReduceTensor, &checkReduceTensor}, {&kPrefetchTensor, &checkPrefetchTensor}};
}

} // namespace layoutscope::ptx
