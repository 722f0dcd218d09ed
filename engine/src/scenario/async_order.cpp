// The scenario runner as the first front end of the async model (issue 23): after a run, each scenario
// instruction becomes the events of async::Model (issue / access / barrier / group / fence), with the bytes
// each one read and wrote taken from its trace moves. A scenario is one thread per CTA (the `cta N`
// directive switches threads); the findings join Run::warnings.
#include "scenario/async_order.hpp"
#include "scenario/async_order_differ.hpp"
#include "scenario/async_order_ranges.hpp"

#include "layoutscope/async/async.hpp"
#include "layoutscope/scenario/order_timeline.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <span>

namespace layoutscope::scn {
namespace {

using async::Range;

bool starts(const std::string& t, std::string_view p) {
    return t.rfind(p, 0) == 0;
}
bool has(const std::string& t, std::string_view p) {
    return t.find(p) != std::string::npos;
}

// The last integer operand of an instruction ("..., 0;" -> 0), if it is a literal.
std::optional<int64_t> lastInt(const std::string& t) {
    size_t e = t.find_last_not_of(" \t;");
    if (e == std::string::npos) return std::nullopt;
    size_t b = e;
    while (b > 0 && (std::isalnum(static_cast<unsigned char>(t[b - 1])) || t[b - 1] == '_')) --b;
    const std::string tok = t.substr(b, e + 1 - b);
    if (tok.empty() || !std::isdigit(static_cast<unsigned char>(tok[0]))) return std::nullopt;
    try {
        return std::stoll(tok, nullptr, 0);
    } catch (...) {
        return std::nullopt;
    }
}

// The barrier named in the first `[name]` (or `[name+off]`) that is a declared mbarrier.
const ScenarioBarrier* barrierIn(const Scenario& s, const std::string& t) {
    for (size_t p = t.find('['); p != std::string::npos; p = t.find('[', p + 1)) {
        size_t e = t.find_first_of("]+", p);
        if (e == std::string::npos) break;
        std::string n = t.substr(p + 1, e - p - 1);
        n.erase(std::remove_if(n.begin(), n.end(), [](char c) { return std::isspace((unsigned char)c); }),
                n.end());
        if (const ScenarioBarrier* b = s.findBarrier(n)) return b;
    }
    return nullptr;
}

// The buffers that descriptors' start addresses (bits [0,14) = address >> 4) fall in, in each CTA of `ctas`:
// what an MMA reads from shared memory. unverified: the whole buffer is taken as read, not only the
// descriptor's walk (wgmma records no per-element moves, tcgen05.mma none for A and B).
std::vector<Range> descBuffers(const Scenario& s, const std::vector<uint32_t>& ctas,
                               const std::vector<uint64_t>& descs) {
    std::vector<Range> rs;
    for (uint32_t cta : ctas)
        for (uint64_t d : descs) {
            const uint64_t start = (d & 0x3FFF) << 4;
            for (const ScenarioBuffer& b : s.buffers)
                if (b.cta == cta && start >= b.addr && start < uint64_t(b.addr) + b.size)
                    rs.push_back(
                        Range{MemSpace::SharedCta, b.cta, b.addr, uint64_t(b.addr) + b.size, b.name});
        }
    return rs;
}

async::BarrierRef ref(const ScenarioBarrier& b) {
    return {b.cta, b.addr, b.name};
}
async::BarrierRef ref(const Scenario& s, uint32_t cta, uint32_t addr) {
    for (const ScenarioBarrier& b : s.barriers)
        if (b.cta == cta && b.addr == addr) return ref(b);
    return {cta, addr, "CTA " + std::to_string(cta) + " " + std::to_string(addr)};
}

} // namespace

void checkAsyncOrder(const Scenario& s, const Run& run, std::vector<Diagnostic>& out,
                     async::Timeline* timeline) {
    const Trace& tr = run.trace;
    if (tr.instrs.size() != s.instrs.size() || s.instrs.empty()) return; // a run stopped early: no model
    WritesDiffer differ(tr); // the value cross-check, read from the trace's runs (async_order_differ.cpp)
    async::Model model([&differ](uint32_t idx, const Range& ov) { return differ(idx, ov); });
    std::map<uint32_t, uint32_t> allocColumn; ///< CTA -> first column of its last tcgen05.alloc
    bool relaxedArrive = false;               ///< the last barrier.cluster.arrive was .relaxed
    // Each instruction's deliveries (TxEvents with bytes), in trace order: a counting sort by instruction,
    // stable, so one pass instead of a scan of every event per Copy (issue 25 item 3).
    std::vector<uint32_t> txFirst(s.instrs.size() + 1, 0);
    for (const TxEvent& e : tr.txEvents)
        if (e.instr < s.instrs.size() && e.bytes > 0) ++txFirst[e.instr + 1];
    for (size_t k = 1; k < txFirst.size(); ++k) txFirst[k] += txFirst[k - 1];
    std::vector<TxEvent> txByInstr(txFirst.back());
    {
        std::vector<uint32_t> at(txFirst.begin(), txFirst.end() - 1);
        for (const TxEvent& e : tr.txEvents)
            if (e.instr < s.instrs.size() && e.bytes > 0) txByInstr[at[e.instr]++] = e;
    }
    for (uint32_t i = 0; i < s.instrs.size(); ++i) {
        const ScenarioInstr& in = s.instrs[i];
        const std::string& t = in.text;
        const async::Site site{{in.cta, 0, 0}, in.span, t, i};
        auto issue = [&](async::OpKind k, async::Completion how) {
            async::AsyncOp op{k, movesRanges(s, tr, i, false), movesRanges(s, tr, i, true), how, {}, 0, 0, i};
            model.issue(site, std::move(op));
        };
        if (in.kind == ScenarioInstrKind::Tcgen05) {
            if (starts(t, "tcgen05.alloc")) {
                const TraceInstr& ti = tr.instrs[i];
                if (ti.firstMove < ti.endMove) allocColumn[in.cta] = tr.moves[ti.firstMove].src.addr & 0xFFFF;
            } else if (starts(t, "tcgen05.dealloc")) {
                const uint32_t col = in.taddrSmem >= 0 ? allocColumn[in.cta] : in.taddr & 0xFFFF;
                model.dealloc(site, col, col + static_cast<uint32_t>(lastInt(t).value_or(512)));
            } else if (starts(t, "tcgen05.ld")) {
                issue(async::OpKind::Tcgen05Ld, async::Completion::Tcgen05WaitLd);
            } else if (starts(t, "tcgen05.st")) {
                issue(async::OpKind::Tcgen05St, async::Completion::Tcgen05WaitSt);
            } else if (starts(t, "tcgen05.cp")) {
                issue(async::OpKind::Tcgen05Cp, async::Completion::Tcgen05Commit);
            } else if (starts(t, "tcgen05.shift")) {
                issue(async::OpKind::Tcgen05Shift, async::Completion::Tcgen05Commit);
            }
            continue;
        }
        if (in.umma) { // its trace moves write D; A and B are read through the descriptors
            const UmmaRead& u = *in.umma;
            std::vector<uint64_t> descs{u.descB};
            if (!u.op.aFromTmem) descs.push_back(u.descA);
            std::vector<uint32_t> ctas{in.cta};
            if (u.ctaGroup == 2) ctas = {in.cta & ~1u, in.cta | 1u};
            async::AsyncOp op{async::OpKind::Tcgen05Mma,
                              movesRanges(s, tr, i, false),
                              movesRanges(s, tr, i, true),
                              async::Completion::Tcgen05Commit,
                              {},
                              0,
                              0,
                              i};
            for (Range& r : descBuffers(s, ctas, descs)) op.reads.push_back(std::move(r));
            model.issue(site, std::move(op));
            continue;
        }
        switch (in.kind) {
        case ScenarioInstrKind::Copy: {
            const std::span<const TxEvent> tx(txByInstr.data() + txFirst[i], txFirst[i + 1] - txFirst[i]);
            if (tx.empty()) { // a store: reads shared memory, completes through a bulk async-group
                issue(async::OpKind::TmaStore, async::Completion::BulkGroup);
                break;
            }
            uint32_t mask = 0;
            if (const auto* ld = std::get_if<TmaTileLoad>(&in.op); ld && ld->multicast) mask = ld->ctaMask;
            for (const TxEvent& e : tx) { // one async unit per delivery (each multicast destination)
                async::AsyncOp op{async::OpKind::TmaLoad,
                                  {},
                                  movesRanges(s, tr, i, true, mask ? int(e.cta) : -1),
                                  async::Completion::Mbarrier,
                                  ref(s, e.cta, e.mbarAddr),
                                  e.bytes,
                                  mask,
                                  i};
                model.issue(site, std::move(op));
            }
            break;
        }
        case ScenarioInstrKind::MbarrierInit:
            model.init(site, ref(s, in.cta, in.mbarAddr), static_cast<uint32_t>(in.value));
            break;
        case ScenarioInstrKind::MbarrierExpectTx:
            model.arrive(site, ref(s, in.cta, in.mbarAddr), in.value, has(t, ".arrive"));
            break;
        case ScenarioInstrKind::MbarrierCompleteTx:
            model.completeTx(site, ref(s, in.cta, in.mbarAddr), in.value);
            break;
        case ScenarioInstrKind::MbarrierWait: {
            std::optional<uint32_t> parity;
            if (has(t, ".parity"))
                if (auto v = lastInt(t)) parity = static_cast<uint32_t>(*v);
            model.wait(site, ref(s, in.cta, in.mbarAddr), parity);
            break;
        }
        case ScenarioInstrKind::NoOp: {
            if (in.smemAccess) {
                const SmemAccess& a = *in.smemAccess;
                std::vector<Range> rs;
                const uint32_t w = a.kind == SmemAccess::Kind::Ldmatrix ? 16 : a.widthBytes;
                for (uint32_t l = 0; l < 32; ++l)
                    if ((a.activeMask >> l) & 1)
                        rs.push_back(Range{MemSpace::SharedCta, in.cta, a.addr[l], a.addr[l] + w,
                                           bufferName(s, in.cta, a.addr[l])});
                std::sort(rs.begin(), rs.end(),
                          [](const Range& x, const Range& y) { return x.begin < y.begin; });
                std::vector<Range>
                    merged; // one range per contiguous run (and buffer), as the report names it
                for (Range& r : rs)
                    if (!merged.empty() && r.begin <= merged.back().end && r.name == merged.back().name)
                        merged.back().end = std::max(merged.back().end, r.end);
                    else
                        merged.push_back(std::move(r));
                rs = std::move(merged);
                const bool store = a.kind == SmemAccess::Kind::Store;
                model.access(site, store ? std::vector<Range>{} : rs, store ? rs : std::vector<Range>{});
            } else if (in.wgmma) {
                async::AsyncOp op{
                    async::OpKind::Wgmma, {}, {}, async::Completion::WgmmaGroup, {}, 0, 0, UINT32_MAX};
                op.reads = descBuffers(s, {in.cta}, {in.wgmma->descA, in.wgmma->descB});
                model.issue(site, std::move(op));
            } else if (starts(t, "mbarrier.arrive")) {
                if (const ScenarioBarrier* b = barrierIn(s, t)) model.arrive(site, ref(*b), 0, true);
            } else if (starts(t, "fence.proxy.async")) {
                model.fence(site, async::FenceKind::ProxyAsync);
            } else if (starts(t, "fence.mbarrier_init")) {
                model.fence(site, async::FenceKind::MbarrierInit);
            } else if (starts(t, "tcgen05.fence::before")) {
                model.fence(site, async::FenceKind::Tcgen05BeforeThread);
            } else if (starts(t, "tcgen05.fence::after")) {
                model.fence(site, async::FenceKind::Tcgen05AfterThread);
            } else if (starts(t, "cp.async.bulk.commit_group")) {
                model.commitGroup(site, async::Completion::BulkGroup);
            } else if (starts(t, "cp.async.bulk.wait_group")) {
                model.waitGroup(site, async::Completion::BulkGroup,
                                static_cast<uint32_t>(lastInt(t).value_or(0)), has(t, ".read"));
            } else if (starts(t, "wgmma.commit_group")) {
                model.commitGroup(site, async::Completion::WgmmaGroup);
            } else if (starts(t, "wgmma.wait_group")) {
                model.waitGroup(site, async::Completion::WgmmaGroup,
                                static_cast<uint32_t>(lastInt(t).value_or(0)), false);
            } else if (starts(t, "tcgen05.commit")) {
                if (const ScenarioBarrier* b = barrierIn(s, t)) model.tcgen05Commit(site, ref(*b));
            } else if (starts(t, "tcgen05.wait::ld")) {
                model.tcgen05Wait(site, async::Completion::Tcgen05WaitLd);
            } else if (starts(t, "tcgen05.wait::st")) {
                model.tcgen05Wait(site, async::Completion::Tcgen05WaitSt);
            } else if (starts(t, "barrier.cluster.arrive")) {
                relaxedArrive = has(t, ".relaxed");
            } else if (starts(t, "barrier.cluster.wait")) {
                model.clusterBarrier(site, !relaxedArrive); // a release arrive publishes the inits before it
            }
            break;
        }
        case ScenarioInstrKind::Tcgen05:
        case ScenarioInstrKind::Poke: // only recorded kernels poke, and their order is not judged here
            break;
        }
    }
    const ScenarioInstr& last = s.instrs.back();
    model.finish(async::Site{{last.cta, 0, 0}, last.span, "kernel exit", uint32_t(s.instrs.size() - 1)});
    // A multicast that leaves out a CTA explains that CTA's hang with the right fix: it supersedes the
    // expect_tx check's reading of the same wait ("announce only the bytes that arrive"), issue 23.
    for (const Diagnostic& d : model.findings())
        if (d.message.rfind("ctaMask ", 0) == 0)
            std::erase_if(out, [&](const Diagnostic& e) {
                return e.span.line == d.span.line &&
                       e.message.find("expect_tx announced") != std::string::npos;
            });
    // The model's severities stand: a race, a hang or an operation in flight at tcgen05.dealloc is an
    // error (check --run fails), an operation still in flight at the scenario's end a warning (a
    // scenario may be a fragment whose waits come later). Issue 23: ordering bugs must not pass "ok".
    const size_t first = out.size(); // findings keep their order: finding k is out[first + k]
    out.insert(out.end(), model.findings().begin(), model.findings().end());
    if (!timeline) return;
    *timeline = model.timeline();
    for (async::RaceLink& r : timeline->races) r.finding += first;
}

} // namespace layoutscope::scn

namespace layoutscope {

async::Timeline orderTimeline(const Scenario& s, const Run& run) {
    async::Timeline t;
    if (s.recorded) return s.kernelTimeline ? scn::kernelTimeline(s, run) : t;
    std::vector<Diagnostic> findings;
    scn::checkAsyncOrder(s, run, findings, &t);
    // runScenario appended the same findings last to run.warnings: re-base the races' indices there.
    const size_t first = run.warnings.size() >= findings.size() ? run.warnings.size() - findings.size() : 0;
    for (async::RaceLink& r : t.races) r.finding += first;
    return t;
}

} // namespace layoutscope
