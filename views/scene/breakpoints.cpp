#include "scene/breakpoints.hpp"

#include "layoutscope/analysis/banks.hpp"
#include "layoutscope/core/provenance.hpp"

#include <algorithm>
#include <map>
#include <sstream>

namespace layoutscope::views {

std::optional<uint32_t> nextWriteStep(const Trace& t, std::span<const DataLoc> locs, uint32_t fromStep) {
    if (locs.empty()) return std::nullopt;
    std::vector<DataLoc> sorted(locs.begin(), locs.end());
    std::sort(sorted.begin(), sorted.end());
    const size_t first = t.movesOfStep(fromStep).first;
    for (auto it = t.moves.begin() + std::ptrdiff_t(first); it != t.moves.end(); ++it) {
        const ByteMove m = *it;
        if (m.step < fromStep || m.length == 0) continue;
        // One move's destination is a contiguous run of locations [lo, hi] in DataLoc order.
        const auto lo = locOf(m.dst, 0), hi = locOf(m.dst, m.length - 1);
        if (!lo || !hi) continue;
        const auto l = std::lower_bound(sorted.begin(), sorted.end(), *lo);
        if (l != sorted.end() && !(*hi < *l)) return m.step;
    }
    return std::nullopt;
}

std::optional<RuleUse> nextUnverifiedMove(const Trace& t, uint32_t fromStep) {
    const size_t first = t.movesOfStep(fromStep).first;
    for (auto it = t.moves.begin() + std::ptrdiff_t(first); it != t.moves.end(); ++it) {
        const ByteMove m = *it;
        if (m.step < fromStep || m.rule == RuleId::None) continue;
        if (!isVerified(ruleInfo(m.rule).provenance)) return RuleUse{m.step, m.rule};
    }
    return std::nullopt;
}

uint32_t instrStopPosition(const TraceInstr& i) {
    return i.endStep > i.firstStep ? i.firstStep + 1 : i.firstStep;
}

std::vector<uint32_t> bankExcessPerInstr(const Trace& t, const Scenario& s) {
    std::map<int, uint32_t> byLine; // source line -> excess wavefronts of its shared access
    for (const ScenarioInstr& in : s.instrs)
        if (in.smemAccess)
            if (auto r = smemAccessWavefronts(*in.smemAccess)) byLine[int(in.span.line)] = r->excess;
    std::vector<uint32_t> out(t.instrs.size(), 0);
    for (size_t i = 0; i < t.instrs.size(); ++i)
        if (auto f = byLine.find(t.instrs[i].sourceLine); f != byLine.end() && t.instrs[i].sourceLine > 0)
            out[i] = f->second;
    return out;
}

static std::string hexOf(uint64_t v) {
    std::ostringstream o;
    o << "0x" << std::hex << v;
    return o.str();
}

static std::string locText(const DataLoc& l) {
    switch (l.space) {
    case MemSpace::Global:
        return "global " + hexOf(l.key);
    case MemSpace::SharedCta:
        return "shared CTA " + std::to_string(l.cta) + " " + hexOf(l.key);
    case MemSpace::TensorMemory:
        return "TMEM CTA " + std::to_string(l.cta) + " lane " + std::to_string(l.key >> 16) + " column " +
               std::to_string(l.key & 0xFFFF);
    case MemSpace::Register:
        return "register %r" + std::to_string(l.key & 0xFFFF) + " of thread " + std::to_string(l.key >> 16) +
               " (CTA " + std::to_string(l.cta) + ")";
    default:
        return "?";
    }
}

std::string describeBreakpoint(const Breakpoint& b) {
    switch (b.kind) {
    case Breakpoint::Kind::CellWritten: {
        if (!b.label.empty()) return "when " + b.label + " is written";
        if (b.locs.empty()) return "when (no cell) is written";
        std::string s = "when " + locText(b.locs.front());
        if (b.locs.size() > 1) s += " (+" + std::to_string(b.locs.size() - 1) + " more)";
        return s + " is written";
    }
    case Breakpoint::Kind::BankExcess:
        return "when a shared access has more than " + std::to_string(b.maxExcess) +
               " excess wavefront(s) (bank conflicts)";
    case Breakpoint::Kind::UnverifiedRule:
        return "when a rule flagged unverified is used";
    }
    return {};
}

std::optional<BreakHit> nextBreak(const Trace& t, std::span<const Breakpoint> bps,
                                  std::span<const uint32_t> excessPerInstr, uint32_t after) {
    std::optional<BreakHit> best;
    const auto offer = [&](uint32_t pos, std::string why) {
        if (pos > after && (!best || pos < best->position)) best = BreakHit{pos, std::move(why)};
    };
    const auto instrName = [&](size_t i) {
        const TraceInstr& in = t.instrs[i];
        return "instruction " + std::to_string(i) +
               (in.sourceLine ? " (line " + std::to_string(in.sourceLine) + ")" : "");
    };
    // A move seen at position after + 1 or later has step >= after.
    for (const Breakpoint& b : bps) {
        if (!b.enabled) continue;
        switch (b.kind) {
        case Breakpoint::Kind::CellWritten:
            if (auto s = nextWriteStep(t, b.locs, after)) {
                const ByteMove m = t.moves[t.movesOfStep(*s).first];
                offer(*s + 1, "breakpoint: " + describeBreakpoint(b).substr(5) + " by step " +
                                  std::to_string(*s) + ", " + instrName(m.instr));
            }
            break;
        case Breakpoint::Kind::BankExcess:
            for (size_t i = 0; i < t.instrs.size() && i < excessPerInstr.size(); ++i)
                if (excessPerInstr[i] > b.maxExcess && instrStopPosition(t.instrs[i]) > after) {
                    offer(instrStopPosition(t.instrs[i]),
                          "breakpoint: " + instrName(i) + " has " + std::to_string(excessPerInstr[i]) +
                              " excess wavefronts (bank conflicts), more than " +
                              std::to_string(b.maxExcess));
                    break;
                }
            break;
        case Breakpoint::Kind::UnverifiedRule:
            if (auto u = nextUnverifiedMove(t, after))
                offer(u->step + 1, "breakpoint: step " + std::to_string(u->step) + " uses unverified rule " +
                                       ruleInfo(u->rule).name + " (" +
                                       provenanceTag(ruleInfo(u->rule).provenance) + ")");
            for (size_t i = 0; i < t.instrs.size(); ++i) {
                const auto& also = t.instrs[i].alsoRules;
                const auto r = std::find_if(also.begin(), also.end(),
                                            [](RuleId id) { return !isVerified(ruleInfo(id).provenance); });
                if (r != also.end() && instrStopPosition(t.instrs[i]) > after) {
                    offer(instrStopPosition(t.instrs[i]),
                          "breakpoint: " + instrName(i) + " uses unverified rule " + ruleInfo(*r).name +
                              " (" + provenanceTag(ruleInfo(*r).provenance) + ")");
                    break;
                }
            }
            break;
        }
    }
    return best;
}

static std::vector<uint32_t> boundaries(const Trace& t) {
    std::vector<uint32_t> b{0, t.stepCount};
    for (const TraceInstr& i : t.instrs)
        if (i.endStep > i.firstStep) b.insert(b.end(), {i.firstStep, i.endStep});
    std::sort(b.begin(), b.end());
    b.erase(std::unique(b.begin(), b.end()), b.end());
    return b;
}

uint32_t nextInstrPosition(const Trace& t, uint32_t position) {
    const auto b = boundaries(t);
    const auto it = std::upper_bound(b.begin(), b.end(), position);
    return it == b.end() ? t.stepCount : std::min(*it, t.stepCount);
}

uint32_t prevInstrPosition(const Trace& t, uint32_t position) {
    const auto b = boundaries(t);
    const auto it = std::lower_bound(b.begin(), b.end(), position);
    return it == b.begin() ? 0 : *(it - 1);
}

} // namespace layoutscope::views
