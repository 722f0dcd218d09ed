#pragma once
// The vector clock of async::Model (model_impl.hpp): component u is the number of events of unit u known to
// have happened. Every thread and every async operation is a unit, and units are added over the whole run,
// so a dense std::vector per operation made N operations cost O(N^2) time and memory (issue 25 item 3:
// 10,000 tcgen05.st took 128 s and 1.3 GiB).
//
// Here a clock is persistent (structurally shared, copy-on-write): a 32-way trie whose leaves hold 32
// components, its nodes reference-counted and shared between clocks. A component no node holds is 0.
// * copy: O(1) (the root is shared);
// * at(u): O(depth), depth = log32(units) (2 up to 32,768 units);
// * set(u, v): copies the one root-to-leaf path that other clocks share (O(32 x depth));
// * join(b): a subtree whose node both clocks share, or that one side lacks, is taken whole; where the
//   maximum equals one side, that side's node is kept. Joining clocks that differ in k leaves costs
//   O(32 x k x depth), not O(units), and keeps them sharing for the next join.
// The trie grows a level (a new root over the old one) when a unit beyond its capacity is set or joined.
//
// Reference counts are not atomic: the clocks of one Model are used by one thread at a time, and no node is
// shared between two Models (every node is made by a Clock of the Model that holds it).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace layoutscope::async {

class Clock {
  public:
    Clock() = default;
    Clock(const Clock& o) noexcept;
    Clock(Clock&& o) noexcept;
    Clock& operator=(const Clock& o) noexcept;
    Clock& operator=(Clock&& o) noexcept;
    ~Clock();

    /// Component u (0 when it was never set or joined).
    [[nodiscard]] uint32_t at(uint32_t u) const;
    /// Sets component u to v (copies the path other clocks share).
    void set(uint32_t u, uint32_t v);
    /// Component-wise maximum with b.
    void join(const Clock& b);
    /// Every component 0 (releases the nodes).
    void clear();

    /// The distinct trie nodes the given clocks hold together (a node shared by several counts once): what
    /// they take in memory, for the tests of structural sharing.
    [[nodiscard]] static size_t distinctNodes(const std::vector<const Clock*>& clocks);

    struct Node; ///< clock.cpp: a reference count, then 32 children (inner) or 32 components (leaf)

  private:
    void grow(uint32_t levels); ///< at least `levels` inner levels above the leaves
    Node* m_root = nullptr;     ///< null: every component 0
    uint32_t m_levels = 0;      ///< inner levels above the leaves: it holds units [0, 32^(m_levels + 1))
};

/// a = max(a, b) component-wise (model.cpp's spelling).
inline void join(Clock& a, const Clock& b) {
    a.join(b);
}
[[nodiscard]] inline uint32_t at(const Clock& c, uint32_t u) {
    return c.at(u);
}

} // namespace layoutscope::async
