// TMA and bulk copies in the executor (PTX ISA 9.2 §9.7.9.25): cp.async.bulk.tensor loads (1d..5d, tile
// mode, .multicast::cluster, .cta_group::2) and stores (.bulk_group), cp.async.bulk.prefetch.tensor (no
// data), plain cp.async.bulk in every direction, cp.async.bulk.commit_group / wait_group[.read].
// The placement is the engine's: each tensor copy runs executeTmaLoad / executeTmaStore (tma.hpp: box
// geometry, swizzle, out-of-bounds fill, faults) on a MachineState whose global regions read the
// executor's tensors and whose shared memory is the executor's, copied in and back. Data lands at issue
// (the "early" schedule); complete_tx goes to the mbarrier of each destination CTA (tmaSignalCta).
#include "layoutscope/tma/tma.hpp"
#include "exec/args_struct.hpp"
#include "exec/decode_async.hpp"
#include "exec/mbarrier.hpp"
#include "exec/order.hpp"
#include "exec/record.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

namespace layoutscope::exec {

namespace {

constexpr const char* kCopyRef = "PTX ISA 9.2 §9.7.9.25 (bulk and tensor copies)";

uint64_t memAddress(Machine& m, Warp& w, const Opnd& o, int lane) {
    uint64_t a = static_cast<uint64_t>(o.imm);
    if (o.hasBase) a += m.reg(w, o.reg, lane);
    if (o.sym >= 0) a += symbolAddress(m, m.p.symbols[o.sym], w.cta);
    return a;
}

TmaArch archOf(const std::string& sm) {
    if (sm.rfind("sm_90", 0) == 0) return TmaArch::Sm90;
    if (sm.rfind("sm_103", 0) == 0) return TmaArch::Sm103;
    if (sm.rfind("sm_12", 0) == 0) return TmaArch::Sm120;
    return TmaArch::Sm100;
}

// A shared-memory operand -> (CTA index, shared::cta offset); `cluster`: a .shared::cluster address.
bool sharedTarget(Machine& m, Warp& w, const Op& op, bool cluster, uint64_t addr, uint32_t& cta,
                  uint32_t& off, const char* what) {
    uint64_t a = 0;
    if (std::string why = splitShared(m, w, cluster, addr, cta, a); !why.empty())
        return m.fail(op, DiagCode::FaultLaunchFailure, std::string("the ") + what + " operand: " + why);
    if (a >= m.ctas[cta].smem.size())
        return m.fail(op, DiagCode::FaultLaunchFailure,
                      std::string("the ") + what + " operand " + std::to_string(a) +
                          " is outside the CTA's " + std::to_string(m.ctas[cta].smem.size()) +
                          " bytes of shared memory");
    off = uint32_t(a);
    return true;
}

// The engine's machine state over the executor's memory: tensors as generated regions (read in place),
// the shared memory of `ctas` copied in.
MachineState stateFor(Machine& m, uint32_t ctaMask, int fill = -1) {
    MachineState st(uint32_t(m.ctas.size()), 0, uint32_t(m.ctas[0].smem.size()));
    for (const auto& t : m.tensors) {
        if (fill >= 0) { // every global byte `fill`: tells the bytes a store writes from those it leaves
            const uint8_t f = uint8_t(fill);
            st.global.addRegion(
                t.address, t.bytes.size(), [f](uint64_t) { return f; },
                [f](const ByteRows& r, uint8_t* out) { std::memset(out, f, r.count * r.rowBytes); });
            continue;
        }
        const std::vector<uint8_t>* bytes = &t.bytes;
        st.global.addRegion(
            t.address, t.bytes.size(), [bytes](uint64_t o) { return (*bytes)[o]; },
            [bytes](const ByteRows& r, uint8_t* out) {
                for (uint64_t i = 0; i < r.count; ++i)
                    std::memcpy(out + i * r.rowBytes, bytes->data() + r.offset + i * r.stride, r.rowBytes);
            });
    }
    for (uint32_t c = 0; c < m.ctas.size(); ++c)
        if (ctaMask >> c & 1)
            std::copy(m.ctas[c].smem.begin(), m.ctas[c].smem.end(), st.smem[c].bytes().begin());
    return st;
}

bool engineError(Machine& m, const Op& op, const Status& s) {
    const Diagnostic& d = s.error();
    return m.fail(op, d.code, d.message + (d.ruleRef.empty() ? "" : " [" + d.ruleRef + "]"));
}

bool tensorLoad(Machine& m, Warp& w, const Op& op, int l) {
    const auto& o = op.o;
    const bool multicast = op.async & kAfMulticast;
    if (o.size() < 3 || o[0].kind != OK::Mem || o[1].kind != OK::Mem || o[1].elems.empty() ||
        o[2].kind != OK::Mem)
        return m.fail(op, DiagCode::Syntax,
                      "cp.async.bulk.tensor load needs [dstMem], [tensorMap, {coords}], [mbar]");
    if (!(op.async & kAfMbarrier))
        return m.fail(op, DiagCode::Syntax, "a tensor load completes through .mbarrier::complete_tx::bytes");
    if (o[1].elems.size() != op.vec)
        return m.fail(op, DiagCode::Syntax,
                      "." + std::to_string(op.vec) + "d with " + std::to_string(o[1].elems.size()) +
                          " coordinates");
    TmaTileLoad ld;
    const Opnd& mapOp = o[1];
    const bool paramMap = !mapOp.hasBase && mapOp.sym >= 0 && m.p.symbols[mapOp.sym].space == Space::Param;
    const TensorMap* map =
        tensorMapAt(m, w, op, paramMap ? Space::Param : Space::Generic, memAddress(m, w, mapOp, l), l);
    if (!map) return false;
    ld.map = *map;
    for (size_t i = 0; i < o[1].elems.size(); ++i)
        ld.coords[i] = int32_t(readOperand(m, w, o[1].elems[i], l, {TK::S, 32}));
    uint32_t dstCta = 0, dst = 0, mbarCta = 0, mbar = 0;
    const bool cluster = op.async & kAfCluster;
    if (!sharedTarget(m, w, op, cluster, memAddress(m, w, o[0], l), dstCta, dst, "destination") ||
        !mbarTarget(m, w, op, cluster ? Space::SharedCluster : Space::Shared, memAddress(m, w, o[2], l), l,
                    mbarCta, mbar))
        return false;
    ld.issuingCta = w.cta;
    ld.dstCta = dstCta;
    ld.dstAddr = dst;
    ld.mbarAddr = mbar;
    ld.multicast = multicast;
    ld.ctaGroup = op.async & kAfCtaGroup2 ? 2 : 1;
    ld.mbarCta = mbarCta;
    ld.clusterDst = cluster;
    ld.arch = archOf(m.sm);
    uint32_t targets = 1u << dstCta;
    if (multicast) {
        if (o.size() < 4)
            return m.fail(op, DiagCode::Syntax, ".multicast::cluster needs the ctaMask operand");
        ld.ctaMask = uint16_t(readOperand(m, w, o[3], l, {TK::U, 16}));
        if (ld.ctaMask >> m.ctas.size())
            return m.fail(op, DiagCode::FaultLaunchFailure,
                          "ctaMask " + std::to_string(ld.ctaMask) + " names CTAs outside the " +
                              std::to_string(m.ctas.size()) + "-CTA cluster");
        targets = ld.ctaMask;
    }
    MachineState st = stateFor(m, targets | (1u << mbarCta));
    Trace trace;
    trace.budgetBytes = 0;
    TraceBuilder tb(trace);
    tb.beginInstr(op.text, op.line);
    const Status s = executeTmaLoad(ld, st, tb);
    tb.endInstr();
    if (!s) return engineError(m, op, s);
    for (uint32_t c = 0; c < m.ctas.size(); ++c)
        if (targets >> c & 1)
            std::copy(st.smem[c].bytes().begin(), st.smem[c].bytes().end(), m.ctas[c].smem.begin());
    for (const auto& [key, mb] : st.mbarriers)
        if (mb.completedBytes && !mbarCompleteTx(m, op, key.first, key.second, mb.completedBytes))
            return false;
    recordTmaLoad(m, w, op, l, ld);
    if (async::Model* mo = orderModel(m)) { // one async unit per delivery (each multicast destination)
        // unverified: the written range is [dst, dst + box bytes); a swizzle only permutes 16-byte chunks
        // within 128-byte lines of it when dst is aligned to the pattern.
        const uint64_t bytes = tileGeometry(ld.map).boxBytes;
        for (uint32_t c = 0; c < m.ctas.size(); ++c)
            if (targets >> c & 1)
                mo->issue(orderSite(m, w, op, l),
                          async::AsyncOp{async::OpKind::TmaLoad,
                                         {},
                                         {orderSmem(c, dst, dst + bytes, "TMA destination")},
                                         async::Completion::Mbarrier,
                                         orderBarrier(tmaSignalCta(ld.ctaGroup, c, mbarCta), mbar),
                                         int64_t(bytes),
                                         multicast ? uint32_t(ld.ctaMask) : 0u,
                                         UINT32_MAX});
    }
    return true;
}

// cp.reduce.async.bulk.tensor's element operation (PTX ISA 9.2 §9.7.9.25.5.3): `old` in global memory
// combined with `v` from shared memory, both of the map's element type.
uint64_t reduceElement(AtomOp a, TensorDataType dt, uint64_t old, uint64_t v) {
    const uint32_t bits = elementBits(dt);
    const bool isF = isFloatType(dt), isS = dt == TensorDataType::INT32 || dt == TensorDataType::INT64;
    const Ty ty = dt == TensorDataType::FLOAT16    ? Ty{TK::F16, 16}
                  : dt == TensorDataType::BFLOAT16 ? Ty{TK::BF16, 16}
                                                   : Ty{TK::F, uint8_t(bits)};
    const int64_t so = signExtend(old, int(bits)), sv = signExtend(v, int(bits));
    switch (a) {
    case AtomOp::Add:
        if (isF) return fromLongDouble((long double)toDouble(old, ty) + toDouble(v, ty), ty, Rnd::Rn, false);
        return old + v;
    case AtomOp::Min:
    case AtomOp::Max: {
        bool less;
        if (isF)
            less = toDouble(old, ty) < toDouble(v, ty);
        else
            less = isS ? so < sv : maskBits(old, int(bits)) < maskBits(v, int(bits));
        return (a == AtomOp::Min) == less ? old : v;
    }
    case AtomOp::Inc:
        return maskBits(old, int(bits)) >= maskBits(v, int(bits)) ? 0 : old + 1;
    case AtomOp::Dec:
        return maskBits(old, int(bits)) == 0 || maskBits(old, int(bits)) > maskBits(v, int(bits)) ? v
                                                                                                  : old - 1;
    case AtomOp::And:
        return old & v;
    case AtomOp::Or:
        return old | v;
    case AtomOp::Xor:
        return old ^ v;
    default:
        return v;
    }
}

bool tensorStore(Machine& m, Warp& w, const Op& op, int l, bool reduce = false) {
    const auto& o = op.o;
    if (o.size() < 2 || o[0].kind != OK::Mem || o[0].elems.empty() || o[1].kind != OK::Mem)
        return m.fail(op, DiagCode::Syntax,
                      "cp.async.bulk.tensor store needs [tensorMap, {coords}], [srcMem]");
    if (o[0].elems.size() != op.vec)
        return m.fail(op, DiagCode::Syntax,
                      "." + std::to_string(op.vec) + "d with " + std::to_string(o[0].elems.size()) +
                          " coordinates");
    const Opnd& mapOp = o[0];
    const bool paramMap = !mapOp.hasBase && mapOp.sym >= 0 && m.p.symbols[mapOp.sym].space == Space::Param;
    const TensorMap* map =
        tensorMapAt(m, w, op, paramMap ? Space::Param : Space::Generic, memAddress(m, w, mapOp, l), l);
    if (!map) return false;
    TmaTileStore sto;
    sto.map = *map;
    for (size_t i = 0; i < mapOp.elems.size(); ++i)
        sto.coords[i] = int32_t(readOperand(m, w, mapOp.elems[i], l, {TK::S, 32}));
    uint32_t srcCta = 0, src = 0;
    if (!sharedTarget(m, w, op, false, memAddress(m, w, o[1], l), srcCta, src, "source")) return false;
    sto.srcCta = srcCta;
    sto.srcAddr = src;
    sto.arch = archOf(m.sm);
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
        mo->issue(orderSite(m, w, op, l), async::AsyncOp{async::OpKind::TmaStore,
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
            const uint64_t r = reduceElement(op.atom, p.dataType, oldV, newV);
            std::memcpy(g, &r, eb);
            recordWrite(m, true, 0, uint64_t(e), eb); // a reduce is recorded as the bytes it left
        }
    }
    return true;
}

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
            mo->issue(orderSite(m, w, op, l),
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
    for (uint32_t x = exec; x; x &= x - 1) {
        const int l = std::countr_zero(x);
        switch (f) {
        case CopyForm::TensorLoad:
            if (!tensorLoad(m, w, op, l)) return false;
            break;
        case CopyForm::TensorStore:
            if (!tensorStore(m, w, op, l)) return false;
            break;
        case CopyForm::TensorPrefetch: { // no data; the map must still be one
            if (op.o.empty() || op.o[0].kind != OK::Mem)
                return m.fail(op, DiagCode::Syntax, "prefetch.tensor needs [tensorMap, {coords}]");
            const Opnd& mo = op.o[0];
            const bool paramMap = !mo.hasBase && mo.sym >= 0 && m.p.symbols[mo.sym].space == Space::Param;
            if (!tensorMapAt(m, w, op, paramMap ? Space::Param : Space::Generic, memAddress(m, w, mo, l), l))
                return false;
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
            if (!tensorStore(m, w, op, l, true)) return false;
            break;
        default:
            return m.fail(op, DiagCode::Unsupported,
                          "cp.reduce.async.bulk (non-tensor) is not executed yet; the run stops here");
        }
    }
    return true;
}

} // namespace layoutscope::exec
