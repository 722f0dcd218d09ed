#pragma once
// The access history of async::Model (model_impl.hpp), indexed by granule: a new access is compared only with
// the earlier accesses whose granules it shares, not with the whole history (issue 23: the CuTe kernels the
// executor runs make tens of thousands of shared-memory and Tensor Memory accesses; a linear walk made the
// checks quadratic and had to stop after 20000 accesses).
//
// Superseded records leave the index (kill): a write that covers an earlier record's whole range either
// happens after it (then every later access ordered after the write is ordered after it too) or races with it
// (reported now). Either way no later access needs it, so N writes to one buffer are compared with the live
// records only, not with all N (issue 25 item 3: 1,000 unwaited loads into one buffer took 26 s and 1.4 GiB).
//
// Granules: 128 bytes of shared or global memory, 32 registers of a thread, and 32 lanes x 32 columns of
// Tensor Memory (a Range with `lanes` > 1 is a lane x column rectangle). A range of more than kWideGranules
// granules goes to one "wide" list of its space and CTA, which every query of that space and CTA also reads;
// a query that wide reads every bucket of its space and CTA (before, it read the wide list alone and missed
// the narrower records it overlaps: async_history_test).
//
// A record keeps its range as an Extent (the geometry of a Range without its name: the model keeps each
// name once, model_impl.hpp), and the records live in fixed chunks that never move (issue 25 item 3:
// 10,000 tcgen05.st keep 640,000 records; a doubling vector copied them all at every growth).
#include "layoutscope/async/async.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace layoutscope::async {

/// A Range's geometry, without its name (what the history keeps per record).
struct Extent {
    uint64_t begin = 0, end = 0;
    uint32_t cta = 0;
    uint32_t lanes = 1; ///< Tensor Memory: lanes from begin >> 16 (Range::lanes)
    MemSpace space = MemSpace::SharedCta;
};
[[nodiscard]] inline Extent extentOf(const Range& r) {
    return {r.begin, r.end, r.cta, r.lanes, r.space};
}

/// Whether two ranges share a byte (Tensor Memory: a lane and a column).
[[nodiscard]] bool overlaps(const Extent& a, const Extent& b);
[[nodiscard]] inline bool overlaps(const Range& a, const Range& b) {
    return overlaps(extentOf(a), extentOf(b));
}
/// Their common part (only when they overlap): a's name, the intersection's bounds.
[[nodiscard]] Range intersect(const Range& a, const Extent& b);
[[nodiscard]] inline Range intersect(const Range& a, const Range& b) {
    return intersect(a, extentOf(b));
}
/// Whether `outer` holds every byte (Tensor Memory: every lane and column) of `inner`.
[[nodiscard]] bool covers(const Extent& outer, const Extent& inner);
[[nodiscard]] inline bool covers(const Range& outer, const Range& inner) {
    return covers(extentOf(outer), extentOf(inner));
}

/// A vector that grows by fixed chunks: an element never moves, growth copies nothing.
template <class T>
class ChunkedVector {
  public:
    [[nodiscard]] size_t size() const { return m_size; }
    [[nodiscard]] const T& operator[](size_t i) const { return m_chunks[i >> kShift][i & kMask]; }
    void push_back(T v) {
        if ((m_size & kMask) == 0) m_chunks.push_back(std::make_unique<T[]>(kChunk));
        m_chunks.back()[m_size & kMask] = std::move(v);
        ++m_size;
    }

  private:
    static constexpr size_t kShift = 12, kChunk = size_t(1) << kShift, kMask = kChunk - 1;
    std::vector<std::unique_ptr<T[]>> m_chunks;
    size_t m_size = 0;
};

