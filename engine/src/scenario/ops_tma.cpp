// The cp.async.bulk.tensor (tile, im2col, gather4/scatter4) and mbarrier lowering of a scenario
// instruction (lowering.hpp), after the validator has checked its form.
#include "scenario/im2col.hpp"
#include "scenario/lowering.hpp"
#include "scenario/tma_extra.hpp"

namespace layoutscope::scn {
namespace {

int tokenIndex(const ParsedInstr& in, std::string_view t) {
    for (size_t i = 0; i < in.opcode.size(); ++i)
        if (in.opcode[i].text == t) return static_cast<int>(i);
    return -1;
}

} // namespace

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

} // namespace layoutscope::scn
