#pragma once
/// Compact, append-only storage of a trace's byte moves (Trace::moves).
///
/// One instruction moves data in regular patterns: a TMA box row is 8 chunks of 16 B whose source
/// addresses step by 16 and whose destinations step by 16 before the swizzle; a tcgen05.st is 32 lanes
/// x N registers. Storing one 80-byte record per 4-16 bytes moved made traces 20x larger than the
/// data (issue 11). A MoveTable keeps a *run*: the first move plus, for up to three nested counts, the
/// step of every varying field (step, src/dst CTA and address, logicalOffset, coord[0..4]); every
/// other field is the same for all moves of a run. Move k of a run is rebuilt exactly:
///
///   k = i0 + n0 * (i1 + n1 * i2)   (i0 < n0, i1 < n1; n0 = 0 / n1 = 0 while that level is open)
///   field(k) = first.field + i0 * stride0 + i1 * stride1 + i2 * stride2
///
/// A destination (or source) in swizzled shared memory is not an arithmetic sequence, so a run may
/// instead *derive* it: addr(k) = swizzleAddress(swizzle, base + logicalOffset(k)) (tma.hpp).
///
/// Appending is exact by construction: a move joins the last run only if the run's formula
/// reproduces every field of it; otherwise it starts a new run. Nothing is ever approximated.
/// Reads are by value (ByteMove is rebuilt), O(log runs) for operator[], O(1) per ++ of an iterator.
#include "layoutscope/core/rules.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <span>
#include <type_traits>
#include <vector>

namespace layoutscope {

enum class MemSpace : uint8_t { None, Global, SharedCta, TensorMemory, Register, Fill };

struct MemRef {
    MemSpace space = MemSpace::None;
    uint8_t cta = 0;   ///< %cluster_ctarank for shared/tensor memory
    uint64_t addr = 0; ///< global VA, shared::cta byte address, or TMEM (lane<<16 | column)
};

/// What happened to the bytes on the way.
enum class Transform : uint8_t {
    Copy,           ///< bytes copied unchanged
    FillZero,       ///< out-of-bounds element, zero fill
    FillNaN,        ///< out-of-bounds element, OOB-NaN fill (0x7FF7 per 16-bit unit)
    RoundTf32,      ///< FP32 rounded to TF32 (low 13 bits cleared, nearest even)
    Decompress4to8, ///< tcgen05.cp .b8x16.b4x16_p64: 4-bit values into 8-bit containers (bits [5:2])
    Decompress6to8, ///< tcgen05.cp .b8x16.b6x16_p32: 6-bit values into 8-bit containers (bits [5:0])
    Unpack16b,      ///< tcgen05.st .unpack::16b: a 16-bit register half into the low half of a TMEM cell
    Pack16b,        ///< tcgen05.ld .pack::16b: the low halves of two TMEM cells into one register
    Pack8to6,       ///< TMA .b6p2x16 store: bits [5:0] of 8-bit containers packed into 6-bit values
};
[[nodiscard]] const char* transformName(Transform t);

/// One move of `length` contiguous destination bytes. POD, sorted by step.
struct ByteMove {
    uint32_t step = 0;   ///< timeline step (several moves may share one, e.g. multicast)
    uint32_t instr = 0;  ///< index of the instruction in Trace::instrs
    MemRef src;          ///< source of the first byte (space Fill for fills)
    MemRef dst;          ///< destination of the first byte (physical, after swizzle)
    uint32_t length = 0; ///< bytes
    Transform transform = Transform::Copy;
    RuleId rule = RuleId::None;     ///< the rule that placed these bytes
    uint32_t logicalOffset = 0;     ///< byte offset in the dense box image, before swizzle
    std::array<int32_t, 5> coord{}; ///< tensor coordinate of the first element (dim 0 first)
    uint64_t dataOffset = 0;        ///< into Trace::before/after: `length` bytes each
};
static_assert(std::is_trivially_copyable_v<ByteMove>);

/// How a run computes an address that a swizzle scatters (see the file comment).
struct AddrDerivation {
    enum class Side : uint8_t { None, Src, Dst };
    Side side = Side::None;
    uint32_t swizzle = 0; ///< TensorSwizzle value
    uint32_t base = 0;    ///< shared::cta address of logicalOffset 0
};

class MoveTable {
  public:
    /// Number of fields a run lets vary: step, src.cta, src.addr, dst.cta, dst.addr, logicalOffset, coord[5].
    static constexpr size_t kFields = 11;
    using Strides = std::array<int64_t, kFields>;

