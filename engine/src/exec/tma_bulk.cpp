// Plain (non-tensor) bulk copies in the executor (PTX ISA 9.2 §9.7.9.25.4): cp.async.bulk in every direction
// (global -> shared::cta / shared::cluster with .multicast::cluster, shared::cta -> global, shared::cta ->
// shared::cluster) and cp.reduce.async.bulk (§9.7.9.25.4.2: shared::cta -> global with .bulk_group,
// shared::cta -> shared::cluster with .mbarrier::complete_tx::bytes). Data lands at issue; the element
// operation of a reduce is reduceValue's (tma_common.cpp), the one the tensor reduces use.
#include "exec/mbarrier.hpp"
#include "exec/mma_exec.hpp"
#include "exec/order.hpp"
#include "exec/record.hpp"
#include "exec/tma_exec.hpp"

#include <cstring>

namespace layoutscope::exec {

// Plain cp.async.bulk: [dst], [src], size{, [mbar]}{, ctaMask}; 16-byte aligned addresses and sizes.
bool bulkCopy(Machine& m, Warp& w, const Op& op, CopyForm f, int l) {
    const auto& o = op.o;
    if (o.size() < 3 || o[0].kind != OK::Mem || o[1].kind != OK::Mem)
        return m.fail(op, DiagCode::Syntax, "cp.async.bulk needs [dstMem], [srcMem], size");
    const uint64_t dstA = memAddress(m, w, o[0], l), srcA = memAddress(m, w, o[1], l);
    const uint64_t size = readOperand(m, w, o[2], l, {TK::U, 32}) & 0xffffffffu;
    if (size % 16 || dstA % 16 || srcA % 16)
        return m.fail(
            op, DiagCode::FaultMisalignedAddress,
            "cp.async.bulk needs 16-byte aligned addresses and a size that is a multiple of 16 (size " +
                std::to_string(size) + ") (" + kCopyRef + ")");
    if (f == CopyForm::BulkStore) {
        const uint8_t* s = resolve(m, w, op, Space::Shared, srcA, size, l, false);
        uint8_t* d = s ? resolve(m, w, op, Space::Global, dstA, size, l, true) : nullptr;
        if (!d) return false;
        std::memmove(d, s, size);
        if (async::Model* mo = orderModel(m))
            mo->issue(orderSiteBefore(m, w, op, l), // its bytes: a poke after the instruction
                      async::AsyncOp{async::OpKind::BulkCopy,
                                     {orderSmem(w.cta, srcA, srcA + size, "bulk source")},
                                     {},
                                     async::Completion::BulkGroup,
                                     {},
                                     0,
                                     0,
                                     UINT32_MAX});
        return true;
    }
    // Loads into shared::cluster / shared::cta with complete_tx on [mbar].
    if (o.size() < 4 || o[3].kind != OK::Mem)
        return m.fail(op, DiagCode::Syntax, "a bulk copy into shared memory needs its [mbar]");
    const bool cluster = op.async & kAfCluster;
    uint32_t dstCta = 0, dst = 0, mbarCta = 0, mbar = 0;
    if (!sharedTarget(m, w, op, cluster, dstA, dstCta, dst, "destination") ||
        !mbarTarget(m, w, op, cluster ? Space::SharedCluster : Space::Shared, memAddress(m, w, o[3], l), l,
                    mbarCta, mbar))
        return false;
    const uint8_t* s = f == CopyForm::BulkSharedToCluster
                           ? resolve(m, w, op, Space::Shared, srcA, size, l, false)
                           : resolve(m, w, op, Space::Global, srcA, size, l, false);
    if (!s) return false;
    uint32_t targets = 1u << dstCta;
    if (op.async & kAfMulticast) {
        if (o.size() < 5)
            return m.fail(op, DiagCode::Syntax, ".multicast::cluster needs the ctaMask operand");
        targets = uint32_t(readOperand(m, w, o[4], l, {TK::U, 16}) & 0xffff);
        if (targets >> m.ctas.size())
            return m.fail(op, DiagCode::FaultLaunchFailure, "ctaMask names CTAs outside the cluster");
    }
    for (uint32_t c = 0; c < m.ctas.size(); ++c) {
        if (!(targets >> c & 1)) continue;
        if (dst + size > m.ctas[c].smem.size())
            return m.fail(op, DiagCode::FaultLaunchFailure,
                          "the bulk copy runs past the end of shared memory");
        std::memmove(m.ctas[c].smem.data() + dst, s, size);
        recordWrite(m, false, c, dst, size); // the bytes as a poke; its complete_tx as the instruction
        if (m.rec) {
            recordOrigin(m, w, op, l);
            recordStatement(m, "mbarrier.complete_tx.relaxed.cluster.shared::cluster.b64 [" +
                                   barrierName(m, (op.async & kAfMulticast) ? c : mbarCta, mbar) + "], " +
                                   std::to_string(size) + ";");
        }
        const uint32_t sigCta = (op.async & kAfMulticast) ? c : mbarCta; // each destination's own barrier
        if (!mbarCompleteTx(m, op, sigCta, mbar, int64_t(size))) return false;
        if (async::Model* mo = orderModel(m)) {
            async::AsyncOp a{async::OpKind::BulkCopy,
                             {},
                             {orderSmem(c, dst, dst + size, "bulk destination")},
                             async::Completion::Mbarrier,
                             orderBarrier(sigCta, mbar),
                             int64_t(size),
                             (op.async & kAfMulticast) ? targets : 0u,
                             UINT32_MAX};
            if (f == CopyForm::BulkSharedToCluster)
                a.reads.push_back(orderSmem(w.cta, srcA, srcA + size, "bulk source"));
            mo->issue(orderSite(m, w, op, l), std::move(a));
        }
    }
    return true;
}

namespace {

constexpr const char* kReduceRef = "PTX ISA 9.2 §9.7.9.25.4.2 (cp.reduce.async.bulk)";

// The .redOp / .type pairs PTX ISA 9.2 §9.7.9.25.4.2 lists for each destination; "" when allowed.
std::string reduceTypeRule(AtomOp a, Ty t, bool global) {
    const bool b = t.k == TK::B, u = t.k == TK::U, s = t.k == TK::S, h = t.k == TK::F16 || t.k == TK::BF16;
    const bool f = t.k == TK::F, w32 = t.bits == 32, w64 = t.bits == 64;
    bool ok = false;
    switch (a) {
    case AtomOp::And:
    case AtomOp::Or:
    case AtomOp::Xor:
        ok = b && (w32 || (global && w64));
        break;
    case AtomOp::Inc:
    case AtomOp::Dec:
        ok = u && w32;
        break;
    case AtomOp::Add:
        ok = (u && (w32 || w64)) || (s && w32) || (global && (f || h));
        break;
    case AtomOp::Min:
    case AtomOp::Max:
        ok = ((u || s) && (w32 || (global && w64))) || (global && h);
        break;
    default:
        return "cp.reduce.async.bulk needs its .redOp (.add .min .max .inc .dec .and .or .xor)";
    }
    if (ok) return "";
    return std::string("this .redOp does not take this .type ") +
           (global
                ? "into .global (.and/.or/.xor: .b32 .b64; .inc/.dec: .u32; .add: .u32 .s32 .u64 .f32 .f64 "
                  ".f16 .bf16 (with .noftz); .min/.max: .u32 .s32 .u64 .s64 .f16 .bf16)"
                : "into .shared::cluster (.and/.or/.xor: .b32; .inc/.dec: .u32; .add: .u32 .s32 .u64; "
                  ".min/.max: .u32 .s32)") +
           " (" + kReduceRef + ")";
}

} // namespace

// cp.reduce.async.bulk.global.shared::cta.bulk_group.redOp.type [dstMem], [srcMem], size
// cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.redOp.type [dstMem],
// [srcMem],
//     size, [mbar]
// Each element of the destination becomes reduceValue(redOp, old, source element); size bytes, a multiple of
// 16, both addresses 16-byte aligned.
bool bulkReduce(Machine& m, Warp& w, const Op& op, int l) {
    const auto& o = op.o;
    const bool global = !(op.async & kAfCluster);
    if (o.size() != (global ? 3u : 4u) || o[0].kind != OK::Mem || o[1].kind != OK::Mem ||
        (!global && o[3].kind != OK::Mem))
        return m.fail(op, DiagCode::Syntax,
                      std::string("cp.reduce.async.bulk") +
                          (global ? ".global.shared::cta needs [dstMem], [srcMem], size"
                                  : ".shared::cluster.shared::cta needs [dstMem], [srcMem], size, [mbar]") +
                          " (" + std::to_string(o.size()) + " operands given; " + kReduceRef + ")");
    if (global != bool(op.async & kAfBulkGroup) || global == bool(op.async & kAfMbarrier))
        return m.fail(op, DiagCode::Syntax,
                      std::string("cp.reduce.async.bulk into ") + (global ? ".global" : ".shared::cluster") +
                          " completes through " + (global ? ".bulk_group" : ".mbarrier::complete_tx::bytes") +
                          " (" + kReduceRef + ")");
    if (std::string why = reduceTypeRule(op.atom, op.t, global); !why.empty())
        return m.fail(op, DiagCode::Syntax, why);
    const uint64_t dstA = memAddress(m, w, o[0], l), srcA = memAddress(m, w, o[1], l);
    const uint64_t size = readOperand(m, w, o[2], l, {TK::U, 32}) & 0xffffffffu;
    if (size % 16 || dstA % 16 || srcA % 16)
        return m.fail(
            op, DiagCode::FaultMisalignedAddress,
            "cp.reduce.async.bulk needs 16-byte aligned addresses and a size that is a multiple of 16 "
            "(size " +
                std::to_string(size) + ") (" + kReduceRef + ")");
    const uint8_t* s = resolve(m, w, op, Space::Shared, srcA, size, l, false);
    if (!s) return false;
    uint8_t* d = nullptr;
    uint32_t dstCta = w.cta, dst = 0, mbarCta = 0, mbar = 0;
    if (global) {
        d = resolve(m, w, op, Space::Global, dstA, size, l, true); // recorded as a poke of the result
    } else {
        if (!sharedTarget(m, w, op, true, dstA, dstCta, dst, "destination") ||
            !mbarTarget(m, w, op, Space::SharedCluster, memAddress(m, w, o[3], l), l, mbarCta, mbar))
            return false;
        if (mbarCta != dstCta)
            return m.fail(op, DiagCode::FaultLaunchFailure,
                          "the mbarrier (CTA " + std::to_string(mbarCta) +
                              ") must be in the destination's CTA (" + std::to_string(dstCta) + ") (" +
                              kReduceRef + ")");
        if (dst + size > m.ctas[dstCta].smem.size())
            return m.fail(op, DiagCode::FaultLaunchFailure,
                          "the bulk reduce runs past the end of shared memory");
        d = m.ctas[dstCta].smem.data() + dst;
    }
    if (!d) return false;
    const uint32_t eb = op.t.bits / 8;
    std::vector<uint8_t> src(s, s + size); // the source may overlap the destination (shared::cluster)
    for (uint64_t i = 0; i + eb <= size; i += eb) {
        uint64_t oldV = 0, v = 0;
        std::memcpy(&oldV, d + i, eb);
        std::memcpy(&v, src.data() + i, eb);
        const uint64_t r = reduceValue(op.atom, op.t, oldV, v);
        std::memcpy(d + i, &r, eb);
    }
    async::AsyncOp a{async::OpKind::BulkCopy,
                     {orderSmem(w.cta, srcA, srcA + size, "bulk reduce source")},
                     {},
                     global ? async::Completion::BulkGroup : async::Completion::Mbarrier,
                     {},
                     global ? 0 : int64_t(size),
                     0,
                     UINT32_MAX};
    if (!global) {
        recordWrite(m, false, dstCta, dst, size); // the result as a poke; its complete_tx as the instruction
        if (m.rec) {
            recordOrigin(m, w, op, l);
            recordStatement(m, "mbarrier.complete_tx.relaxed.cluster.shared::cluster.b64 [" +
                                   barrierName(m, mbarCta, mbar) + "], " + std::to_string(size) + ";");
        }
        if (!mbarCompleteTx(m, op, mbarCta, mbar, int64_t(size))) return false;
        a.writes.push_back(orderSmem(dstCta, dst, dst + size, "bulk reduce destination"));
        a.reads.push_back(orderSmem(dstCta, dst, dst + size, "bulk reduce destination"));
        a.barrier = orderBarrier(mbarCta, mbar);
    }
    if (async::Model* mo = orderModel(m)) // into global: the poke after the instruction is its record
        mo->issue(global ? orderSiteBefore(m, w, op, l) : orderSite(m, w, op, l), std::move(a));
    return true;
}

} // namespace layoutscope::exec
