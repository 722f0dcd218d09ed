// Operands, addresses and memory instructions (PTX ISA 9.2 §5.1 state spaces, §6.4.1 addresses,
// §9.7.9.7 cvta, §9.7.9.8 ld, §9.7.9.10 st, §9.7.13.5 atom, §9.7.13.6 red). Every access is bounds- and
// alignment-checked: an out-of-range or misaligned address stops the run naming the line, the thread
// and the address. Memory is single-copy and sequentially consistent (ordering qualifiers are no-ops).
#include "exec/machine.hpp"
#include "exec/record.hpp"

#include <cstring>

namespace layoutscope::exec {

namespace {

uint64_t special(Machine& m, Warp& w, const Opnd& o, int lane) {
    const Cta& c = m.ctas[w.cta];
    const Launch& L = m.launch;
    const uint32_t t = w.firstThread + lane;
    auto pick = [&](Dim3 d) -> uint64_t { return o.comp == 0 ? d.x : o.comp == 1 ? d.y : d.z; };
    const Dim3 tid{t % L.block.x, (t / L.block.x) % L.block.y, t / (L.block.x * L.block.y)};
    const Dim3 ncl{L.grid.x / L.cluster.x, L.grid.y / L.cluster.y, L.grid.z / L.cluster.z};
    const Dim3 clid{c.id.x / L.cluster.x, c.id.y / L.cluster.y, c.id.z / L.cluster.z};
    switch (o.sreg) {
    case SReg::Tid:
        return pick(tid);
    case SReg::Ntid:
        return pick(L.block);
    case SReg::Ctaid:
        return pick(c.id);
    case SReg::Nctaid:
        return pick(L.grid);
    case SReg::Laneid:
        return uint64_t(lane);
    case SReg::Warpid:
        return w.firstThread / 32;
    case SReg::Nwarpid:
        return (m.threadsPerCta + 31) / 32;
    case SReg::Clusterid:
        return pick(clid);
    case SReg::Nclusterid:
        return pick(ncl);
    case SReg::ClusterCtaid:
        return pick(c.inCluster);
    case SReg::ClusterNctaid:
        return pick(L.cluster);
    case SReg::ClusterCtarank:
        return c.rank;
    case SReg::ClusterNctarank:
        return L.cluster.count();
    case SReg::IsExplicitCluster:
        return L.cluster.count() > 1;
    case SReg::LanemaskEq:
        return uint64_t(1) << lane;
    case SReg::LanemaskLt:
        return (uint64_t(1) << lane) - 1;
    case SReg::LanemaskLe:
        return (uint64_t(2) << lane) - 1;
    case SReg::LanemaskGt:
        return maskBits(~((uint64_t(2) << lane) - 1), 32);
    case SReg::LanemaskGe:
        return maskBits(~((uint64_t(1) << lane) - 1), 32);
    case SReg::Clock:
    case SReg::Clock64:
    case SReg::Globaltimer:
        return m.threadInstructions; // unverified: a step count
    case SReg::DynSmem:
        return L.dynamicSmem;
    case SReg::TotalSmem:
        return m.ctas[w.cta].smem.size();
    case SReg::Smid:
        return 0;
    case SReg::Nsmid:
        return 1;
    case SReg::Gridid:
        return 0;
    }
    return 0;
}

} // namespace

uint64_t symbolAddress(const Machine& m, const Symbol& s, uint32_t cta) {
    if (s.space == Space::Shared || s.space == Space::SharedCluster)
        return uint64_t(m.ctas[cta].rank) << kClusterRankShift | s.offset;
    return s.perThreadParam ? kThreadParamBase + s.offset : s.offset;
}

std::string splitShared(const Machine& m, const Warp& w, bool cluster, uint64_t addr, uint32_t& cta,
                        uint64_t& offset) {
    const uint64_t rank = addr >> kClusterRankShift;
    offset = addr & ((uint64_t(1) << kClusterRankShift) - 1);
    cta = w.cta;
    if (rank == m.ctas[w.cta].rank) return {};
    if (!cluster) {
        // unverified: a shared::cta address without the CTA's rank bits (a literal offset written in the
        // PTX) is taken as the executing CTA's; hardware may fault. Another CTA's rank bits are an error.
        if (rank == 0) return {};
        return "a shared::cluster address of CTA rank " + std::to_string(rank) +
               " (its bits [24,32)) used in "
               "the .shared::cta space of CTA rank " +
               std::to_string(m.ctas[w.cta].rank);
    }
    if (rank >= m.ctas.size())
        return "a shared::cluster address of CTA rank " + std::to_string(rank) + "; the cluster has " +
               std::to_string(m.ctas.size()) + " CTAs";
    cta = uint32_t(rank); // Machine::ctas is in %cluster_ctarank order (launch.cpp)
    return {};
}

uint64_t readOperandSlow(Machine& m, Warp& w, const Opnd& o, int lane, Ty t) {
    switch (o.kind) {
    case OK::Reg: {
        const uint64_t v = m.reg(w, o.reg, lane);
        return t.k == TK::Pred && o.neg ? !(v & 1) : v;
    }
    case OK::Imm: {
        if (!t.isFloat() || t.k != TK::F || o.comp == (t.bits == 32 ? 1 : 2)) {
            if (t.k == TK::F && o.comp == 0) { // an integer written where a float is read
                const double d = static_cast<double>(o.imm);
                float f = static_cast<float>(d);
                uint64_t b = 0;
                if (t.bits == 64)
                    std::memcpy(&b, &d, 8);
                else
                    std::memcpy(&b, &f, 4);
                return b;
            }
            return static_cast<uint64_t>(o.imm);
        }
        double d; // 0f literal read as f64, 0d or decimal read as f32
        if (o.comp == 1) {
            float f;
            const uint32_t b32 = static_cast<uint32_t>(o.imm);
            std::memcpy(&f, &b32, 4);
            d = f;
        } else {
            const uint64_t b64 = static_cast<uint64_t>(o.imm);
            std::memcpy(&d, &b64, 8);
        }
        if (t.bits == 64) {
            uint64_t b;
            std::memcpy(&b, &d, 8);
            return b;
        }
        return fromLongDouble(d, t, Rnd::Rn, false);
    }
    case OK::Special:
        return special(m, w, o, lane);
    case OK::Sym:
        return symbolAddress(m, m.p.symbols[o.sym], w, lane) + static_cast<uint64_t>(o.imm);
    default:
        return 0;
    }
}

uint8_t* resolve(Machine& m, Warp& w, const Op& op, Space space, uint64_t addr, uint64_t bytes, int lane,
                 bool write) {
    auto bad = [&](const std::string& why) -> uint8_t* {
        char buf[32];
        std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(addr));
        m.fail(op, DiagCode::FaultLaunchFailure,
               std::string(write ? "store to " : "load from ") + buf + " (" + std::to_string(bytes) +
                   " bytes) by " + m.who(w, lane) + ": " + why);
        return nullptr;
    };
    if (bytes && addr % bytes != 0 && bytes <= 16) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(addr));
        m.fail(op, DiagCode::FaultMisalignedAddress,
               std::string("misaligned ") + (write ? "store to " : "load from ") + buf + " by " +
                   m.who(w, lane) + ": a " + std::to_string(bytes) + "-byte access needs a multiple of " +
                   std::to_string(bytes));
        return nullptr;
    }
    auto in = [&](std::vector<uint8_t>& v, uint64_t off) -> uint8_t* {
        if (off > v.size() || bytes > v.size() - off) return nullptr;
        return v.data() + off;
    };
    if (space == Space::Generic) {
        if (addr - kSharedWindow < kWindowBytes) // generic addresses reach the cluster's shared memory
            space = Space::SharedCluster, addr -= kSharedWindow;
        else if (addr - kLocalWindow < kWindowBytes)
            space = Space::Local, addr -= kLocalWindow;
        else if (addr - kConstBase < kWindowBytes)
            space = Space::Const, addr -= kConstBase;
        else if (addr - kParamWindow < kWindowBytes) // cvta.param: kernel parameters (__grid_constant__)
            space = Space::Param, addr -= kParamWindow;
        else
            space = Space::Global;
    }
    uint8_t* p = nullptr;
    switch (space) {
    case Space::Shared:
    case Space::SharedCluster: {
        uint32_t cta = w.cta;
        uint64_t off = 0;
        if (std::string why = splitShared(m, w, space == Space::SharedCluster, addr, cta, off); !why.empty())
            return bad(why);
        p = in(m.ctas[cta].smem, off);
        if (p && write && m.rec) recordWrite(m, false, cta, off, bytes);
        return p ? p
                 : bad("outside the CTA's " + std::to_string(m.ctas[cta].smem.size()) +
                       " bytes of shared memory");
    }
    case Space::Local: {
        const uint64_t per = m.p.localBytes;
        const uint64_t tIndex = uint64_t(w.cta) * m.threadsPerCta + w.firstThread + lane;
        if (addr >= kLocalFrames) { // the frames of the thread's live recursive activations (run.cpp)
            std::vector<uint8_t>& frames = m.localFrames[tIndex];
            p = in(frames, addr - kLocalFrames);
            return p ? p
                     : bad("outside the " + std::to_string(frames.size()) +
                           " bytes of the thread's live recursive-call frames");
        }
        if (addr > per || bytes > per - addr)
            return bad("outside the thread's " + std::to_string(per) + " bytes of local memory");
        return m.local.data() + tIndex * per + addr;
    }
    case Space::Const:
        if (write) return bad("the .const space is read-only");
        p = in(m.constMem, addr);
        return p ? p : bad("outside the module's .const variables");
    case Space::Param: {
        if (addr >= kThreadParamBase) { // a .func parameter or a call-site .param of this thread
            const uint64_t per = m.p.threadParamBytes, off = addr - kThreadParamBase;
            if (off > per || bytes > per - off) return bad("outside the thread's .param variables");
            const uint64_t tIndex = uint64_t(w.cta) * m.threadsPerCta + w.firstThread + lane;
            return m.threadParams.data() + tIndex * per + off;
        }
        if (write) return bad("kernel parameters are read-only");
        p = in(m.kernelParams, addr);
        return p ? p
                 : bad("outside the kernel's " + std::to_string(m.kernelParams.size()) +
                       " bytes of parameters");
    }
    case Space::Global:
    case Space::Generic:
        if (addr - kModuleGlobalBase < m.moduleGlobals.size()) {
            p = in(m.moduleGlobals, addr - kModuleGlobalBase);
            if (p) return p;
        }
        {
            const ExecTensor* below = nullptr;
            for (auto& t : m.tensors) {
                if (addr >= t.address && addr - t.address < t.bytes.size()) {
                    p = in(t.bytes, addr - t.address);
                    if (p && write && m.rec) recordWrite(m, true, 0, addr, bytes);
                    return p ? p : bad("runs past the end of tensor `" + t.name + "`");
                }
                if (addr >= t.address && (!below || t.address > below->address)) below = &t;
            }
            if (below && addr - below->address < (uint64_t(1) << 32))
                return bad(std::to_string(addr - below->address - below->bytes.size()) +
                           " bytes past the end of tensor `" + below->name + "` (" +
                           std::to_string(below->bytes.size()) + " bytes)");
            return bad("not inside any tensor passed as an argument (nor a module .global variable)");
        }
    }
    return bad("unknown state space");
}

} // namespace layoutscope::exec
