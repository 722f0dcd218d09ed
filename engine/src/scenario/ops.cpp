// Scenario instructions: parse (ptx_parse.cpp), validate as ptxas would (ptx_validate.cpp), then
// lower to an executable ScenarioInstr, checking what only the scenario knows: declared names,
// buffer sizes, where buffers and barriers live, and coordinate values.
#include "layoutscope/ptx/instruction.hpp"
#include "ptx/lex.hpp"
#include "ptx/rules.hpp"
#include "scenario/im2col.hpp"
#include "scenario/parse.hpp"
#include "scenario/tma_extra.hpp"

#include <algorithm>
#include <limits>

namespace layoutscope::scn {
namespace {

constexpr const char* kTmaRef = "PTX ISA 9.2 §9.7.9.25.5.2 (cp.async.bulk.tensor)";
constexpr const char* kMbarRef = "PTX ISA 9.2 §9.7.13.15 (mbarrier)";

std::string displayText(std::string_view text) {
    std::string out;
    bool space = false;
    for (char c : text) {
        if (lex::isSpace(c)) {
            space = !out.empty();
            continue;
        }
        if (space) out += ' ';
        space = false;
        out += c;
    }
    return out;
}

bool startsWith(const ParsedInstr& in, std::initializer_list<const char*> toks) {
    size_t i = 0;
    for (const char* t : toks) {
        if (i >= in.opcode.size() || in.opcode[i].text != t) return false;
        ++i;
    }
    return true;
}

int tokenIndex(const ParsedInstr& in, std::string_view t) {
    for (size_t i = 0; i < in.opcode.size(); ++i)
        if (in.opcode[i].text == t) return static_cast<int>(i);
    return -1;
}

struct Lowering {
    Context& ctx;
    const ParsedInstr& in;

    bool fail(DiagCode code, SourceSpan span, std::string msg, std::string ref = kFormatRef,
              Provenance prov = Provenance::Assumption) {
        ctx.error(code, span, std::move(msg), std::move(ref), prov);
        return false;
    }

    // An immediate or a let name, in [lo, hi].
    std::optional<int64_t> value(const Operand& op, const char* what, int64_t lo, int64_t hi,
                                 const char* ref = kFormatRef, Provenance prov = Provenance::Assumption) {
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
    struct Place {
        uint32_t cta = 0;
        uint32_t addr = 0;
        uint32_t room = 0; ///< bytes from addr to the end of the buffer
        std::string name;
    };
    std::optional<Place> smemOperand(const Operand& op, bool wantBarrier, const char* role) {
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
                 std::string("expected the name of a declared ") +
                     (wantBarrier ? "mbarrier" : "smem buffer"));
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
                     (wantBarrier ? "an mbarrier ('mbarrier " : "an smem buffer ('smem ") + base.text +
                     " ...')");
            return std::nullopt;
        }
        if (op.imm < 0 || op.imm >= size || (wantBarrier && op.imm != 0)) {
            fail(DiagCode::InvalidValue, op.span,
                 "offset " + std::to_string(op.imm) + " is outside " + base.text + " (" +
                     std::to_string(size) + " B)");
            return std::nullopt;
        }
        p.addr += static_cast<uint32_t>(op.imm);
        p.room = size - static_cast<uint32_t>(op.imm);
        return p;
    }

