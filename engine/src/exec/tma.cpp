// TMA tile copies in the executor (PTX ISA 9.2 §9.7.9.25): cp.async.bulk.tensor loads (1d..5d, tile
// mode, .multicast::cluster, .cta_group::2), stores and reduces (.bulk_group), cp.async.bulk.prefetch.tensor
// (no data), cp.async.bulk.commit_group / wait_group[.read], and the dispatch of every copy form: the other
// load and store modes are in tma_modes.cpp, the plain (non-tensor) copies and reduces in tma_bulk.cpp.
// The placement is the engine's: each tensor copy runs executeTmaLoad / executeTmaStore (tma.hpp: box
// geometry, swizzle, out-of-bounds fill, faults) on a MachineState whose global regions read the
// executor's tensors and whose shared memory is the executor's, copied in and back. Data lands at issue
// (the "early" schedule); complete_tx goes to the mbarrier of each destination CTA (tmaSignalCta).
#include "exec/mbarrier.hpp"
#include "exec/order.hpp"
#include "exec/record.hpp"
#include "exec/tma_exec.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <optional>

namespace layoutscope::exec {

namespace {

bool tensorLoad(Machine& m, Warp& w, const Op& op, int l) {
    TmaTileLoad ld;
    uint32_t targets = 0;
    if (!prepareLoad(m, w, op, l, ld, targets, op.vec, 3)) return false;
    MachineState st = stateFor(m, targets | (1u << ld.mbarCta));
    Trace trace;
    trace.budgetBytes = 0;
    TraceBuilder tb(trace);
    tb.beginInstr(op.text, op.line);
    const Status s = executeTmaLoad(ld, st, tb);
    tb.endInstr();
    if (!s) return engineError(m, op, s);
    if (deliverLoad(m, w, op, l, ld, targets, st) < 0) return false;
    recordTmaLoad(m, w, op, l, ld);
    return true;
}

bool tensorStore(Machine& m, Warp& w, const Op& op, int l, bool reduce = false) {
    TmaTileStore sto;
    if (!prepareStore(m, w, op, l, sto, op.vec)) return false;
    if (reduce && op.atom == AtomOp::None)
        return m.fail(
            op, DiagCode::Syntax,
            "cp.reduce.async.bulk.tensor needs its .redOp (.add .min .max .inc .dec .and .or .xor)");
    const TensorMap* map = &sto.map;
    const uint32_t srcCta = sto.srcCta, src = sto.srcAddr;
    // A reduce runs the store twice over global memory filled with 0x00 and 0xFF: the bytes the store
    // writes read the same in both (the shared-memory values), the others differ.
    MachineState st = stateFor(m, 1u << srcCta, reduce ? 0x00 : -1);
    std::optional<MachineState> st2;
    if (reduce) st2.emplace(stateFor(m, 1u << srcCta, 0xFF));
    for (MachineState* one : {&st, st2 ? &*st2 : nullptr}) {
        if (!one) continue;
        Trace trace;
        trace.budgetBytes = 0;
        TraceBuilder tb(trace);
        tb.beginInstr(op.text, op.line);
        const Status s = executeTmaStore(sto, *one, tb);
        tb.endInstr();
        if (!s) return engineError(m, op, s);
    }
    if (!reduce) recordTmaStore(m, w, op, l, sto);
    if (async::Model* mo = orderModel(m)) {
        const uint64_t bytes = tileGeometry(sto.map).boxBytes;
        // A tile store's statement was just recorded; a reduce's bytes are a poke after the instruction.
        mo->issue(reduce ? orderSiteBefore(m, w, op, l) : orderSite(m, w, op, l),
                  async::AsyncOp{reduce ? async::OpKind::TmaReduce : async::OpKind::TmaStore,
                                 {orderSmem(srcCta, src, src + bytes, "TMA source")},
                                 {},
                                 async::Completion::BulkGroup,
                                 {},
                                 0,
                                 0,
                                 UINT32_MAX});
    }
    // Read back the box's bounding byte range of global memory (clamped to the tensors); the bytes the
    // store did not write read back unchanged from the regions.
    const auto& p = map->p;
    const uint32_t eb = std::max<uint32_t>(1, elementBits(p.dataType) / 8);
    int64_t lo = int64_t(sto.coords[0]) * eb, hi = lo + int64_t(p.boxDim[0]) * eb;
    for (uint32_t i = 1; i < p.tensorRank; ++i) {
        const int64_t stride = int64_t(p.globalStrides[i - 1]);
        lo += int64_t(sto.coords[i]) * stride;
        hi += (int64_t(sto.coords[i]) + int64_t(p.boxDim[i]) - 1) * stride;
    }
    for (auto& t : m.tensors) {
        const int64_t a = std::max<int64_t>(int64_t(p.globalAddress) + lo, int64_t(t.address));
        const int64_t b =
            std::min<int64_t>(int64_t(p.globalAddress) + hi, int64_t(t.address + t.bytes.size()));
        if (a >= b) continue;
        if (!reduce) {
            st.global.read(uint64_t(a),
                           std::span<uint8_t>(t.bytes.data() + (uint64_t(a) - t.address), size_t(b - a)));
            continue;
        }
        std::vector<uint8_t> v0(size_t(b - a)), v1(size_t(b - a));
        st.global.read(uint64_t(a), v0);
        st2->global.read(uint64_t(a), v1);
        for (int64_t e = a; e + int64_t(eb) <= b; e += eb) {
            if ((uint64_t(e) - p.globalAddress) % eb) continue; // element starts only
            const size_t i = size_t(e - a);
            if (std::memcmp(&v0[i], &v1[i], eb) != 0) continue; // not written by the box
            uint64_t oldV = 0, newV = 0;
            uint8_t* g = t.bytes.data() + (uint64_t(e) - t.address);
            std::memcpy(&oldV, g, eb);
            std::memcpy(&newV, &v0[i], eb);
            const uint64_t r = reduceValue(op.atom, elementTy(p.dataType), oldV, newV);
            std::memcpy(g, &r, eb);
            recordWrite(m, true, 0, uint64_t(e), eb); // a reduce is recorded as the bytes it left
        }
    }
    return true;
}

} // namespace

bool execCopy(Machine& m, Warp& w, const Op& op, uint32_t exec) {
    const auto f = static_cast<CopyForm>(op.mode);
    if (f == CopyForm::CommitGroup || f == CopyForm::WaitGroup) { // data landed at issue; the model orders
        if (async::Model* mo = orderModel(m))
            for (uint32_t x = exec; x; x &= x - 1) {
                const int l = std::countr_zero(x);
                const async::Site site = orderSite(m, w, op, l);
                if (f == CopyForm::CommitGroup)
                    mo->commitGroup(site, async::Completion::BulkGroup);
                else
                    mo->waitGroup(site, async::Completion::BulkGroup,
                                  op.o.empty() ? 0 : uint32_t(readOperand(m, w, op.o[0], l, {TK::U, 32})),
                                  op.async & kAfRead);
            }
        return true;
    }
    const bool modes =
        op.async & (kAfIm2col | kAfIm2colW | kAfIm2colW128 | kAfNoOffs | kAfGather4 | kAfScatter4);
    for (uint32_t x = exec; x; x &= x - 1) {
        const int l = std::countr_zero(x);
        switch (f) {
        case CopyForm::TensorLoad:
            if (!(modes ? tensorLoadMode(m, w, op, l) : tensorLoad(m, w, op, l))) return false;
            break;
        case CopyForm::TensorStore:
            if (!(modes ? tensorStoreMode(m, w, op, l, false) : tensorStore(m, w, op, l))) return false;
            break;
        case CopyForm::TensorPrefetch: { // no data; the map must still be one
            if (op.o.empty() || op.o[0].kind != OK::Mem)
                return m.fail(op, DiagCode::Syntax, "prefetch.tensor needs [tensorMap, {coords}]");
            if (!mapOperand(m, w, op, op.o[0], l)) return false;
            break;
        }
        case CopyForm::BulkPrefetch:
            break;
        case CopyForm::BulkLoad:
        case CopyForm::BulkStore:
        case CopyForm::BulkSharedToCluster:
            if (!bulkCopy(m, w, op, f, l)) return false;
            break;
        case CopyForm::TensorReduce:
            if (!(modes ? tensorStoreMode(m, w, op, l, true) : tensorStore(m, w, op, l, true))) return false;
            break;
        case CopyForm::BulkReduce:
            if (!bulkReduce(m, w, op, l)) return false;
            break;
        default:
            return m.fail(op, DiagCode::Unsupported,
                          "this bulk-copy form is not executed; the run stops here");
        }
    }
    return true;
}

} // namespace layoutscope::exec
