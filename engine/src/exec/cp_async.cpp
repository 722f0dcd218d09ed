// cp.async (sm_80; PTX ISA 9.2 §9.7.9.25.3 cp.async, §9.7.9.25.4 commit_group / wait_group / wait_all).
// Schedule: the copy lands at issue (the earliest schedule the PTX memory model allows), so a correct
// kernel reads the same bytes as on hardware; a kernel that reads the destination before its wait_group
// is not caught here (the order model's job). Groups are counted per thread (Machine::cpAsync).
//
// cp.async.mbarrier.arrive (§9.7.9.25.3.4) arrives on the mbarrier at once (the copies have landed).
// src-size < cp-size copies src-size bytes and zero-fills the rest; a true ignore-src predicate writes
// cp-size zero bytes without reading the source.
#include "exec/mbarrier.hpp"
#include "exec/mma_exec.hpp"
#include "exec/order.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

namespace layoutscope::exec {

bool execCpAsync(Machine& m, Warp& w, const Op& op, uint32_t exec) {
    const MmaForm& f = m.p.mmaForms[size_t(op.form)];
    if (m.cpAsync.empty()) m.cpAsync.assign(m.ctas.size() * size_t(m.threadsPerCta), {0, 0});
    auto state = [&](int lane) -> std::array<uint32_t, 2>& {
        return m.cpAsync[size_t(w.cta) * m.threadsPerCta + w.firstThread + lane];
    };
    async::Model* mo = orderModel(m);                  // h/xasync's order model: groups per thread
    if (op.opc == Opc::CpAsyncGroup && op.mode == 2) { // cp.async.mbarrier.arrive{.noinc}
        // Every prior cp.async of the thread has landed, so its arrive-on happens now. Without .noinc the
        // pending count is incremented first (§9.7.9.25.3.4): the phase's arrivals are unchanged.
        for (uint32_t x = exec; x; x &= x - 1) {
            const int l = std::countr_zero(x);
            uint32_t cta = 0, off = 0;
            if (!mbarTarget(m, w, op, op.space, memAddress(m, w, op.o[0], l), l, cta, off)) return false;
            if (f.noinc ? !mbarArrive(m, op, cta, off, 1, 0) : !mbarAt(m, op, cta, off)) return false;
            if (mo) { // unverified: modelled as "the thread's copies completed, then an arrive" (noinc), so a
                      // waiter of the phase is ordered after them; without .noinc no arrival is counted
                const async::Site site = orderSite(m, w, op, l);
                mo->commitGroup(site, async::Completion::CpAsyncGroup); // it tracks every prior cp.async,
                mo->waitGroup(site, async::Completion::CpAsyncGroup, 0, false); // committed or not
                mo->arrive(site, orderBarrier(cta, off), 0, f.noinc);
            }
        }
        return true;
    }
    if (op.opc == Opc::CpAsyncGroup) {
        for (uint32_t x = exec; x; x &= x - 1) {
            const int l = std::countr_zero(x);
            if (mo && op.mode == 0) mo->commitGroup(orderSite(m, w, op, l), async::Completion::CpAsyncGroup);
            if (mo && op.mode == 1)
                mo->waitGroup(orderSite(m, w, op, l), async::Completion::CpAsyncGroup,
                              uint32_t(std::max(f.waitN, 0)), false);
            auto& s = state(l);
            if (op.mode == 0 && s[0]) s[0] = 0, ++s[1]; // commit_group (an empty group commits nothing)
            // wait_group N / wait_all: every copy has landed at issue; nothing to wait for.
        }
        return true;
    }
    for (uint32_t x = exec; x; x &= x - 1) {
        const int l = std::countr_zero(x);
        const uint64_t dst = memAddress(m, w, op.o[0], l), src = memAddress(m, w, op.o[1], l);
        uint64_t n = f.cpSize;
        if (f.hasSrcSize) {
            const uint64_t v = readOperand(m, w, op.o[3], l, f.ignoreSrc ? Ty{TK::Pred, 1} : Ty{TK::U, 32});
            if (f.ignoreSrc)
                n = (v & 1) ? 0 : n;
            else if (uint32_t(v) > f.cpSize)
                return m.fail(op, DiagCode::InvalidValue,
                              "src-size " + std::to_string(uint32_t(v)) + " of " + m.who(w, l) +
                                  " is larger than cp-size " + std::to_string(f.cpSize) +
                                  " (PTX ISA §9.7.9.25.3: src-size <= cp-size)");
            else
                n = uint32_t(v);
        }
        uint8_t* d = resolve(m, w, op, Space::Shared, dst, f.cpSize, l, true);
        if (!d) return false;
        if (src % f.cpSize != 0) {
            resolve(m, w, op, Space::Global, src, f.cpSize, l, false); // the misaligned-address diagnostic
            return false;
        }
        uint8_t buf[16] = {};
        if (n == f.cpSize) {
            const uint8_t* s = resolve(m, w, op, Space::Global, src, n, l, false);
            if (!s) return false;
            std::memcpy(buf, s, n);
        } else {
            for (uint64_t i = 0; i < n; ++i) {
                const uint8_t* s = resolve(m, w, op, Space::Global, src + i, 1, l, false);
                if (!s) return false;
                buf[i] = *s;
            }
        }
        std::memcpy(d, buf, f.cpSize);
        ++state(l)[0];
        if (mo) {
            async::AsyncOp ao{
                async::OpKind::CpAsync, {}, {}, async::Completion::CpAsyncGroup, {}, 0, 0, UINT32_MAX};
            ao.writes.push_back(orderSmem(w.cta, dst, dst + f.cpSize, "cp.async destination"));
            mo->issue(orderSiteBefore(m, w, op, l), std::move(ao)); // its bytes: a poke after it
        }
    }
    return true;
}

} // namespace layoutscope::exec