    // [tensorMap, {c0, ...}]
    bool tensorOperand(const Operand& op, int dim, const OpcodeToken& dimTok, TensorMap& map,
                       std::array<int32_t, kMaxTensorRank>& coords, int coordCount = -1) {
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
    static uint64_t footprint(const TensorMap& m) {
        const auto& p = m.p;
        const uint32_t bits = isSubByteType(p.dataType)
                                  ? (p.dataType == TensorDataType::T16U4_ALIGN8B ? 4 : 8)
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

    bool fits(const Place& p, const TensorMap& m, const Operand& op) {
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

    bool tma(ScenarioInstr& out);
    bool mbarrier(ScenarioInstr& out);
};

bool Lowering::tma(ScenarioInstr& out) {
    // im2col (scenario_im2col.cpp): loads take an im2colInfo vector after [mbar]; .im2col_no_offs stores
    // none.
    std::optional<Im2colQualifier> i2c;
    for (const auto& t : in.opcode)
        if (!i2c) i2c = im2colQualifier(t.text);
    // tmaextra: .tile::gather4 / .tile::scatter4 (5 coordinates) and .cta_group (scenario_tma_extra.cpp).
    const bool four = tokenIndex(in, ".tile::gather4") >= 0 || tokenIndex(in, ".tile::scatter4") >= 0;
    const uint32_t ctaGroup = tokenIndex(in, ".cta_group::2") >= 0 ? 2 : 1;
    const OpcodeToken* dimTok = nullptr;
    int dim = 0;
    for (const auto& t : in.opcode)
        if (t.text.size() == 3 && t.text[0] == '.' && t.text[1] >= '1' && t.text[1] <= '5' &&
            t.text[2] == 'd')
            dimTok = &t, dim = t.text[1] - '0';
    if (!dimTok)
        return fail(DiagCode::InvalidValue, in.opcode[0].span, "cp.async.bulk.tensor needs .1d ... .5d",
                    kTmaRef, Provenance::PtxText);
    const int g = tokenIndex(in, ".global");
    const int cta = tokenIndex(in, ".shared::cta");
    const int cluster = tokenIndex(in, ".shared::cluster");
    const int sh = cta >= 0 ? cta : cluster;
    if (g < 0 || sh < 0)
        return fail(DiagCode::InvalidValue, in.span,
                    "cp.async.bulk.tensor needs a .shared::cta/.shared::cluster and a .global state space",
                    kTmaRef, Provenance::PtxText);
    const bool load = sh < g;
    const bool cacheHint = tokenIndex(in, ".L2::cache_hint") >= 0;
    const bool multicast = tokenIndex(in, ".multicast::cluster") >= 0;
    const size_t info = load && i2c ? 1 : 0; // im2colInfo operand
    const size_t want = (load ? 3 : 2) + info + (multicast ? 1 : 0) + (cacheHint ? 1 : 0);
    if (in.operands.size() != want)
        return fail(DiagCode::InvalidValue, in.span,
                    "expected " + std::to_string(want) + " operands (" +
                        (load ? std::string("[dstMem], [tensorMap, {coords}], [mbar]") +
                                    (info ? ", {im2colInfo}" : "") + (multicast ? ", ctaMask" : "")
                              : std::string("[tensorMap, {coords}], [srcMem]")) +
                        (cacheHint ? ", cache-policy" : "") + "), found " +
                        std::to_string(in.operands.size()),
                    kTmaRef, Provenance::PtxText);
    if (!load) {
        if (cluster >= 0 || multicast || tokenIndex(in, ".bulk_group") < 0)
            return fail(DiagCode::InvalidValue, in.span, "a tile store is .global.shared::cta...bulk_group",
                        kTmaRef, Provenance::PtxText);
        TmaTileStore st;
        auto src = smemOperand(in.operands[1], false, "srcMem");
        if (!tensorOperand(in.operands[0], dim, *dimTok, st.map, st.coords, four ? 5 : -1) || !src)
            return false;
        if (auto f = staticCopyFaults(st.map, true, ctx.arch, false)) // seed 004: no .b4x16_p64 store
            return fail(f->code, in.operands[0].span, f->message, f->ruleRef, f->provenance);
        if (src->cta != ctx.issuingCta)
            return fail(DiagCode::InvalidValue, in.operands[1].span,
                        src->name + " is in CTA " + std::to_string(src->cta) +
                            " but a store reads the issuing CTA " + std::to_string(ctx.issuingCta) +
                            "'s .shared::cta memory",
                        kTmaRef, Provenance::PtxText);
        if (!fits(*src,
                  four  ? fourRowBoxMap(st.map)
                  : i2c ? im2colBoxMap(st.map, i2c->mode, 0)
                        : st.map,
                  in.operands[1]))
            return false;
        st.srcCta = src->cta;
        st.srcAddr = src->addr;
        st.arch = ctx.arch;
        out.op = four ? scatter4Op(st) : i2c ? im2colStoreOp(st) : ScenarioOp{st};
        return true;
    }
    if (tokenIndex(in, ".mbarrier::complete_tx::bytes") < 0)
        return fail(DiagCode::InvalidValue, in.span,
                    "a tile load completes with .mbarrier::complete_tx::bytes", kTmaRef, Provenance::PtxText);
    if (multicast && cluster < 0)
        return fail(DiagCode::InvalidValue, in.opcode[tokenIndex(in, ".multicast::cluster")].span,
                    ".multicast::cluster needs a .shared::cluster destination",
                    std::string(kTmaRef) + "; tma.md §1", Provenance::Ptxas);
    TmaTileLoad ld;
    auto dst = smemOperand(in.operands[0], false, "dstMem");
    const bool mapOk = tensorOperand(in.operands[1], dim, *dimTok, ld.map, ld.coords, four ? 5 : -1);
    auto bar = smemOperand(in.operands[2], true, "mbar");
    if (!dst || !mapOk || !bar) return false;
    if (auto f = staticCopyFaults(ld.map, false, ctx.arch, cluster >= 0)) // seed 004: sm_120a cluster loads
        return fail(f->code, in.operands[1].span, f->message, f->ruleRef, f->provenance);
    if (cta >= 0 && dst->cta != ctx.issuingCta)
        return fail(DiagCode::InvalidValue, in.operands[0].span,
                    dst->name + " is in CTA " + std::to_string(dst->cta) +
                        " but .shared::cta writes the issuing CTA " + std::to_string(ctx.issuingCta) +
                        " (use .shared::cluster to write another CTA)",
                    "tma.md §10", Provenance::PtxText);
    if (ctaGroup == 2 && !multicast && (bar->cta & ~1u) != (dst->cta & ~1u))
        return fail(DiagCode::InvalidValue, in.operands[2].span,
                    "mbarrier " + bar->name + " is in CTA " + std::to_string(bar->cta) +
                        ", outside the CTA pair of dstMem " + dst->name + " (CTA " +
                        std::to_string(dst->cta) +
                        "); with .cta_group::2 it may be in dstMem's CTA or its peer",
                    "tma.md §10", Provenance::PtxText);
    if (ctaGroup == 1 && bar->cta != dst->cta)
        return fail(DiagCode::InvalidValue, in.operands[2].span,
                    "mbarrier " + bar->name + " is in CTA " + std::to_string(bar->cta) + " but dstMem " +
                        dst->name + " is in CTA " + std::to_string(dst->cta) +
                        " (without .cta_group they must be in the same CTA)",
                    "tma.md §10", Provenance::PtxText);
    std::vector<int64_t> i2cInfo; // {offW, offH, offD} or {wHalo, wOffset}
    if (info) {
        const Operand& v = in.operands[3];
        if (v.kind != OperandKind::Vector)
            return fail(DiagCode::InvalidValue, v.span, "expected the im2colInfo vector {...} after [mbar]",
                        kTmaRef, Provenance::PtxText);
        for (const Operand& e : v.elements) {
            auto x = value(e, "an im2colInfo entry", 0, 0xFFFF, "PTX: im2colInfo entries are 16 bits",
                           Provenance::PtxText);
            if (!x) return false;
            i2cInfo.push_back(*x);
        }
    }
    const uint32_t wHalo =
        i2c && i2c->mode != TmaIm2colMode::Im2col && !i2cInfo.empty() ? uint32_t(i2cInfo[0]) : 0;
    if (!fits(*dst,
              four  ? fourRowBoxMap(ld.map)
              : i2c ? im2colBoxMap(ld.map, i2c->mode, wHalo)
                    : ld.map,
              in.operands[0]))
        return false;
    if (multicast) {
        auto mask = value(in.operands[3 + info], "ctaMask", 0, 0xFFFF, "tma.md §1: ctaMask is 16 bits",
                          Provenance::PtxText);
        if (!mask) return false;
        ld.ctaMask = static_cast<uint16_t>(*mask);
    }
    ld.issuingCta = ctx.issuingCta;
    ld.dstCta = dst->cta;
    ld.dstAddr = dst->addr;
    ld.mbarAddr = bar->addr;
    ld.multicast = multicast;
    ld.ctaGroup = ctaGroup;
    ld.mbarCta = bar->cta;
    ld.clusterDst = cluster >= 0;
    ld.arch = ctx.arch;
    out.op = four ? gather4Op(ld) : i2c ? im2colLoadOp(ld, i2c->mode, i2cInfo) : ScenarioOp{ld};
    return true;
}

bool Lowering::mbarrier(ScenarioInstr& out) {
    const std::string& what = in.opcode.size() > 1 ? in.opcode[1].text : std::string();
    size_t a = 0;
    while (a < in.operands.size() && in.operands[a].kind != OperandKind::Address) ++a;
    if (a == in.operands.size())
        return fail(DiagCode::InvalidValue, in.span, "expected an [mbarrier] operand", kMbarRef,
                    Provenance::PtxText);
    auto bar = smemOperand(in.operands[a], true, "the mbarrier address");
    if (!bar) return false;
    const bool cluster = tokenIndex(in, ".shared::cluster") >= 0;
    if (!cluster && bar->cta != ctx.issuingCta)
        return fail(DiagCode::InvalidValue, in.operands[a].span,
                    "mbarrier " + bar->name + " is in CTA " + std::to_string(bar->cta) +
                        ", not in the issuing CTA " + std::to_string(ctx.issuingCta) +
                        " (only .shared::cluster forms reach another CTA)",
                    kMbarRef, Provenance::PtxText);
    out.cta = bar->cta;
    out.mbarAddr = bar->addr;
    const bool tx = what == ".expect_tx" || what == ".complete_tx" ||
                    (what == ".arrive" && tokenIndex(in, ".expect_tx") >= 0);
    if (what == ".init" || tx) {
        if (a + 1 >= in.operands.size())
            return fail(DiagCode::InvalidValue, in.span,
                        std::string("expected ") + (tx ? "a tx byte count" : "an arrival count") +
                            " after the mbarrier",
                        kMbarRef, Provenance::PtxText);
        // tx-count range: -(2^20-1) .. 2^20-1 (PTX ISA 9.2 §9.7.13.15.1); arrival count 1 .. 2^20-1.
        auto v = value(in.operands[a + 1], tx ? "tx byte count" : "arrival count", tx ? 0 : 1, (1 << 20) - 1,
                       kMbarRef, Provenance::PtxText);
        if (!v) return false;
        out.value = *v;
        out.kind = what == ".init"          ? ScenarioInstrKind::MbarrierInit
                   : what == ".complete_tx" ? ScenarioInstrKind::MbarrierCompleteTx
                                            : ScenarioInstrKind::MbarrierExpectTx;
        return true;
    }
    if (what == ".try_wait" || what == ".test_wait" || what == ".arrive") {
        out.kind = what == ".arrive" ? ScenarioInstrKind::NoOp : ScenarioInstrKind::MbarrierWait;
        return true;
    }
    return fail(DiagCode::Unsupported, in.opcode.size() > 1 ? in.opcode[1].span : in.opcode[0].span,
                "mbarrier" + what +
                    " is not supported in scenarios (init, arrive.expect_tx, expect_tx, complete_tx, "
                    "try_wait, test_wait, arrive)");
}

bool isNoOp(const ParsedInstr& in) {
    return startsWith(in, {"fence"}) || startsWith(in, {"cp", ".async", ".bulk", ".commit_group"}) ||
           startsWith(in, {"cp", ".async", ".bulk", ".wait_group"}) ||
           startsWith(in, {"barrier", ".cluster"});
}

} // namespace

void applyInstruction(Context& ctx, std::string_view text, int line, int column, bool terminated) {
    if (isSmemAccess(text)) { // its address is an expression of the lane: not a PTX operand
        if (!terminated)
            ctx.error(DiagCode::Syntax, {line, column + int(text.size()), 1},
                      "expected ';' at the end of the instruction (scenario instructions end with ';')",
                      "PTX ISA 9.2 §4 (statements end with ';')", Provenance::PtxText);
        else
            lowerSmemAccess(ctx, text, line, column);
        return;
    }
    auto parsed = parseInstruction(text, line, column);
    if (!parsed) {
        for (const auto& d : parsed.diagnostics()) ctx.diags.push_back(d);
        return;
    }
    const ParsedInstr& in = *parsed;
    if (!terminated) {
        const SourceSpan& s = in.operands.empty() ? in.opcode.back().span : in.operands.back().span;
        ctx.error(DiagCode::Syntax, {s.line, s.column + s.length, 1},
                  "expected ';' at the end of the instruction (scenario instructions end with ';')",
                  "PTX ISA 9.2 §4 (statements end with ';')", Provenance::PtxText);
        return;
    }
    if (!in.predicate.empty()) {
        ctx.error(DiagCode::Unsupported,
                  {in.span.line, in.span.column, static_cast<int>(in.predicate.size())},
                  "guarded instructions (" + in.predicate +
                      ") are not supported: a scenario runs every instruction");
        return;
    }
    ScenarioInstr out;
    out.text = displayText(text);
    out.span = in.span;
    out.cta = ctx.issuingCta;
    if (isTcgen05Mma(in)) { // scenario_umma.cpp: its own strict form check
        // The .ws / .sp forms are first checked by the validator (rules_tcgen05_mma.cpp: ptxas 13.0's forms,
        // targets and operand lists); the plain forms keep the lowering's own check.
        if ((in.hasToken(".ws") || in.hasToken(".sp")) && !ctx.targetInvalid)
            if (Status st = validateInstruction(in, ctx.ptxTarget()); !st) {
                for (Diagnostic d : st.diagnostics()) {
                    if (!d.span.valid()) d.span = in.span;
                    ctx.diags.push_back(std::move(d));
                }
                return;
            }
        if (lowerTcgen05Mma(ctx, in, out)) ctx.s.instrs.push_back(std::move(out));
        return;
    }
    if (isTcgen05(in)) { // scenario_tcgen05.cpp: the validator checks the form, lowering binds operands
        // Every form is validated, wait/commit/fence included (they then run as no-ops).
        if (!ctx.targetInvalid) {
            if (Status st = validateInstruction(in, ctx.ptxTarget()); !st) {
                for (Diagnostic d : st.diagnostics()) {
                    if (!d.span.valid()) d.span = in.span;
                    ctx.diags.push_back(std::move(d));
                }
                return;
            }
            // Kernel-wide rule (validateKernel): one .cta_group for all tcgen05 instructions,
            // reported once, like ptxas's function-level error.
            if (const int g = ptx::kernelCtaGroup(in); g && !ctx.ctaGroupFirst) {
                ctx.ctaGroupFirst = in;
            } else if (g && g != ptx::kernelCtaGroup(*ctx.ctaGroupFirst) && !ctx.ctaGroupMixReported) {
                ctx.diags.push_back(ptx::ctaGroupMixDiagnostic(*ctx.ctaGroupFirst, in));
                ctx.ctaGroupMixReported = true;
                return;
            }
        }
        if (lowerTcgen05(ctx, in, out)) ctx.s.instrs.push_back(std::move(out));
        return;
    }
    if (isWgmma(in)) { // scenario_wgmma.cpp
        if (lowerWgmma(ctx, in, out)) ctx.s.instrs.push_back(std::move(out));
        return;
    }
    const bool tensor = startsWith(in, {"cp", ".async", ".bulk", ".tensor"});
    const bool mbar = startsWith(in, {"mbarrier"});
    if (!tensor && !mbar) {
        if (!isNoOp(in)) {
            ctx.error(DiagCode::Unsupported, in.opcode[0].span,
                      "'" + in.opcodeText() +
                          "' is not supported in scenarios (supported: cp.async.bulk.tensor tile "
                          "loads and stores, mbarrier.init / arrive.expect_tx / try_wait, fence.proxy.async, "
                          "cp.async.bulk.commit_group / wait_group, tcgen05.*, wgmma.*)");
            return;
        }
        out.kind = ScenarioInstrKind::NoOp;
        ctx.s.instrs.push_back(std::move(out));
        return;
    }
    const bool validatorKnows =
        tensor ||
        (in.opcode.size() > 1 && (in.opcode[1].text == ".init" || in.opcode[1].text == ".arrive" ||
                                  in.opcode[1].text == ".try_wait" || in.opcode[1].text == ".test_wait"));
    if (validatorKnows && !ctx.targetInvalid) {
        if (Status st = validateInstruction(in, ctx.ptxTarget()); !st) {
            for (Diagnostic d : st.diagnostics()) {
                if (!d.span.valid()) d.span = in.span;
                ctx.diags.push_back(std::move(d));
            }
            return;
        }
    }
    Lowering low{ctx, in};
    if (tensor ? low.tma(out) : low.mbarrier(out)) ctx.s.instrs.push_back(std::move(out));
}

} // namespace layoutscope::scn
