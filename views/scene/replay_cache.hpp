#pragma once
/// ReplayCache<R>: the memory at any step of a trace (a Replay, or a TmemReplay for Tensor Memory) in a
/// bounded number of moves per seek. A replay applies every move between its step and the target: a random
/// scrub of a 10,000-step trace from its last step applied up to 330,000 moves (~9 ms for shared memory, as
/// many for Tensor Memory, of the 16 ms a seek may take: issue 25 item 11). This keeps copies of the replay
/// at steps about kMovesApart moves apart (taken on forward passes, at most a memory budget of them) beside
/// the ones it was given, and seeks from whichever of them, or the current step, is fewest moves away. Each
/// copy is a replay that reached its step by seeking, so the memory at a step is exactly a replay's. Plain
/// C++.
#include "layoutscope/core/trace.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <utility>
#include <vector>

namespace layoutscope::views {

template <class R> // Replay or TmemReplay: copyable, seek(step), step(), state()
class ReplayCache {
  public:
    static constexpr uint64_t kMovesApart = 32768;               ///< ~1 ms of seeking between kept copies
    static constexpr uint64_t kBudgetBytes = uint64_t(32) << 20; ///< kept copies' memory, at most

    /// `at`: a replay of `t` at step 0 (kept) or at any step, e.g. replayAtEnd; `also`: another one to keep
    /// (the initial memory when `at` is elsewhere). `stateBytes`: what one copy holds. `t` must outlive it.
    ReplayCache(const Trace& t, R at, std::unique_ptr<R> also, uint64_t stateBytes) : m_t(t) {
        if (also) m_kept.emplace(also->step(), *also);
        m_kept.emplace(at.step(), at);
        m_replay = std::make_unique<R>(std::move(at));
        m_maxKept =
            size_t(std::max<uint64_t>(m_kept.size(), kBudgetBytes / std::max<uint64_t>(1, stateBytes)));
        // Marks every `apart` moves (further apart when the budget cannot hold one every kMovesApart).
        const uint64_t total = movesBefore(t.stepCount);
        const uint64_t apart = std::max<uint64_t>(kMovesApart, total / std::max<size_t>(1, m_maxKept) + 1);
        for (uint64_t k = apart; k < total; k += apart) {
            uint32_t lo = 0, hi = t.stepCount; // the first step with k moves before it
            while (lo < hi) {
                const uint32_t mid = lo + (hi - lo) / 2;
                if (movesBefore(mid) >= k)
                    hi = mid;
                else
                    lo = mid + 1;
            }
            if (lo > 0 && lo < t.stepCount && (m_marks.empty() || m_marks.back() != lo))
                m_marks.push_back(lo);
        }
    }
    /// State after all moves of steps < `step` (clamped to the trace's stepCount), as R::seek.
    void seek(uint32_t step) {
        step = std::min(step, m_t.stepCount);
        const uint64_t to = movesBefore(step), here = movesBefore(m_replay->step());
        const uint64_t fromHere = to > here ? to - here : here - to;
        if (const auto [kept, fromKept] = nearestKept(step); kept && fromKept + kCopyMoves < fromHere)
            m_replay = std::make_unique<R>(*kept); // a copy of a replay that reached its step
        // Forwards: through the marks on the way, keeping a copy at each (within the budget).
        for (auto mark = std::upper_bound(m_marks.begin(), m_marks.end(), m_replay->step());
             mark != m_marks.end() && *mark < step && m_kept.size() < m_maxKept; ++mark) {
            m_replay->seek(*mark);
            m_kept.try_emplace(*mark, *m_replay);
        }
        m_replay->seek(step);
    }
    [[nodiscard]] uint32_t step() const { return m_replay->step(); }
    [[nodiscard]] const auto& state() const { return m_replay->state(); }
    /// Copies kept (for tests).
    [[nodiscard]] size_t keptCount() const { return m_kept.size(); }

  private:
    /// A copy is worth this many moves: copying a CTA's 228 KiB costs about what applying them does.
    static constexpr uint64_t kCopyMoves = 4096;
    /// Moves of the steps before `step`: what a replay at step 0 applies to reach it.
    [[nodiscard]] uint64_t movesBefore(uint32_t step) const {
        return step == 0 ? 0 : m_t.movesOfStep(step - 1).second; // as Replay::seek counts them
    }
    /// The kept copy that reaches `step` in the fewest moves, and how many.
    [[nodiscard]] std::pair<const R*, uint64_t> nearestKept(uint32_t step) const {
        const uint64_t at = movesBefore(step);
        const R* best = nullptr;
        uint64_t cost = UINT64_MAX;
        auto after = m_kept.upper_bound(step);
        if (after != m_kept.begin()) { // at or before `step`: forwards from it
            const auto& before = *std::prev(after);
            best = &before.second;
            cost = at - movesBefore(before.first);
        }
        if (after != m_kept.end() && movesBefore(after->first) - at < cost) { // after it: backwards
            best = &after->second;
            cost = movesBefore(after->first) - at;
        }
        return {best, cost};
    }

    const Trace& m_t;
    std::unique_ptr<R> m_replay;
    std::map<uint32_t, R> m_kept;  ///< step -> a replay there
    std::vector<uint32_t> m_marks; ///< steps where a forward pass keeps a copy (sorted)
    size_t m_maxKept = 0;
};

/// Bytes a copy of a shared/global-memory replay's state holds: every CTA's shared memory, the global pages
/// written (at `s`, the most there are when `s` is the last step's).
[[nodiscard]] inline uint64_t replayStateBytes(const MachineState& s) {
    uint64_t b = GlobalMemory::kPage;
    for (const SharedMemory& m : s.smem) b += m.size();
    return b + uint64_t(s.global.materialisedPages()) * GlobalMemory::kPage;
}

} // namespace layoutscope::views