template <class Rec>
class IndexedHistory {
  public:
    [[nodiscard]] size_t size() const { return m_recs.size(); }
    [[nodiscard]] const Rec& operator[](size_t i) const { return m_recs[i]; }
    /// The indices of the earlier live records that may overlap `r`, ascending, each once: the writes, and
    /// the reads too when `withReads` (a write's query; a read races only with writes, so a read's query
    /// skips the reads, which pile up where nothing overwrites them: 10,000 tcgen05.st read the same
    /// registers). Killed records are dropped from the buckets it reads (each leaves each bucket once:
    /// amortised O(1)).
    void candidates(const Extent& r, std::vector<uint32_t>& out, bool withReads = true) {
        out.clear();
        if (m_seen.size() < m_recs.size()) m_seen.resize(m_recs.size(), 0);
        ++m_gen;
        auto take = [&](Bucket& b) {
            for (std::vector<uint32_t>* list : {&b.writes, withReads ? &b.reads : nullptr}) {
                if (!list) continue;
                std::erase_if(*list, [&](uint32_t i) { return m_dead[i] != 0; });
                for (uint32_t i : *list)
                    if (m_seen[i] != m_gen) m_seen[i] = m_gen, out.push_back(i);
            }
        };
        if (isWide(r)) { // it may meet any record of its space and CTA: every bucket of them (rare)
            const uint64_t own = key(r, 0);
            for (auto& [k, b] : m_buckets)
                if ((k & kSpaceCta) == own) take(b);
        } else {
            forGranules(r, [&](uint64_t key) {
                auto it = m_buckets.find(key);
                if (it != m_buckets.end()) take(it->second);
            });
        }
        std::sort(out.begin(), out.end());
    }
    /// Record i is superseded: later queries no longer return it.
    void kill(uint32_t i) { m_dead[i] = 1; }
    void add(Rec rec) {
        const uint32_t i = static_cast<uint32_t>(m_recs.size());
        forGranules(
            rec.range,
            [&](uint64_t key) {
                Bucket& b = m_buckets[key];
                (rec.write ? b.writes : b.reads).push_back(i);
            },
            false);
        m_recs.push_back(std::move(rec));
        m_dead.push_back(0);
    }

  private:
    static constexpr uint64_t kWideGranules = 4096;
    static constexpr uint64_t kWide = (uint64_t(1) << 40) - 1;
    static constexpr uint64_t kSpaceCta = (uint64_t(1) << 24) - 1; ///< key bits [0,24): space and CTA
    /// Whether r spans more than kWideGranules granules (its record goes to the wide list).
    static bool isWide(const Extent& r) {
        if (r.begin >= r.end) return false;
        if (r.space != MemSpace::TensorMemory) return ((r.end - 1) >> 7) - (r.begin >> 7) + 1 > kWideGranules;
        const uint64_t l0 = r.begin >> 16, l1 = l0 + std::max<uint32_t>(r.lanes, 1);
        const uint64_t c0 = r.begin & 0xFFFF, c1 = c0 + (r.end - r.begin);
        return ((l1 - 1) / 32 - l0 / 32 + 1) * ((c1 - 1) / 32 - c0 / 32 + 1) > kWideGranules;
    }
    static uint64_t key(const Extent& r, uint64_t granule) {
        return uint64_t(r.space) | uint64_t(r.cta & 0xFFFF) << 8 | granule << 24;
    }
    /// Calls f(key) for each granule of r (and, when `query`, the wide list of r's space and CTA).
    template <class F>
    static void forGranules(const Extent& r, F&& f, bool query = true) {
        if (r.begin >= r.end) return;
        uint64_t count = 0;
        if (r.space == MemSpace::TensorMemory) {
            const uint64_t l0 = r.begin >> 16, l1 = l0 + std::max<uint32_t>(r.lanes, 1);
            const uint64_t c0 = r.begin & 0xFFFF, c1 = c0 + (r.end - r.begin);
            count = ((l1 - 1) / 32 - l0 / 32 + 1) * ((c1 - 1) / 32 - c0 / 32 + 1);
            if (count <= kWideGranules)
                for (uint64_t lb = l0 / 32; lb <= (l1 - 1) / 32; ++lb)
                    for (uint64_t cb = c0 / 32; cb <= (c1 - 1) / 32; ++cb) f(key(r, lb << 16 | cb));
        } else {
            count = ((r.end - 1) >> 7) - (r.begin >> 7) + 1;
            if (count <= kWideGranules)
                for (uint64_t g = r.begin >> 7; g <= (r.end - 1) >> 7; ++g)
                    f(key(r, g % kWide)); // never the wide key
        }
        if (query || count > kWideGranules) f(key(r, kWide));
    }
    ChunkedVector<Rec> m_recs;
    struct Bucket {
        std::vector<uint32_t> reads, writes; ///< record indices, ascending
    };
    std::unordered_map<uint64_t, Bucket> m_buckets;
    std::vector<uint32_t> m_seen;
    std::vector<uint8_t> m_dead; ///< per record: superseded (kill)
    uint32_t m_gen = 0;
};

} // namespace layoutscope::async
