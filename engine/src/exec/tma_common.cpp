// The pieces every TMA and bulk copy of the executor shares (tma_exec.hpp): operands, the engine's machine
// state over the executor's memory, the load delivery (complete_tx, order model) and the store read-back.
#include "exec/args_struct.hpp"
#include "exec/mbarrier.hpp"
#include "exec/mma_exec.hpp"
#include "exec/order.hpp"
#include "exec/record.hpp"
#include "exec/tma_exec.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

namespace layoutscope::exec {

TmaArch archOf(const std::string& sm) {
    if (sm.rfind("sm_90", 0) == 0) return TmaArch::Sm90;
    if (sm.rfind("sm_103", 0) == 0) return TmaArch::Sm103;
    if (sm.rfind("sm_12", 0) == 0) return TmaArch::Sm120;
    return TmaArch::Sm100;
}

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

MachineState stateFor(Machine& m, uint32_t ctaMask, int fill) {
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

const TensorMap* mapOperand(Machine& m, Warp& w, const Op& op, const Opnd& mapOp, int lane) {
    const bool paramMap = !mapOp.hasBase && mapOp.sym >= 0 && m.p.symbols[mapOp.sym].space == Space::Param;
    return tensorMapAt(m, w, op, paramMap ? Space::Param : Space::Generic, memAddress(m, w, mapOp, lane),
                       lane);
}

Ty elementTy(TensorDataType dt) {
    const uint8_t bits = uint8_t(std::max<uint32_t>(8, elementBits(dt)));
    switch (dt) {
    case TensorDataType::FLOAT16:
        return {TK::F16, 16};
    case TensorDataType::BFLOAT16:
        return {TK::BF16, 16};
    case TensorDataType::INT32:
    case TensorDataType::INT64:
        return {TK::S, bits};
    default:
        return isFloatType(dt) ? Ty{TK::F, bits} : Ty{TK::U, bits};
    }
}

uint64_t reduceValue(AtomOp a, Ty ty, uint64_t old, uint64_t v) {
    const int bits = ty.bits;
    const bool isF = ty.k == TK::F || ty.k == TK::F16 || ty.k == TK::BF16, isS = ty.k == TK::S;
    switch (a) {
    case AtomOp::Add: // floating point: the exact sum rounded once to nearest even (.noftz keeps subnormals)
        if (isF && ty.k == TK::F) { // f32 / f64: the host's IEEE addition (round to nearest even), as add.rn
            if (bits == 32) {
                float a, b;
                const uint32_t x = uint32_t(old), y = uint32_t(v);
                std::memcpy(&a, &x, 4), std::memcpy(&b, &y, 4);
                a += b;
                uint32_t r;
                std::memcpy(&r, &a, 4);
                return r;
            }
            double a, b;
            std::memcpy(&a, &old, 8), std::memcpy(&b, &v, 8);
            a += b;
            uint64_t r;
            std::memcpy(&r, &a, 8);
            return r;
        }
        if (isF) // f16 / bf16: the sum is exact in long double (64-bit significand), then rounded once
            return fromLongDouble((long double)toDouble(old, ty) + toDouble(v, ty), ty, Rnd::Rn, false);
        return maskBits(old + v, bits);
    case AtomOp::Min:
    case AtomOp::Max: {
        bool less;
        if (isF) { // PTX ISA §9.7.4.10 (min/max): a NaN and a number give the number (the H200's reduces do,
                   // tests/data/exec/bulk_h200.jsonl), two NaNs the canonical NaN (unverified); -0 < +0
            const double a = toDouble(old, ty), b = toDouble(v, ty);
            if (a != a && b != b) return maskBits(~uint64_t(0), bits - 1);
            if (a != a || b != b) return a != a ? v : old;
            less = a < b || (a == b && std::signbit(a) && !std::signbit(b));
        } else
            less =
                isS ? signExtend(old, bits) < signExtend(v, bits) : maskBits(old, bits) < maskBits(v, bits);
        return (a == AtomOp::Min) == less ? old : v;
    }
    case AtomOp::Inc: // PTX ISA §9.7.13.5 (atom): inc/dec wrap at v
        return maskBits(old, bits) >= maskBits(v, bits) ? 0 : maskBits(old + 1, bits);
    case AtomOp::Dec:
        return maskBits(old, bits) == 0 || maskBits(old, bits) > maskBits(v, bits) ? v
                                                                                   : maskBits(old - 1, bits);
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

bool prepareLoad(Machine& m, Warp& w, const Op& op, int l, TmaTileLoad& ld, uint32_t& targets,
                 size_t coordsNeeded, size_t maskIdx) {
    const auto& o = op.o;
    if (o.size() < 3 || o[0].kind != OK::Mem || o[1].kind != OK::Mem || o[1].elems.empty() ||
        o[2].kind != OK::Mem)
        return m.fail(op, DiagCode::Syntax,
                      "cp.async.bulk.tensor load needs [dstMem], [tensorMap, {coords}], [mbar]");
    if (!(op.async & kAfMbarrier))
        return m.fail(op, DiagCode::Syntax, "a tensor load completes through .mbarrier::complete_tx::bytes");
    if (o[1].elems.size() != coordsNeeded)
        return m.fail(op, DiagCode::Syntax,
                      "." + std::to_string(op.vec) + "d" +
                          (op.async & kAfGather4
                               ? " .tile::gather4 takes 5 coordinates {col, row0..row3}"
                               : " takes " + std::to_string(coordsNeeded) + " coordinates") +
                          "; " + std::to_string(o[1].elems.size()) + " given (" + kCopyRef + ")");
    const TensorMap* map = mapOperand(m, w, op, o[1], l);
    if (!map) return false;
    ld.map = *map;
    for (size_t i = 0; i < o[1].elems.size() && i < ld.coords.size(); ++i)
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
    ld.multicast = op.async & kAfMulticast;
    ld.ctaGroup = op.async & kAfCtaGroup2 ? 2 : 1;
    ld.mbarCta = mbarCta;
    ld.clusterDst = cluster;
    ld.arch = archOf(m.sm);
    targets = 1u << dstCta;
    if (ld.multicast) {
        if (o.size() <= maskIdx)
            return m.fail(op, DiagCode::Syntax,
                          ".multicast::cluster needs the ctaMask operand (operand " +
                              std::to_string(maskIdx + 1) + ")");
        ld.ctaMask = uint16_t(readOperand(m, w, o[maskIdx], l, {TK::U, 16}));
        if (ld.ctaMask >> m.ctas.size())
            return m.fail(op, DiagCode::FaultLaunchFailure,
                          "ctaMask " + std::to_string(ld.ctaMask) + " names CTAs outside the " +
                              std::to_string(m.ctas.size()) + "-CTA cluster");
        targets = ld.ctaMask;
    }
    return true;
}

int64_t deliverLoad(Machine& m, Warp& w, const Op& op, int l, const TmaTileLoad& ld, uint32_t targets,
                    MachineState& st) {
    for (uint32_t c = 0; c < m.ctas.size(); ++c)
        if (targets >> c & 1)
            std::copy(st.smem[c].bytes().begin(), st.smem[c].bytes().end(), m.ctas[c].smem.begin());
    int64_t total = 0;
    for (const auto& [key, mb] : st.mbarriers) {
        total += mb.completedBytes;
        if (mb.completedBytes && !mbarCompleteTx(m, op, key.first, key.second, mb.completedBytes)) return -1;
    }
    const int n = std::popcount(targets);
    const int64_t bytes = n ? total / n : 0;
    if (async::Model* mo = orderModel(m)) // one async unit per delivery (each multicast destination)
        for (uint32_t c = 0; c < m.ctas.size(); ++c)
            if (targets >> c & 1)
                mo->issue(orderSiteBefore(m, w, op, l), // recorded after the delivery
                          async::AsyncOp{
                              async::OpKind::TmaLoad,
                              {},
                              {orderSmem(c, ld.dstAddr, ld.dstAddr + uint64_t(bytes), "TMA destination")},
                              async::Completion::Mbarrier,
                              orderBarrier(tmaSignalCta(ld.ctaGroup, c, ld.mbarCta), ld.mbarAddr),
                              bytes,
                              ld.multicast ? uint32_t(ld.ctaMask) : 0u,
                              UINT32_MAX});
    return bytes;
}

bool prepareStore(Machine& m, Warp& w, const Op& op, int l, TmaTileStore& sto, size_t coordsNeeded) {
    const auto& o = op.o;
    if (o.size() < 2 || o[0].kind != OK::Mem || o[0].elems.empty() || o[1].kind != OK::Mem)
        return m.fail(op, DiagCode::Syntax,
                      "cp.async.bulk.tensor store needs [tensorMap, {coords}], [srcMem]");
    if (o[0].elems.size() != coordsNeeded)
        return m.fail(op, DiagCode::Syntax,
                      "." + std::to_string(op.vec) + "d" +
                          (op.async & kAfScatter4
                               ? " .tile::scatter4 takes 5 coordinates {col, row0..row3}"
                               : " takes " + std::to_string(coordsNeeded) + " coordinates") +
                          "; " + std::to_string(o[0].elems.size()) + " given (" + kCopyRef + ")");
    const TensorMap* map = mapOperand(m, w, op, o[0], l);
    if (!map) return false;
    sto.map = *map;
    for (size_t i = 0; i < o[0].elems.size() && i < sto.coords.size(); ++i)
        sto.coords[i] = int32_t(readOperand(m, w, o[0].elems[i], l, {TK::S, 32}));
    uint32_t srcCta = 0, src = 0;
    if (!sharedTarget(m, w, op, false, memAddress(m, w, o[1], l), srcCta, src, "source")) return false;
    sto.srcCta = srcCta;
    sto.srcAddr = src;
    sto.arch = archOf(m.sm);
    return true;
}

bool storeBack(Machine& m, Warp& w, const Op& op, int l, const TmaTileStore& sto, MachineState& st0,
               MachineState& stFF, AtomOp atom, uint64_t srcBytes) {
    const TensorDataType dt = sto.map.p.dataType;
    const uint32_t eb = std::max<uint32_t>(1, elementBits(dt) / 8);
    const Ty ty = elementTy(dt);
    // Only the map's own byte range [globalAddress, + extent) can be written: compared there alone (16 bytes
    // more: a store writes the 16-byte granule that holds the last element, docs/im2col.md §4).
    const auto& p = sto.map.p;
    uint64_t extent = uint64_t(p.globalDim[0]) * eb + 16;
    for (uint32_t i = 1; i < p.tensorRank; ++i)
        extent += (uint64_t(p.globalDim[i]) - 1) * p.globalStrides[i - 1];
    for (auto& t : m.tensors) {
        const uint64_t a = std::max(p.globalAddress, t.address) - t.address;
        const uint64_t b = std::min(p.globalAddress + extent, t.address + t.bytes.size());
        if (t.address + a >= b) continue;
        const uint64_t n = b - t.address - a;
        std::vector<uint8_t> v0(n), v1(n);
        st0.global.read(t.address + a, v0);
        stFF.global.read(t.address + a, v1);
        const uint64_t step = atom == AtomOp::None ? 1 : eb;
        for (uint64_t j = 0; j + step <= n; j += step) {
            const uint64_t i = a + j;
            if (std::memcmp(&v0[j], &v1[j], step) != 0) continue; // not written by the store
            uint64_t oldV = 0, newV = 0;
            std::memcpy(&oldV, &t.bytes[i], step);
            std::memcpy(&newV, &v0[j], step);
            const uint64_t r = atom == AtomOp::None ? newV : reduceValue(atom, ty, oldV, newV);
            std::memcpy(&t.bytes[i], &r, step);
            recordWrite(m, true, 0, t.address + i, step); // recorded as the bytes it left (a poke)
        }
    }
    if (async::Model* mo = orderModel(m)) // recorded as the poke after the instruction
        mo->issue(orderSiteBefore(m, w, op, l),
                  async::AsyncOp{atom == AtomOp::None ? async::OpKind::TmaStore : async::OpKind::TmaReduce,
                                 {orderSmem(sto.srcCta, sto.srcAddr, sto.srcAddr + srcBytes, "TMA source")},
                                 {},
                                 async::Completion::BulkGroup,
                                 {},
                                 0,
                                 0,
                                 UINT32_MAX});
    return true;
}

} // namespace layoutscope::exec
