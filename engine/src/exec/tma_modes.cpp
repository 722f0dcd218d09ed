// The load and store modes of cp.async.bulk.tensor other than .tile, in the executor (PTX ISA 9.2
// §9.7.9.25.5.2, §5.5.3.4, §5.5.4, §5.5.5):
//   loads   .im2col (offsets {offW(, offH(, offD))}: dims - 2 16-bit operands after [mbar]),
//           .im2col::w / .im2col::w::128 ({wHalo, wOffset}), .tile::gather4 ({col, row0..row3}, 2-D)
//   stores  .im2col_no_offs, .tile::scatter4; cp.reduce.async.bulk.tensor ... .im2col_no_offs
// Nothing is re-derived here: the engine's executeTmaIm2colLoad / executeTmaGather4 / executeTmaIm2colStore /
// executeTmaScatter4 (the functions the scenarios run, checked against the H100 golden vectors for .im2col
// and .im2col_no_offs; gather4 / scatter4 and the ::w modes are unverified there, docs/im2col.md §5,
// docs/tma-blackwell.md §2) place the bytes and raise the faults.
// Recording: gather4 loads as the same scenario statement; im2col loads as pokes of the bytes they wrote plus
// their complete_tx (the recording's tensormap header describes tiled maps only); stores and reduces as
// pokes of the global bytes they left.
#include "exec/mbarrier.hpp"
#include "exec/order.hpp"
#include "exec/record.hpp"
#include "exec/tma_exec.hpp"

#include <algorithm>

