// cp.async.bulk.tensor (PTX ISA §9.7.9.27.1.2, seed 003/004; ref/tma.md §1; golden/ptxas README
// "cp.async.bulk.tensor"):
//
//   load:
//   cp.async.bulk.tensor.dim.dst.src{.load_mode}.completion{.multicast::cluster}{.cta_group}{.L2::cache_hint}
//              [dstMem], [tensorMap, {coords}], [mbar] {, {im2colInfo}} {, ctaMask} {, policy};
//   store: cp.async.bulk.tensor.dim.global.shared::cta{.load_mode}.bulk_group{.L2::cache_hint}
//              [tensorMap, {coords}], [srcMem] {, policy};
//
// Qualifier order is free (ptxas 13.0), except that the first state space is the destination and
// the second the source. Element-type qualifiers .b4x16_p64/.b6x16_p32/.b8x16 are accepted
// anywhere, at most two (README departure 8; handled for every instruction in Checker).
#include "ptx/rules.hpp"

namespace layoutscope::ptx {

namespace {

constexpr const char* kRef = "PTX ISA §9.7.9.27.1.2 cp.async.bulk.tensor";
constexpr const char* kModeRef = "PTX ISA §5.5 (tensor load modes) and §9.7.9.27.1.2; ptxas 13.0";
constexpr TargetMask kSm100Fam = kTcgen05Targets;
/// Where ptxas 13.0 takes .tile::gather4 and .im2col::w to .shared::cta (checked by hand: plain sm_100,
/// sm_103, sm_110 and sm_120 accept them; to .shared::cluster they need the arch-specific target).
constexpr TargetMask kCtaGatherTargets = kSm100Fam | kSm120Like | (kPlainTargets & ~kSm90);
constexpr const char* kNoType =
    "cp.async.bulk.tensor has no data type (the tensor map holds it); only the sub-byte element types "
    "`.b4x16_p64`, `.b6x16_p32` and `.b8x16` may be written";

const InstrSpec kTma{
    "cp.async.bulk.tensor",
    {"cp", ".async", ".bulk", ".tensor"},
    kSm90Up,
    80,
    kRef,
    {
        {"dimension", {{".1d"}, {".2d"}, {".3d"}, {".4d"}, {".5d"}}, true, false, kRef},
        {"state space", {{".shared::cluster"}, {".shared::cta"}, {".global"}}, false, true, kRef},
        {"load mode",
         {{".tile"},
          {".tile::gather4"},
          {".tile::scatter4"},
          {".im2col"},
          {".im2col::w"},
          {".im2col::w::128"},
          {".im2col_no_offs"}},
         false,
         false,
         kModeRef},
        {"completion mechanism", {{".mbarrier::complete_tx::bytes"}, {".bulk_group"}}, true, false, kRef},
        {"multicast", {{".multicast::cluster"}}, false, false, "PTX ISA §9.7.9.27.1.2 (.multicast::cluster)"},
        {"CTA group",
         {{".cta_group::1", kSm100Fam, 86}, {".cta_group::2", kSm100Fam, 86}},
         false,
         false,
         "PTX ISA §9.7.9.27.1.2 (.cta_group); ptxas 13.0"},
        {"cache hint", {{".L2::cache_hint"}}, false, false, kRef},
    },
    {{".shared", "the state space must say which shared memory: `.shared::cta` or `.shared::cluster`"},
     {".multicast::cluster::all", "the multicast qualifier is `.multicast::cluster` with a ctaMask operand"},
     {".b8", kNoType},
     {".b16", kNoType},
     {".b32", kNoType},
     {".b64", kNoType},
     {".f16", kNoType},
     {".f32", kNoType},
     {".u8", kNoType},
     {".u16", kNoType},
     {".u32", kNoType}},
};

enum class Dir { Load, Store };

/// The three copy directions: destination state space, then source.
struct DirRow {
    const char* dst;
    const char* src;
    Dir dir;
    const char* completion;
    bool multicast;
    bool ctaGroup;
    int minPtx; ///< ptxas 13.0: a .shared::cta destination needs PTX 8.6 (README "PTX version")
};
const DirRow kDirs[] = {
    {".shared::cluster", ".global", Dir::Load, ".mbarrier::complete_tx::bytes", true, true, 80},
    {".shared::cta", ".global", Dir::Load, ".mbarrier::complete_tx::bytes", false, true, 86},
    {".global", ".shared::cta", Dir::Store, ".bulk_group", false, false, 80},
};

/// Load modes: where each is valid (0 = not in that direction), dims, coordinates, im2col values.
struct ModeRow {
    const char* mode;
    TargetMask loadToCluster; ///< load with .shared::cluster destination
    TargetMask loadToCta;     ///< load with .shared::cta destination
    TargetMask store;         ///< store (.global.shared::cta)
    int minDim, maxDim;
    int coords; ///< 0: one per dimension
    int im2col; ///< -1: no im2colInfo operand; 0: dim-2 values; n: exactly n values
};
constexpr TargetMask kAll = kSm90Up;
const ModeRow kModes[] = {
    {".tile", kAll, kAll, kAll, 1, 5, 0, -1},
    {".tile::gather4", kSm100Fam, kCtaGatherTargets, 0, 2, 2, 5, -1},
    {".tile::scatter4", 0, 0, kSm100Fam, 2, 2, 5, -1},
    {".im2col", kAll, kAll, 0, 3, 5, 0, 0},
    {".im2col::w", kSm100Fam, kCtaGatherTargets, 0, 3, 5, 0, 2},
    {".im2col::w::128", kSm100Fam, kSm100Fam, 0, 3, 5, 0, 2},
    {".im2col_no_offs", 0, 0, kAll, 3, 5, 0, -1},
};

// ptxas 13.0 takes the shared-memory operands (destination, store source, mbarrier) bare as well as
// in brackets: `mbar`, `%r1`, `%h1` assemble exactly like `[mbar]`, `[%r1]`, `[%h1]`, on every target.
// An immediate stays rejected either way ("Immediate addresses allowed only for .local state space").
bool expectSharedAddress(Checker& c, const Operand& op, const std::string& role, uint32_t accept) {
    if (op.kind == OperandKind::Register || op.kind == OperandKind::Symbol)
        return c.expectScalar(op, role, accept, kRef);
    return c.expectAddress(op, role, accept, true, kRef);
}

std::string dimsWords(const ModeRow& m) {
    return m.minDim == m.maxDim
               ? "`." + std::to_string(m.minDim) + "d`"
               : "`." + std::to_string(m.minDim) + "d` to `." + std::to_string(m.maxDim) + "d`";
}

Status check(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env) {
    Checker c(in, t, env, kTma);
    c.matchQualifiers();

    // Direction: the first state space is the destination, the second the source.
    std::vector<const Matched*> spaces;
    for (const auto& m : c.quals)
        if (std::string_view(m.group->name) == "state space") spaces.push_back(&m);
    const DirRow* dir = nullptr;
    if (spaces.size() != 2) {
        c.error(DiagCode::InvalidValue, spaces.size() > 2 ? spaces[2]->tok->span : c.opcodeSpan(),
                "cp.async.bulk.tensor names two state spaces, destination then source: "
                "`.shared::cluster.global` or "
                "`.shared::cta.global` for a load, `.global.shared::cta` for a store; found " +
                    std::to_string(spaces.size()),
                kRef, Provenance::Ptxas);
    } else {
        for (const auto& d : kDirs)
            if (spaces[0]->tok->text == d.dst && spaces[1]->tok->text == d.src) dir = &d;
        if (!dir)
            c.error(DiagCode::InvalidValue, spaces[1]->tok->span,
                    "`" + spaces[0]->tok->text + "` to `" + spaces[1]->tok->text +
                        "` is not a copy direction (destination first): use `.shared::cluster.global` or "
                        "`.shared::cta.global` to load, `.global.shared::cta` to store",
                    kRef, Provenance::Ptxas);
    }
    if (dir && c.ptx < dir->minPtx)
        c.error(DiagCode::TargetMismatch, spaces[0]->tok->span,
                "a `" + std::string(dir->dst) + "` destination needs PTX ISA " + ptxText(dir->minPtx) +
                    " or later; this kernel declares .version " + ptxText(c.ptx) +
                    " (or load to `.shared::cluster`, valid since PTX 8.0)",
                kRef, Provenance::Ptxas);
    const std::string modeText = c.value("load mode").empty() ? ".tile" : c.value("load mode");
    const ModeRow* mode = nullptr;
    for (const auto& m : kModes)
        if (modeText == m.mode) mode = &m;
    const std::string dimText = c.value("dimension");
    const int dim = dimText.empty() ? 0 : dimText[1] - '0';

    if (dir && mode) {
        const bool load = dir->dir == Dir::Load;
        const bool toCluster = load && std::string_view(dir->dst) == ".shared::cluster";
        const TargetMask where = load ? (toCluster ? mode->loadToCluster : mode->loadToCta) : mode->store;
        const std::string form =
            "`" + modeText + "` " + (load ? "loading to `" + std::string(dir->dst) + "`" : "in a store");
        if (!mode->loadToCluster && !mode->loadToCta && load)
            c.error(DiagCode::InvalidValue, c.spanOf("load mode"),
                    "`" + modeText + "` is for stores (`.global.shared::cta`), not loads", kModeRef,
                    Provenance::Ptxas);
        else if (!mode->store && !load)
            c.error(
                DiagCode::InvalidValue, c.spanOf("load mode"),
                "`" + modeText + "` is for loads, not stores" +
                    (modeText == ".im2col" ? std::string("; a store uses `.im2col_no_offs`") : std::string()),
                kModeRef, Provenance::Ptxas);
        else if (!(where & c.bit))
            c.targetError(c.spanOf("load mode"), form, where, kModeRef, Provenance::Ptxas);
        if (dim && (dim < mode->minDim || dim > mode->maxDim))
            c.error(DiagCode::InvalidValue, c.spanOf("dimension"),
                    "`" + modeText + "` needs " + dimsWords(*mode) + "; this is `" + dimText + "`", kModeRef,
                    Provenance::Ptxas);
        const std::string comp = c.value("completion mechanism");
        if (!comp.empty() && comp != dir->completion)
            c.error(DiagCode::InvalidValue, c.spanOf("completion mechanism"),
                    std::string(load ? "a load" : "a store") + " completes through `" + dir->completion +
                        "`, not `" + comp + "`",
                    kRef, Provenance::Ptxas);
        if (c.find("multicast") && !dir->multicast)
            c.error(DiagCode::InvalidValue, c.spanOf("multicast"),
                    std::string("`.multicast::cluster` needs the `.shared::cluster` destination") +
                        (load ? "; write `.shared::cluster.global`" : "; stores cannot multicast"),
                    "PTX ISA §9.7.9.27.1.2 (.multicast::cluster)", Provenance::Ptxas);
        else if (c.find("multicast") && (c.bit & kSm120Like))
            c.warning(c.spanOf("multicast"),
                      "`.multicast::cluster` is advisory on " + c.target.sm +
                          " (no cluster multicast hardware)",
                      "ptxas 13.0 advisory", Provenance::Ptxas);
        else if (c.find("multicast") && (c.bit & kPlainTargets))
            c.warning(
                c.spanOf("multicast"),
                "`.multicast::cluster` is advisory on " + c.target.sm +
                    ": ptxas asks for an arch-specific target (sm_90a, sm_100a, sm_100f, sm_103a, sm_110a); "
                    "it may be much slower on some future GPUs",
                "ptxas 13.0 advisory", Provenance::Ptxas);
        if (c.find("CTA group") && !dir->ctaGroup)
            c.error(DiagCode::InvalidValue, c.spanOf("CTA group"),
                    "`" + c.value("CTA group") +
                        "` applies to loads (mbarrier completion) only; remove it from the store",
                    "PTX ISA §9.7.9.27.1.2 (.cta_group)", Provenance::Ptxas);

        // Operand list, built from the qualifiers as written.
        const size_t coords =
            mode->coords ? static_cast<size_t>(mode->coords) : static_cast<size_t>(std::max(dim, 1));
        const bool mbar = comp == ".mbarrier::complete_tx::bytes";
        const int im2col =
            load && mode->im2col >= 0 ? (mode->im2col ? mode->im2col : std::max(dim - 2, 1)) : -1;
        const bool mask = c.find("multicast") != nullptr;
        const bool hint = c.find("cache hint") != nullptr;
        std::string list = load ? "[dstMem], [tensorMap, {coords}]" : "[tensorMap, {coords}], [srcMem]";
        if (mbar) list += ", [mbar]";
        if (im2col > 0) list += ", {im2colInfo}";
        if (mask) list += ", ctaMask";
        if (hint) list += ", policy";
        const size_t n = 2 + mbar + (im2col > 0) + mask + hint;
        if (dim && c.expectCount(n, list, kRef)) {
            size_t i = 0;
            const Operand& tensor = in.operands[load ? 1 : 0];
            const Operand& smem = in.operands[load ? 0 : 1];
            i = 2;
            // A 16-bit base register is accepted, except on sm_120a (sm_120, sm_120f, sm_121*) loading to
            // .shared::cluster, where
            // ptxas's lowering fails ("Arguments mismatch for instruction 'mov'"), as for the tensor map.
            const bool sm120Cluster =
                (c.bit & (kSm120Like | kSm120 | kSm121)) && toCluster; // plain too (ptxas 13.0)
            const uint32_t smemKinds = kSharedSym | kR32 | kR64 | (sm120Cluster ? 0u : kR16);
            expectSharedAddress(c, smem, load ? "the destination" : "the source", smemKinds);
            if (tensor.kind != OperandKind::Address || tensor.elements.size() != 2) {
                c.error(DiagCode::InvalidValue, tensor.span,
                        "the tensor operand is `[tensorMap, {c0, …}]`: the tensor map's address and a vector "
                        "of " +
                            std::to_string(coords) + " coordinates",
                        kRef, Provenance::Ptxas);
            } else {
                // ptxas 13.0 on sm_120a rejects a 32- or 16-bit map register when loading to .shared::cluster
                // (its lowering fails: README departure 10); every other target/direction takes both.
                const uint32_t mapKinds = sm120Cluster ? kR64 : kR64 | kR32 | kR16;
                if (tensor.imm != 0)
                    c.error(DiagCode::Syntax, tensor.span, "the tensor map address takes no `+offset`", kRef,
                            Provenance::Ptxas);
                c.expectScalar(tensor.elements[0], "the tensor map (its generic address in a register)",
                               mapKinds, kRef);
                if (tensor.elements[1].kind == OperandKind::Vector &&
                    tensor.elements[1].elements.size() != coords)
                    c.error(DiagCode::InvalidValue, tensor.elements[1].span,
                            "`" + modeText + "` with `" + dimText + "` takes " + std::to_string(coords) +
                                " coordinates; this vector has " +
                                std::to_string(tensor.elements[1].elements.size()),
                            kModeRef, Provenance::Ptxas);
                else
                    c.expectVector(tensor.elements[1], "the coordinate vector", coords, kR32 | kImm, kRef);
            }
            if (mbar) expectSharedAddress(c, in.operands[i++], "the mbarrier", smemKinds);
            if (im2col > 0) {
                const Operand& v = in.operands[i++];
                if (v.kind == OperandKind::Vector && v.elements.size() != static_cast<size_t>(im2col))
                    c.error(DiagCode::InvalidValue, v.span,
                            "`" + modeText + "` with `" + dimText + "` takes " + std::to_string(im2col) +
                                " im2col values (.b16)" +
                                (mode->im2col ? std::string(" (wHalo, wOffset)")
                                              : std::string(" (one per spatial dimension)")) +
                                "; this vector has " + std::to_string(v.elements.size()),
                            kModeRef, Provenance::Ptxas);
                else
                    c.expectVector(v, "the im2col offsets", static_cast<size_t>(im2col), kR16 | kImm,
                                   kModeRef);
            }
            if (mask) c.expectScalar(in.operands[i++], "ctaMask", kR16 | kImm, kRef);
            if (hint) c.expectScalar(in.operands[i++], "the cache policy", kR64 | kImm, kRef);
        }
    }
    return c.finish();
}

} // namespace

std::vector<InstrEntry> tmaEntries() {
    return {{&kTma, &check}};
}

} // namespace layoutscope::ptx
