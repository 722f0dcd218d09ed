// Linked selection: the selected data followed through the trace (selection.hpp).
#include "scene/selection.hpp"

#include "scene/smem_scene.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <type_traits>

namespace layoutscope::views {

std::optional<DataLoc> locOf(const MemRef& r, uint32_t k) {
    switch (r.space) {
    case MemSpace::Global:
        return DataLoc{MemSpace::Global, 0, r.addr + k};
    case MemSpace::SharedCta:
        return DataLoc{MemSpace::SharedCta, r.cta, r.addr + k};
    case MemSpace::TensorMemory: { // lane<<16 | column; byte k of a move lies in column + k/4
        const uint64_t lane = r.addr >> 16, col = (r.addr & 0xFFFF) + k / 4;
        return DataLoc{MemSpace::TensorMemory, r.cta, lane << 16 | col};
    }
    case MemSpace::Register: { // thread<<16 | (register*4 + byte)
        const uint64_t thread = r.addr >> 16, byte = (r.addr & 0xFFFF) + k;
        return DataLoc{MemSpace::Register, r.cta, thread << 16 | byte / 4};
    }
    default:
        return std::nullopt;
    }
}

uint32_t srcByteOf(const ByteMove& m, uint32_t k) {
    switch (m.transform) {
    case Transform::Decompress4to8:
        return k / 2;
    case Transform::Decompress6to8:
        return k * 6 / 8;
    case Transform::Pack8to6:
        return k * 8 / 6;
    default:
        return k;
    }
}

namespace {

/// Source location of destination byte k (none for fills and the zero upper half of .unpack::16b).
std::optional<DataLoc> srcLoc(const ByteMove& m, uint32_t k) {
    if (m.transform == Transform::Unpack16b && k >= 2) return std::nullopt;
    return locOf(m.src, srcByteOf(m, k));
}

/// Does [lo, hi] (locations of one side of a move) hold any element of `s`?
template <class Set>
bool touches(const Set& s, const MemRef& r, uint32_t length) {
    const auto lo = locOf(r, 0), hi = locOf(r, length ? length - 1 : 0);
    if (!lo || !hi) return false;
    const auto it = s.lower_bound(*lo);
    if constexpr (std::is_same_v<Set, std::set<DataLoc>>)
        return it != s.end() && !(*hi < *it);
    else
        return it != s.end() && !(*hi < it->first);
}

} // namespace

LinkedData linkData(const Document& doc, const std::vector<DataLoc>& start, uint32_t step, size_t maxLocs,
                    bool* truncated) {
    LinkedData out;
    if (truncated) *truncated = false;
    if (!doc.hasTrace() || start.empty()) return out;
    const Trace& t = doc.trace();
    step = std::min(step, t.stepCount);
    // Backwards from the scene step: the latest writer of each location is where it came from.
    std::set<DataLoc> active(start.begin(), start.end());
    const size_t end = step == 0 ? 0 : t.movesOfStep(step - 1).second;
    for (size_t i = end; i-- > 0;) {
        const ByteMove& m = t.moves[i];
        if (!touches(active, m.dst, m.length)) continue;
        std::vector<DataLoc> found, sources; // several bytes may share a TMEM cell or a register
        for (uint32_t k = 0; k < m.length; ++k) {
            const auto d = locOf(m.dst, k);
            if (!d || !active.count(*d)) continue;
            found.push_back(*d);
            if (const auto s = srcLoc(m, k)) sources.push_back(*s);
        }
        for (const DataLoc& d : found) active.erase(d);
        active.insert(sources.begin(), sources.end());
    }
    // Forwards from the roots through the whole trace: every copy, until it is overwritten.
    std::map<DataLoc, size_t> alive;
    for (const DataLoc& r : active) {
        alive[r] = out.locs.size();
        out.locs.push_back({r, 0, UINT32_MAX, std::nullopt});
    }
    for (size_t i = 0; i < t.moves.size(); ++i) {
        const ByteMove& m = t.moves[i];
        const bool reads = touches(alive, m.src, m.length), writes = touches(alive, m.dst, m.length);
        if (!reads && !writes) continue;
        const uint32_t eb = doc.elemBytesOf(m.instr);
        std::vector<std::pair<uint32_t, DataLoc>> fed; // (byte, destination) made from selected data
        for (uint32_t k = 0; reads && k < m.length; ++k) {
            const auto s = srcLoc(m, k);
            const auto d = locOf(m.dst, k);
            if (!s || !d) continue;
            const auto it = alive.find(*s);
            if (it == alive.end()) continue;
            if (m.src.space == MemSpace::Global && !out.locs[it->second].coord)
                out.locs[it->second].coord = coordOfByte(m, srcByteOf(m, k), eb);
            fed.emplace_back(k, *d);
        }
        for (uint32_t k = 0; writes && k < m.length; ++k) { // bytes overwritten by other data
            const auto d = locOf(m.dst, k);
            if (!d) continue;
            const bool isFed =
                std::any_of(fed.begin(), fed.end(), [&](const auto& f) { return f.second == *d; });
            const auto it = alive.find(*d);
            if (isFed || it == alive.end()) continue;
            out.locs[it->second].until = m.step + 1;
            alive.erase(it);
        }
        for (const auto& [k, d] : fed) {
            const DataLoc from = *srcLoc(m, k);
            if (out.hops.empty() ||
                !(out.hops.back().from == from && out.hops.back().to == d && out.hops.back().step == m.step))
                out.hops.push_back({m.step, m.instr, from, d});
            if (alive.count(d)) continue;
            if (out.locs.size() >= maxLocs) {
                if (truncated) *truncated = true;
                continue;
            }
            LinkedLoc l{d, m.step + 1, UINT32_MAX, std::nullopt};
            if (m.dst.space == MemSpace::Global) l.coord = coordOfByte(m, k, eb);
            alive[d] = out.locs.size();
            out.locs.push_back(l);
        }
    }
    return out;
}

std::vector<PathStage> pathStages(const LinkedData& d) {
    std::vector<PathStage> out;
    for (const Hop& h : d.hops) {
        auto it = std::find_if(out.begin(), out.end(), [&](const PathStage& s) {
            return s.instr == h.instr && s.fromSpace == h.from.space && s.toSpace == h.to.space;
        });
        if (it == out.end()) {
            out.push_back({h.instr, h.step, h.step, h.from.space, h.to.space, h, 1});
        } else {
            it->lastStep = std::max(it->lastStep, h.step);
            it->firstStep = std::min(it->firstStep, h.step);
            ++it->count;
        }
    }
    return out;
}

} // namespace layoutscope::views