namespace layoutscope::exec {

namespace {

// The instruction's load mode.
TmaIm2colMode im2colMode(const Op& op) {
    return op.async & kAfIm2colW128 ? TmaIm2colMode::W128
           : op.async & kAfIm2colW  ? TmaIm2colMode::W
                                    : TmaIm2colMode::Im2col;
}

// The im2colInfo operand `{...}` of an im2col load: `n` 16-bit values.
bool im2colInfo(Machine& m, Warp& w, const Op& op, int l, size_t n, std::array<uint16_t, 3>& out) {
    const bool wide = op.async & (kAfIm2colW | kAfIm2colW128);
    const std::string what = wide ? "{wHalo, wOffset}" : "the im2col offsets {offW(, offH(, offD))}";
    if (op.o.size() < 4 || op.o[3].kind != OK::Vec)
        return m.fail(op, DiagCode::Syntax,
                      std::string("an ") + (wide ? ".im2col::w" : ".im2col") + " load needs " + what +
                          " after [mbar] (" + std::to_string(n) + " 16-bit values for ." +
                          std::to_string(op.vec) + "d; " + kCopyRef + ")");
    if (op.o[3].elems.size() != n)
        return m.fail(op, DiagCode::Syntax,
                      what + " of ." + std::to_string(op.vec) + "d has " + std::to_string(n) + " values; " +
                          std::to_string(op.o[3].elems.size()) + " given (" + kCopyRef + ")");
    for (size_t i = 0; i < n; ++i) out[i] = uint16_t(readOperand(m, w, op.o[3].elems[i], l, {TK::U, 16}));
    return true;
}

// Pokes of the bytes a load changed in each target CTA (the first to the last changed byte) and one
// complete_tx statement per target: how the recording carries a load it has no statement for.
void recordLoadAsPokes(Machine& m, Warp& w, const Op& op, int l, const TmaTileLoad& ld, uint32_t targets,
                       const std::vector<std::vector<uint8_t>>& before, int64_t bytes) {
    if (!m.rec) return;
    for (uint32_t c = 0; c < m.ctas.size(); ++c) {
        if (!(targets >> c & 1)) continue;
        const auto& now = m.ctas[c].smem;
        size_t a = 0, b = now.size();
        while (a < b && now[a] == before[c][a]) ++a;
        while (b > a && now[b - 1] == before[c][b - 1]) --b;
        recordWrite(m, false, c, a, b - a); // equal bytes outside [a, b) hold the same values already
        recordOrigin(m, w, op, l);
        recordStatement(m, "mbarrier.complete_tx.relaxed.cluster.shared::cluster.b64 [" +
                               barrierName(m, tmaSignalCta(ld.ctaGroup, c, ld.mbarCta), ld.mbarAddr) + "], " +
                               std::to_string(bytes) + ";");
    }
}

void recordGather4(Machine& m, Warp& w, const Op& op, int l, const TmaGather4Load& g) {
    if (!m.rec) return;
    recordOrigin(m, w, op, l);
    std::string opc = opcodeOf(op);
    if (const size_t h = opc.find(".L2::cache_hint"); h != std::string::npos) opc.erase(h, 15);
    std::string text = opc + " [" + smemRef(g.load.dstCta, g.load.dstAddr) + "], [" + mapName(m, g.load.map) +
                       ", {" + std::to_string(g.col);
    for (int32_t r : g.rows) text += ", " + std::to_string(r);
    text += "}], [" + barrierName(m, g.load.mbarCta, g.load.mbarAddr) + "]";
    if (g.load.multicast) text += ", " + std::to_string(g.load.ctaMask);
    recordStatement(m, text + ";");
}

// A warning once per line for the modes no hardware record backs (the engine's reading of the PTX ISA).
void noteUnverified(Machine& m, const Op& op, const std::string& what) {
    for (const Diagnostic& d : m.notes)
        if (d.span.line == op.line && d.ruleRef == kCopyRef) return;
    if (m.notes.size() < 16)
        m.notes.push_back({Severity::Warning,
                           DiagCode::Unsupported,
                           {op.line, op.column, 1},
                           "`" + op.text + "`: " + what + " (unverified: no hardware record)",
                           kCopyRef,
                           Provenance::Assumption});
}

} // namespace

bool tensorLoadMode(Machine& m, Warp& w, const Op& op, int l) {
    const bool gather = op.async & kAfGather4;
    const bool wide = op.async & (kAfIm2colW | kAfIm2colW128);
    // Operands after [mbar]: im2colInfo (not for gather4), then the ctaMask of .multicast::cluster.
    TmaTileLoad ld;
    uint32_t targets = 0;
    if (!prepareLoad(m, w, op, l, ld, targets, gather ? 5 : op.vec, gather ? 3 : 4)) return false;
    if (wide && ld.map.mode == TensorMap::Mode::Im2col && !ld.map.pixelBoxLowerCorner[1] &&
        !ld.map.pixelBoxUpperCorner[1] && !ld.map.pixelBoxLowerCorner[2] && !ld.map.pixelBoxUpperCorner[2]) {
        // A cuTensorMapEncodeIm2colWide map writes the bytes of an im2col map with W corners only, in mode W
        // and W128 alike (docs/tensormap-layout.md §2): the instruction's qualifier names the mode.
        // unverified: on sm_100 the mode may also live in the map's bytes.
        auto wm = encodeIm2colWide(
            {ld.map.p, ld.map.pixelBoxLowerCorner[0], ld.map.pixelBoxUpperCorner[0], ld.map.channelsPerPixel,
             ld.map.pixelsPerColumn,
             op.async & kAfIm2colW128 ? TensorIm2colWideMode::W128 : TensorIm2colWideMode::W},
            ld.arch);
        if (wm) ld.map = *wm;
    }
    MachineState st = stateFor(m, targets | (1u << ld.mbarCta));
    Trace trace;
    trace.budgetBytes = 0;
    TraceBuilder tb(trace);
    tb.beginInstr(op.text, op.line);
    Status s = okStatus();
    TmaGather4Load g;
    if (gather) {
        g.load = ld;
        g.col = ld.coords[0];
        for (size_t i = 0; i < 4; ++i) g.rows[i] = ld.coords[i + 1];
        s = executeTmaGather4(g, st, tb);
    } else {
        TmaIm2colLoad im;
        im.load = ld;
        im.mode = im2colMode(op);
        std::array<uint16_t, 3> info{};
        if (!im2colInfo(m, w, op, l, wide ? 2 : size_t(op.vec) - 2, info)) return false;
        if (wide)
            im.wHalo = info[0], im.wOffset = info[1];
        else
            im.offsets = info;
        s = executeTmaIm2colLoad(im, st, tb);
    }
    tb.endInstr();
    if (!s) return engineError(m, op, s);
    std::vector<std::vector<uint8_t>> before;
    if (m.rec && !gather)
        for (const auto& c : m.ctas) before.push_back(c.smem);
    const int64_t bytes = deliverLoad(m, w, op, l, ld, targets, st);
    if (bytes < 0) return false;
    if (gather || wide)
        noteUnverified(
            m, op,
            gather ? "the four rows' placement and tx count of .tile::gather4 follow PTX ISA §5.5.3.4 "
                     "and tma.md §8"
                   : "the W walk and halo of .im2col::w* follow PTX ISA §5.5.5 and docs/im2col.md §5");
    if (gather)
        recordGather4(m, w, op, l, g);
    else
        recordLoadAsPokes(m, w, op, l, ld, targets, before, bytes);
    return true;
}

bool tensorStoreMode(Machine& m, Warp& w, const Op& op, int l, bool reduce) {
    const bool scatter = op.async & kAfScatter4;
    if (reduce && op.atom == AtomOp::None)
        return m.fail(
            op, DiagCode::Syntax,
            "cp.reduce.async.bulk.tensor needs its .redOp (.add .min .max .inc .dec .and .or .xor)");
    TmaTileStore sto;
    if (!prepareStore(m, w, op, l, sto, scatter ? 5 : op.vec)) return false;
    // The store runs twice, over global memory all 0x00 and all 0xFF: the bytes it writes read the same in
    // both (storeBack).
    MachineState st0 = stateFor(m, 1u << sto.srcCta, 0x00), stFF = stateFor(m, 1u << sto.srcCta, 0xFF);
    for (MachineState* one : {&st0, &stFF}) {
        Trace trace;
        trace.budgetBytes = 0;
        TraceBuilder tb(trace);
        tb.beginInstr(op.text, op.line);
        Status s = okStatus();
        if (scatter) {
            TmaScatter4Store sc;
            sc.store = sto;
            sc.col = sto.coords[0];
            for (size_t i = 0; i < 4; ++i) sc.rows[i] = sto.coords[i + 1];
            s = executeTmaScatter4(sc, *one, tb);
        } else {
            s = executeTmaIm2colStore(TmaIm2colStore{sto}, *one, tb);
        }
        tb.endInstr();
        if (!s) return engineError(m, op, s);
    }
    if (scatter)
        noteUnverified(m, op,
                       "the four rows' placement of .tile::scatter4 follows PTX ISA §5.5.3.4 and tma.md §8");
    const TensorMap& map = sto.map;
    const uint64_t eb = std::max<uint32_t>(1, elementBits(map.p.dataType) / 8);
    // unverified: the shared-memory bytes read are taken as the dense image (4 rows of boxDim[0] elements;
    // pixelsPerColumn rows of channelsPerPixel elements); a swizzle permutes 16-byte chunks within it.
    const uint64_t srcBytes = scatter ? 4 * uint64_t(map.p.boxDim[0]) * eb
                                      : uint64_t(map.pixelsPerColumn) * map.channelsPerPixel * eb;
    return storeBack(m, w, op, l, sto, st0, stFF, reduce ? op.atom : AtomOp::None, srcBytes);
}

} // namespace layoutscope::exec