    /// A forward walk over the table that rebuilds each move from the one before (a few additions per move)
    /// instead of from its run's first move (divisions per level): the scans of a 5 M-move trace (views'
    /// replays, box frames, the shared window) spend most of their time rebuilding moves. seek() goes
    /// anywhere; next() and seek(index() + 1) are O(1).
    class Cursor {
      public:
        Cursor(const MoveTable& t, size_t i);
        [[nodiscard]] size_t index() const { return m_i; }
        /// Move index() (index() < size()).
        [[nodiscard]] const ByteMove& move() const { return m_move; }
        void next();
        void seek(size_t i);

      private:
        void enter(size_t run, uint64_t k); ///< move k of run `run`
        void build();                       ///< m_move from m_v
        const MoveTable* m_t;
        size_t m_i = 0, m_run = 0;
        uint64_t m_k = 0, m_count = 0; ///< move k of the run's m_count
        uint32_t m_levels = 1;
        std::array<uint64_t, 6> m_n{}, m_idx{}; ///< counts (the last level open) and the digits
        std::array<Strides, 6> m_s{};
        Strides m_v{};
        ByteMove m_first{}, m_move{};
        AddrDerivation m_derive;
    };

    class Iterator {
      public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = ByteMove;
        using difference_type = std::ptrdiff_t;
        using reference = ByteMove; // moves are rebuilt, not stored
        struct Arrow {
            ByteMove m;
            const ByteMove* operator->() const { return &m; }
        };
        using pointer = Arrow;

        Iterator() = default;
        Iterator(const MoveTable* t, size_t i) : m_t(t), m_i(i) {}
        // A copy starts without the walk's cursor (it is rebuilt at its first dereference).
        Iterator(const Iterator& o) : m_t(o.m_t), m_i(o.m_i) {}
        Iterator(Iterator&&) noexcept = default;
        Iterator& operator=(const Iterator& o) {
            m_t = o.m_t, m_i = o.m_i;
            return *this;
        }
        Iterator& operator=(Iterator&&) noexcept = default;
        ~Iterator() = default;
        /// Move index(): a walk's next move costs a few additions (a Cursor, made at the second move of a
        /// walk), any other one a rebuild (a binary search's probes allocate nothing).
        ByteMove operator*() const {
            if (!m_c) {
                const bool walk = m_last != SIZE_MAX && m_i == m_last + 1;
                m_last = m_i;
                if (!walk) return (*m_t)[m_i];
                m_c = std::make_unique<Cursor>(*m_t, m_i);
                return m_c->move();
            }
            m_c->seek(m_i);
            return m_c->move();
        }
        Arrow operator->() const { return Arrow{**this}; }
        ByteMove operator[](difference_type n) const { return (*m_t)[size_t(difference_type(m_i) + n)]; }
        Iterator& operator++() {
            ++m_i;
            return *this;
        }
        Iterator operator++(int) {
            Iterator r = *this;
            ++m_i;
            return r;
        }
        Iterator& operator--() {
            --m_i;
            return *this;
        }
        Iterator operator--(int) {
            Iterator r = *this;
            --m_i;
            return r;
        }
        Iterator& operator+=(difference_type n) {
            m_i = size_t(difference_type(m_i) + n);
            return *this;
        }
        Iterator& operator-=(difference_type n) {
            m_i = size_t(difference_type(m_i) - n);
            return *this;
        }
        friend Iterator operator+(Iterator a, difference_type n) { return a += n; }
        friend Iterator operator+(difference_type n, Iterator a) { return a += n; }
        friend Iterator operator-(Iterator a, difference_type n) { return a -= n; }
        friend difference_type operator-(const Iterator& a, const Iterator& b) {
            return difference_type(a.m_i) - difference_type(b.m_i);
        }
        friend bool operator==(const Iterator& a, const Iterator& b) { return a.m_i == b.m_i; }
        friend auto operator<=>(const Iterator& a, const Iterator& b) { return a.m_i <=> b.m_i; }
        [[nodiscard]] size_t index() const { return m_i; }

