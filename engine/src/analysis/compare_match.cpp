// Differences by logical element (compare_match.hpp): element keys of moved bytes and the classes of a
// run's cells against a reference run. O(cells): one hash of (element key, value) -> first reference
// cell, one of element key -> first reference cell and one set of the run's own (key, value) pairs.
#include "layoutscope/analysis/compare_match.hpp"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>
#include <variant>

namespace layoutscope {

std::vector<TensorCopyInfo> tensorCopiesOf(const Scenario& s) {
    std::vector<TensorCopyInfo> out(s.instrs.size());
    for (size_t i = 0; i < s.instrs.size(); ++i) {
        const ScenarioInstr& in = s.instrs[i];
        if (in.kind != ScenarioInstrKind::Copy) continue; // mbarrier ops, fences: no tensor
        const TensorMap* map = nullptr;
        if (const auto* ld = std::get_if<TmaTileLoad>(&in.op))
            map = &ld->map;
        else if (const auto* st = std::get_if<TmaTileStore>(&in.op))
            map = &st->map;
        else if (const auto* g = std::get_if<TmaGather4Load>(&in.op))
            map = &g->load.map;
        else if (const auto* sc = std::get_if<TmaScatter4Store>(&in.op))
            map = &sc->store.map;
        else if (const auto* il = std::get_if<TmaIm2colLoad>(&in.op))
            map = &il->load.map;
        else if (const auto* is = std::get_if<TmaIm2colStore>(&in.op))
            map = &is->store.map;
        if (!map) continue;
        out[i] = {true, map->p.globalAddress, std::max<uint32_t>(1, map->elemBits / 8)};
    }
    return out;
}

namespace {

/// The source byte a destination byte `k` of `m` was made from (decompression 4->8 bits reads byte k/2,
/// 6->8 bits byte 6k/8; the 8->6 packing store the inverse, floor(8k/6)).
uint32_t sourceByteOf(const ByteMove& m, uint32_t k) {
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

/// (space, CTA, key) of byte k of side `r`: byte address; TMEM lane<<16|column (byte k lies in column + k/4);
/// register thread<<16|register. False for fills.
bool locationOf(const MemRef& r, uint32_t k, ElementKey& out) {
    out.space = r.space;
    out.cta = r.space == MemSpace::Global ? 0 : r.cta;
    switch (r.space) {
    case MemSpace::Global:
    case MemSpace::SharedCta:
        out.addr = r.addr + k;
        return true;
    case MemSpace::TensorMemory:
        out.addr = (r.addr >> 16) << 16 | ((r.addr & 0xFFFF) + k / 4);
        return true;
    case MemSpace::Register:
        out.addr = (r.addr >> 16) << 16 | ((r.addr & 0xFFFF) + k) / 4;
        return true;
    default:
        return false;
    }
}

} // namespace

ElementKey elementKeyOf(const std::vector<TensorCopyInfo>& copies, const ByteMove& m, uint32_t byteInMove) {
    ElementKey k;
    if (m.instr < copies.size() && copies[m.instr].tensor) { // a TMA copy: the tensor element, fills included
        const uint32_t eb = std::max<uint32_t>(1, copies[m.instr].elemBytes);
        k.space = MemSpace::Global;
        k.addr = copies[m.instr].globalAddress;
        k.coord = m.coord; // dim 0 is contiguous inside a move; saturated at INT32_MAX (no overflow)
        k.coord[0] =
            static_cast<int32_t>(std::min<int64_t>(INT32_MAX, int64_t(m.coord[0]) + byteInMove / eb));
        k.byte = byteInMove % eb;
        return k;
    }
    if (!locationOf(m.src, sourceByteOf(m, byteInMove), k)) { // a fill without a tensor: the move and byte
        k = ElementKey{};
        k.space = MemSpace::Fill;
        k.addr = uint64_t(m.instr) << 32 | byteInMove;
    }
    return k;
}

namespace {

struct Held {
    ElementKey key;
    uint32_t value = 0;
    friend bool operator==(const Held&, const Held&) = default;
};

uint64_t mix(uint64_t h, uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h;
}

struct KeyHash {
    size_t operator()(const ElementKey& k) const {
        uint64_t h = mix(uint64_t(k.space), k.cta);
        h = mix(h, k.addr);
        for (const int32_t c : k.coord) h = mix(h, uint32_t(c));
        return size_t(mix(h, k.byte));
    }
    size_t operator()(const Held& x) const { return size_t(mix((*this)(x.key), x.value)); }
};

void recount(CellMatches& m) {
    m.reshuffled = m.different = 0;
    for (const CellMatch c : m.kind) {
        m.reshuffled += c == CellMatch::Reshuffled;
        m.different += c == CellMatch::Different;
    }
}

} // namespace

CellMatches classifyCells(const MatchSide& ref, const MatchSide& other,
                          const std::function<std::optional<size_t>(size_t)>& samePlace) {
    std::unordered_map<Held, size_t, KeyHash> refHeld;
    std::unordered_map<ElementKey, size_t, KeyHash> refKeys;
    std::unordered_set<Held, KeyHash> otherHeld;
    for (size_t j = 0; j < ref.n; ++j)
        if (const auto& k = ref.key(j)) {
            refHeld.emplace(Held{*k, ref.value(j)}, j);
            refKeys.emplace(*k, j);
        }
    for (size_t i = 0; i < other.n; ++i)
        if (const auto& k = other.key(i)) otherHeld.insert(Held{*k, other.value(i)});
    CellMatches out;
    out.kind.assign(other.n, CellMatch::Same);
    out.refAt.assign(other.n, -1);
    for (size_t i = 0; i < other.n; ++i) {
        const std::optional<size_t> j = samePlace(i);
        const auto& k = other.key(i);
        if (!k) { // unwritten: differs only where the reference's element here is nowhere in this run
            if (j && ref.key(*j) && !otherHeld.count(Held{*ref.key(*j), ref.value(*j)})) {
                out.kind[i] = CellMatch::Different;
                out.refAt[i] = int64_t(*j);
            }
            continue;
        }
        const Held h{*k, other.value(i)};
        if (j && ref.key(*j) && *ref.key(*j) == *k && ref.value(*j) == h.value) continue; // the same
        if (const auto it = refHeld.find(h); it != refHeld.end()) {
            out.kind[i] = CellMatch::Reshuffled;
            out.refAt[i] = int64_t(it->second);
            continue;
        }
        out.kind[i] = CellMatch::Different;
        if (const auto it = refKeys.find(*k); it != refKeys.end()) out.refAt[i] = int64_t(it->second);
    }
    recount(out);
    return out;
}

void mergeMatches(CellMatches& into, const CellMatches& from) {
    if (into.kind.size() < from.kind.size()) {
        into.kind.resize(from.kind.size(), CellMatch::Same);
        into.refAt.resize(from.kind.size(), -1);
    }
    for (size_t i = 0; i < from.kind.size(); ++i)
        if (uint8_t(from.kind[i]) > uint8_t(into.kind[i])) {
            into.kind[i] = from.kind[i];
            into.refAt[i] = from.refAt[i];
        }
    recount(into);
}

} // namespace layoutscope
