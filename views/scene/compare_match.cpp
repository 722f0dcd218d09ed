// Differences by logical element between compare panes (compare_scene.hpp, issue 24 item 8): each cell
// of a pane is the same as, a reshuffle of, or different from the reference pane's content. O(cells): one
// hash of (element key, value) -> first reference cell, one of element key -> first reference cell and
// one set of the pane's own (key, value) pairs.
#include "scene/compare_scene.hpp"

#include <functional>
#include <unordered_map>
#include <unordered_set>

namespace layoutscope::views {

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

/// One side of a comparison, cell by cell.
struct Side {
    size_t n = 0;
    std::function<const std::optional<ElementKey>&(size_t)> key;
    std::function<uint32_t(size_t)> value;
};

/// `samePlace(i)`: the reference cell at the place of `other`'s cell i, if the reference shows it.
CellMatches classify(const Side& ref, const Side& other,
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
        if (!k) { // unwritten: differs only where pane 1's element here is nowhere in this pane
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
    for (const CellMatch c : out.kind) {
        out.reshuffled += c == CellMatch::Reshuffled;
        out.different += c == CellMatch::Different;
    }
    return out;
}

} // namespace

CellMatches matchCells(const SmemContent& ref, const SmemContent& other) {
    const Side r{ref.keys.size(), [&](size_t j) -> const std::optional<ElementKey>& { return ref.keys[j]; },
                 [&](size_t j) { return uint32_t(ref.bytes[j]); }};
    const Side o{other.keys.size(),
                 [&](size_t i) -> const std::optional<ElementKey>& { return other.keys[i]; },
                 [&](size_t i) { return uint32_t(other.bytes[i]); }};
    return classify(r, o, [&](size_t i) -> std::optional<size_t> {
        const uint64_t addr = uint64_t(other.window.base) + i;
        if (addr < ref.window.base || addr >= uint64_t(ref.window.base) + ref.keys.size())
            return std::nullopt;
        return size_t(addr - ref.window.base);
    });
}

CellMatches matchTmemCells(const TmemContent& ref, const TmemContent& other) {
    const Side r{ref.keys.size(), [&](size_t j) -> const std::optional<ElementKey>& { return ref.keys[j]; },
                 [&](size_t j) { return ref.values[j]; }};
    const Side o{other.keys.size(),
                 [&](size_t i) -> const std::optional<ElementKey>& { return other.keys[i]; },
                 [&](size_t i) { return other.values[i]; }};
    return classify(r, o, [&](size_t i) -> std::optional<size_t> {
        if (!other.cells[i]) return std::nullopt;
        const TmemCellRef c = *other.cells[i];
        // The same TMEM cell in ref's grid (tmem_scene.hpp: CTA k of the pair at x = k * (512 + gap)).
        if (c.cta < ref.firstCta || c.cta >= ref.firstCta + ref.ctaCount) return std::nullopt;
        const size_t j =
            size_t(c.lane) * ref.width + (c.cta - ref.firstCta) * (512 + kTmemPairGap) + c.column;
        if (j >= ref.keys.size() || !ref.cells[j]) return std::nullopt;
        return j;
    });
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
    into.reshuffled = into.different = 0;
    for (const CellMatch c : into.kind) {
        into.reshuffled += c == CellMatch::Reshuffled;
        into.different += c == CellMatch::Different;
    }
}

} // namespace layoutscope::views