      private:
        const MoveTable* m_t = nullptr;
        size_t m_i = 0;
        mutable std::unique_ptr<Cursor> m_c; ///< the walk so far (not shared between copies or threads)
        mutable size_t m_last = SIZE_MAX;    ///< the move dereferenced last, before the walk had a Cursor
    };

    [[nodiscard]] size_t size() const { return m_size; }
    [[nodiscard]] bool empty() const { return m_size == 0; }
    /// Move i, rebuilt. O(log runs); the last run looked up is cached, so scans are O(1) per move.
    [[nodiscard]] ByteMove operator[](size_t i) const;
    [[nodiscard]] ByteMove front() const { return (*this)[0]; }
    [[nodiscard]] ByteMove back() const { return (*this)[m_size - 1]; }
    [[nodiscard]] Iterator begin() const { return {this, 0}; }
    [[nodiscard]] Iterator end() const { return {this, m_size}; }
    [[nodiscard]] std::reverse_iterator<Iterator> rbegin() const {
        return std::reverse_iterator<Iterator>(end());
    }
    [[nodiscard]] std::reverse_iterator<Iterator> rend() const {
        return std::reverse_iterator<Iterator>(begin());
    }

    /// Append a move (its step must not be below the last one's). `derive` names an address the
    /// swizzle computes from logicalOffset; that address must equal the derivation (asserted).
    void push_back(const ByteMove& m, const AddrDerivation& derive = {});
    /// Append `count` moves: move k is rowMove(first, s0, k, derive). Equivalent to push_back of each,
    /// in O(1) when the row continues the last run's pattern (a TMA box row, a TMEM lane).
    void appendRow(const ByteMove& first, uint32_t count, const Strides& s0,
                   const AddrDerivation& derive = {});
    /// Append the n[0] x n[1] x n[2] moves of a grid, in order: move (i0, i1, i2) is `first` plus
    /// i0 * s[0] + i1 * s[1] + i2 * s[2] in every varying field, dataOffset + k * length
    /// (k = i0 + n[0] * (i1 + n[1] * i2)) and the derived address recomputed. The same as push_back of
    /// each, in O(1) when `first` cannot join the last run (a new instruction's first moves); else one
    /// appendRow per level-0 row. Steps must not decrease along the grid.
    void appendGrid(const ByteMove& first, const std::array<uint32_t, 3>& n, const std::array<Strides, 3>& s,
                    const AddrDerivation& derive = {});
    /// Most nested counts of a grid (appendGridLevels): a tcgen05.ld/st .16x256b.pack::16b map needs six.
    static constexpr size_t kMaxLevels = 6;
    /// appendGrid of n.size() (<= kMaxLevels) levels, level 0 fastest. Up to three levels (after merging
    /// levels of one move and levels that continue the one below) it is appendGrid; more make a run of
    /// their own that later moves never join (the greedy push_back keeps three levels: the same moves,
    /// in other runs).
    void appendGridLevels(const ByteMove& first, std::span<const uint32_t> n, std::span<const Strides> s,
                          const AddrDerivation& derive = {});
    /// Move k of a grid (appendGrid), rebuilt from its first move.
    [[nodiscard]] static ByteMove gridMove(const ByteMove& first, const std::array<uint32_t, 3>& n,
                                           const std::array<Strides, 3>& s, uint64_t k,
                                           const AddrDerivation& derive = {});
    /// Move k of a grid of n.size() levels (appendGridLevels).
    [[nodiscard]] static ByteMove gridMoveLevels(const ByteMove& first, std::span<const uint32_t> n,
                                                 std::span<const Strides> s, uint64_t k,
                                                 const AddrDerivation& derive = {});
    /// Append moves in order: one appendRow when they form an arithmetic row (every varying field
    /// steps by the same amount, the rest equal), else push_back of each.
    void appendBatch(std::span<const ByteMove> ms, const AddrDerivation& derive = {});
    /// Move k of a row: the varying fields of `first` plus k * s0, dataOffset + k * length, and the
    /// derived address (if any) recomputed from logicalOffset.
    [[nodiscard]] static ByteMove rowMove(const ByteMove& first, const Strides& s0, uint64_t k,
                                          const AddrDerivation& derive = {});
    void clear();
    /// Whether any move in [lo, hi) carries `rule`: O(runs in the range), not O(moves).
    [[nodiscard]] bool anyRule(size_t lo, size_t hi, RuleId rule) const;
    /// One run's share of a range of moves, for a walk that rebuilds no move: table move `index + k`
    /// (k0 <= k < k1) is gridMoveLevels(first, {n, levels}, {s, levels}, k, derive); the last level is
    /// open (its count is 1 here). A derived address's stride is not meaningful (derive recomputes it).
    struct RunSpan {
        ByteMove first;
        uint64_t index = 0, k0 = 0, k1 = 0;
        uint32_t levels = 1;
        std::array<uint32_t, kMaxLevels> n{};
        std::array<Strides, kMaxLevels> s{};
        AddrDerivation derive;
    };
    /// The runs holding moves [lo, hi), in order: O(runs in the range).
    [[nodiscard]] std::vector<RunSpan> runSpans(size_t lo, size_t hi) const;
    /// Whether varying field `field` (Strides order: 1 src.cta, 3 dst.cta, ...) has one value over the span's
    /// moves (every level's stride 0). A run's instr, spaces, length, transform and rule never vary.
    [[nodiscard]] static bool spanFieldConstant(const RunSpan& r, size_t field) {
        for (uint32_t l = 0; l < r.levels; ++l)
            if (r.s[l][field] != 0) return false;
        return true;
    }
    /// The span's moves as a reader of field `field` (and of a run's constants) sees them: f(r.first, moves)
    /// once when the field keeps one value over the span, else f(move, 1) for each move (a Cursor walk).
    template <class F>
    void forSpanByField(const RunSpan& r, size_t field, F&& f) const {
        if (spanFieldConstant(r, field)) {
            f(r.first, r.k1 - r.k0);
            return;
        }
        for (Cursor c(*this, r.index + r.k0); c.index() < r.index + r.k1; c.next()) f(c.move(), uint64_t(1));
    }
    /// Runs stored, and heap bytes used (for the trace's memory budget and benchmarks).
    [[nodiscard]] size_t runCount() const { return m_runs.size(); }
    [[nodiscard]] size_t memoryBytes() const;

  private:
    struct Run {
        ByteMove first;
        uint64_t index = 0; ///< table index of the run's first move
        uint32_t count = 0; ///< moves in the run
        uint32_t n0 = 0;    ///< moves per level-0 row (0: level 0 still open)
        uint32_t n1 = 0;    ///< level-0 rows per level-1 plane (0: still open)
        uint32_t shape = 0; ///< index into m_shapes
    };
    /// Strides of the three levels and the address derivation: shared by many runs (every load of a
    /// loop has the same shape), so runs hold an index.
    struct Shape {
        std::array<Strides, 3> s{};
        AddrDerivation derive;
        uint32_t ext = kNoExt; ///< levels 3.. of a grid of more than three (m_ext), else kNoExt
        bool operator==(const Shape& o) const;
    };
    static constexpr uint32_t kNoExt = UINT32_MAX;
    /// Levels 3.. of a run made by appendGridLevels: how many levels (4 .. kMaxLevels), the counts of
    /// levels 2 .. levels-2 (the last level's count is implied by the run's) and the strides of levels 3..
    struct Ext {
        uint32_t levels = 0;
        std::array<uint32_t, kMaxLevels - 3> n{};
        std::array<Strides, kMaxLevels - 3> s{};
    };
    [[nodiscard]] size_t runOf(size_t i) const;
    [[nodiscard]] ByteMove rebuild(const Run& r, uint64_t k) const;
    [[nodiscard]] bool tryExtend(const ByteMove& m, const AddrDerivation& derive);
    uint32_t internShape(const Shape& s);

    std::vector<Run> m_runs;
    std::vector<Shape> m_shapes;
    std::vector<Ext> m_ext;
    Shape m_open; ///< the shape of the last run while it grows (interned when it closes)
    bool m_openShape = false;
    size_t m_size = 0;
    uint32_t m_lastStep = 0; ///< step of the last move (steps never decrease)
    mutable size_t m_lastRun = 0;
};

} // namespace layoutscope
