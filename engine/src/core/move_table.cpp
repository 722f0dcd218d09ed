// MoveTable: runs of byte moves rebuilt exactly from a first move and per-level strides
// (move_table.hpp has the formula).
#include "layoutscope/core/move_table.hpp"
#include "core/move_table_fields.hpp"
#include "layoutscope/core/result.hpp"

#include <algorithm>
#include <atomic>

namespace layoutscope {
namespace {

using Strides = MoveTable::Strides;
using namespace move_table_detail;

} // namespace

bool MoveTable::Shape::operator==(const Shape& o) const {
    return s == o.s && ext == o.ext && sameDerivation(derive, o.derive);
}

size_t MoveTable::memoryBytes() const {
    return m_runs.capacity() * sizeof(Run) + m_shapes.capacity() * sizeof(Shape) +
           m_ext.capacity() * sizeof(Ext);
}

void MoveTable::clear() {
    m_runs.clear();
    m_shapes.clear();
    m_ext.clear();
    m_open = {};
    m_openShape = false;
    m_size = 0;
    m_lastStep = 0;
    m_lastRun = 0;
}

static_assert(std::atomic_ref<size_t>::required_alignment == alignof(size_t)); // m_lastRun needs no alignas

size_t MoveTable::runOf(size_t i) const {
    LAYOUTSCOPE_ASSERT(i < m_size);
    // The last run found is only a hint (checked before use); several threads may read one trace at once (the
    // views' passes over a new document, prepared_views.cpp), so the hint is read and written atomically.
    std::atomic_ref<size_t> last(m_lastRun);
    const size_t hint = last.load(std::memory_order_relaxed);
    size_t r = hint < m_runs.size() ? hint : 0;
    const Run& c = m_runs[r];
    if (i >= c.index && i < c.index + c.count) return r;
    if (r + 1 < m_runs.size() && i >= m_runs[r + 1].index && i < m_runs[r + 1].index + m_runs[r + 1].count)
        r = r + 1;
    else
        r = size_t(std::upper_bound(m_runs.begin(), m_runs.end(), uint64_t(i),
                                    [](uint64_t v, const Run& run) { return v < run.index; }) -
                   m_runs.begin()) -
            1;
    last.store(r, std::memory_order_relaxed);
    return r;
}

ByteMove MoveTable::rebuild(const Run& r, uint64_t k) const {
    const Shape& sh = (&r == &m_runs.back()) ? m_open : m_shapes[r.shape];
    if (sh.ext != kNoExt) { // a grid of more than three levels (appendGridLevels)
        const Ext& e = m_ext[sh.ext];
        std::array<uint64_t, kMaxLevels> idx{};
        uint64_t q = k / r.n0;
        idx[0] = k % r.n0;
        idx[1] = q % r.n1;
        q /= r.n1;
        for (size_t l = 2; l + 1 < e.levels; ++l) {
            idx[l] = q % e.n[l - 2];
            q /= e.n[l - 2];
        }
        idx[e.levels - 1] = q;
        Strides v = fieldsOf(r.first);
        for (size_t l = 0; l < e.levels; ++l)
            if (idx[l] != 0) {
                const Strides& st = l < 3 ? sh.s[l] : e.s[l - 3];
                for (size_t f = 0; f < kFields; ++f) v[f] += int64_t(idx[l]) * st[f];
            }
        return moveWithFields(r.first, v, k, sh.derive);
    }
    uint64_t idx[3] = {k, 0, 0};
    if (r.n0 != 0) {
        idx[0] = k % r.n0;
        idx[1] = k / r.n0;
        if (r.n1 != 0) {
            idx[2] = idx[1] / r.n1;
            idx[1] %= r.n1;
        }
    }
    Strides v = fieldsOf(r.first);
    for (size_t l = 0; l < 3; ++l)
        if (idx[l] != 0)
            for (size_t f = 0; f < kFields; ++f) v[f] += int64_t(idx[l]) * sh.s[l][f];
    return moveWithFields(r.first, v, k, sh.derive);
}

bool MoveTable::anyRule(size_t lo, size_t hi, RuleId rule) const {
    for (size_t i = lo; i < hi;) { // every move of a run has the run's rule
        const Run& r = m_runs[runOf(i)];
        if (r.first.rule == rule) return true;
        i = r.index + r.count;
    }
    return false;
}

ByteMove MoveTable::operator[](size_t i) const {
    const Run& r = m_runs[runOf(i)];
    return rebuild(r, i - r.index);
}

// Does `m` continue the last run? Levels are fixed greedily: the second move defines the level-0
// stride; the first move that breaks level 0 closes it (n0 = moves so far) and defines level 1, and
// so on. A move is accepted only when the run's formula then reproduces it exactly.
bool MoveTable::tryExtend(const ByteMove& m, const AddrDerivation& derive) {
    if (m_runs.empty()) return false;
    Run& r = m_runs.back();
    if (m_open.ext != kNoExt) return false; // a grid of more than three levels is complete
    if (!sameConstants(r.first, m) || !sameDerivation(m_open.derive, derive)) return false;
    if (m.dataOffset != r.first.dataOffset + uint64_t(r.count) * r.first.length) return false;
    Strides d = fieldsOf(m), f0 = fieldsOf(r.first);
    for (size_t f = 0; f < kFields; ++f) d[f] -= f0[f];
    // A derived address is not a stride field: ignore it in the comparison.
    const size_t skip = derive.side == AddrDerivation::Side::Dst   ? kDstAddr
                        : derive.side == AddrDerivation::Side::Src ? kSrcAddr
                                                                   : kFields;
    if (skip != kFields) d[skip] = 0;
    auto matches = [&](const Strides& want) {
        for (size_t f = 0; f < kFields; ++f)
            if (f != skip && d[f] != want[f]) return false;
        return true;
    };
    const uint64_t k = r.count;
    if (r.n0 == 0) {
        if (k == 1) {
            m_open.s[0] = d;
            ++r.count;
            return true;
        }
        Strides want{};
        for (size_t f = 0; f < kFields; ++f) want[f] = int64_t(k) * m_open.s[0][f];
        if (matches(want)) {
            ++r.count;
            return true;
        }
        r.n0 = r.count; // close level 0; m starts row 1
        m_open.s[1] = d;
        ++r.count;
        return true;
    }
    const uint64_t i0 = k % r.n0, row = k / r.n0;
    uint64_t i1 = row, i2 = 0;
    if (r.n1 != 0) {
        i1 = row % r.n1;
        i2 = row / r.n1;
    }
    Strides want{};
    for (size_t f = 0; f < kFields; ++f)
        want[f] = int64_t(i0) * m_open.s[0][f] + int64_t(i1) * m_open.s[1][f] + int64_t(i2) * m_open.s[2][f];
    if (matches(want)) {
        ++r.count;
        return true;
    }
    if (r.n1 == 0 && i0 == 0 && row >= 2) { // close level 1; m starts plane 1
        r.n1 = uint32_t(row);
        m_open.s[2] = d;
        ++r.count;
        return true;
    }
    return false;
}

uint32_t MoveTable::internShape(const Shape& s) {
    const size_t lookBack = std::min<size_t>(m_shapes.size(), 8);
    for (size_t j = 0; j < lookBack; ++j)
        if (m_shapes[m_shapes.size() - 1 - j] == s) return uint32_t(m_shapes.size() - 1 - j);
    m_shapes.push_back(s);
    return uint32_t(m_shapes.size() - 1);
}

void MoveTable::push_back(const ByteMove& m, const AddrDerivation& derive) {
    LAYOUTSCOPE_ASSERT(m_size == 0 || m.step >= m_lastStep);
    m_lastStep = m.step;
    if (derive.side == AddrDerivation::Side::Dst)
        LAYOUTSCOPE_ASSERT(m.dst.addr == derivedAddr(derive, m.logicalOffset));
    if (derive.side == AddrDerivation::Side::Src)
        LAYOUTSCOPE_ASSERT(m.src.addr == derivedAddr(derive, m.logicalOffset));
    if (!tryExtend(m, derive)) {
        if (!m_runs.empty()) m_runs.back().shape = internShape(m_open);
        m_open = Shape{};
        m_open.derive = derive;
        Run r;
        r.first = m;
        r.index = m_size;
        r.count = 1;
        m_runs.push_back(r);
    }
    ++m_size;
}

ByteMove MoveTable::rowMove(const ByteMove& first, const Strides& s0, uint64_t k,
                            const AddrDerivation& derive) {
    if (k == 0) return first;
    Strides v = fieldsOf(first);
    for (size_t f = 0; f < kFields; ++f) v[f] += int64_t(k) * s0[f];
    return moveWithFields(first, v, k, derive);
}

void MoveTable::appendRow(const ByteMove& first, uint32_t count, const Strides& s0,
                          const AddrDerivation& derive) {
    if (count == 0) return;
    push_back(first, derive); // joins the last run or starts one
    if (count == 1) return;
    LAYOUTSCOPE_ASSERT(s0[0] >= 0);
    const size_t skip = derive.side == AddrDerivation::Side::Dst   ? kDstAddr
                        : derive.side == AddrDerivation::Side::Src ? kSrcAddr
                                                                   : kFields;
    auto sameAsLevel0 = [&] {
        for (size_t f = 0; f < kFields; ++f)
            if (f != skip && m_open.s[0][f] != s0[f]) return false;
        return true;
    };
    Run& r = m_runs.back();
    bool whole = false;
    if (r.n0 == 0 && r.count == 1) { // `first` started a run: the row defines level 0
        m_open.s[0] = s0;
        if (skip != kFields) m_open.s[0][skip] = 0;
        whole = true;
    } else if (r.n0 == 0) { // `first` continued an open level 0: the row must keep its stride
        whole = sameAsLevel0();
    } else { // `first` sits at i0 of a closed level 0: the row must fit in the level-0 row
        whole = sameAsLevel0() && (r.count - 1) % r.n0 + count <= r.n0;
    }
    if (whole) {
        r.count += count - 1;
        m_size += count - 1;
        m_lastStep = uint32_t(int64_t(first.step) + int64_t(count - 1) * s0[0]);
        return;
    }
    for (uint32_t k = 1; k < count; ++k) push_back(rowMove(first, s0, k, derive), derive);
}

void MoveTable::appendBatch(std::span<const ByteMove> ms, const AddrDerivation& derive) {
    if (ms.size() < 3) {
        for (const ByteMove& m : ms) push_back(m, derive);
        return;
    }
    const size_t skip = derive.side == AddrDerivation::Side::Dst   ? kDstAddr
                        : derive.side == AddrDerivation::Side::Src ? kSrcAddr
                                                                   : kFields;
    const Strides f0 = fieldsOf(ms[0]);
    Strides s0 = fieldsOf(ms[1]);
    for (size_t f = 0; f < kFields; ++f) s0[f] -= f0[f];
    if (skip != kFields) s0[skip] = 0;
    bool row = s0[0] >= 0;
    for (size_t k = 1; row && k < ms.size(); ++k) {
        const ByteMove& m = ms[k];
        row = sameConstants(ms[0], m) && m.dataOffset == ms[0].dataOffset + k * ms[0].length;
        const Strides v = fieldsOf(m);
        for (size_t f = 0; row && f < kFields; ++f) row = f == skip || v[f] == f0[f] + int64_t(k) * s0[f];
    }
    if (row) {
        appendRow(ms[0], uint32_t(ms.size()), s0, derive);
        return;
    }
    for (const ByteMove& m : ms) push_back(m, derive);
}

ByteMove MoveTable::gridMove(const ByteMove& first, const std::array<uint32_t, 3>& n,
                             const std::array<Strides, 3>& s, uint64_t k, const AddrDerivation& derive) {
    const uint64_t i0 = k % n[0], i1 = k / n[0] % n[1], i2 = k / n[0] / n[1];
    Strides v = fieldsOf(first);
    for (size_t f = 0; f < kFields; ++f)
        v[f] += int64_t(i0) * s[0][f] + int64_t(i1) * s[1][f] + int64_t(i2) * s[2][f];
    return moveWithFields(first, v, k, derive);
}

void MoveTable::appendGrid(const ByteMove& first, const std::array<uint32_t, 3>& n,
                           const std::array<Strides, 3>& s, const AddrDerivation& derive) {
    const uint64_t total = uint64_t(n[0]) * n[1] * n[2];
    if (total == 0) return;
    const size_t skip = derive.side == AddrDerivation::Side::Dst   ? kDstAddr
                        : derive.side == AddrDerivation::Side::Src ? kSrcAddr
                                                                   : kFields;
    // The levels the greedy extension (tryExtend) would find: a level of one move is none, and a level
    // whose stride continues the one below (s[l] == n[l-1] * s[l-1]) merges into it.
    std::array<uint64_t, 3> ln{};
    std::array<Strides, 3> ls{};
    const size_t levels = mergeLevels(n, s, skip, ln.data(), ls.data());
    bool fresh = m_runs.empty() || !sameConstants(m_runs.back().first, first) ||
                 !sameDerivation(m_open.derive, derive);
    // The greedy closes levels by move counts held in 32 bits.
    fresh = fresh && total <= UINT32_MAX && (levels < 2 || ln[0] <= UINT32_MAX) &&
            (levels < 3 || ln[1] <= UINT32_MAX);
    if (!fresh) {
        Strides s0 = s[0];
        const uint64_t rows = uint64_t(n[1]) * n[2];
        for (uint64_t row = 0; row < rows; ++row)
            appendRow(gridMove(first, n, s, row * n[0], derive), n[0], s0, derive);
        return;
    }
    LAYOUTSCOPE_ASSERT(m_size == 0 || first.step >= m_lastStep);
    if (derive.side == AddrDerivation::Side::Dst)
        LAYOUTSCOPE_ASSERT(first.dst.addr == derivedAddr(derive, first.logicalOffset));
    if (derive.side == AddrDerivation::Side::Src)
        LAYOUTSCOPE_ASSERT(first.src.addr == derivedAddr(derive, first.logicalOffset));
    int64_t lastStep = first.step;
    for (size_t l = 0; l < levels; ++l) {
        LAYOUTSCOPE_ASSERT(ls[l][0] >= (l == 0 ? 0 : int64_t(ln[l - 1] - 1) * ls[l - 1][0]));
        lastStep += int64_t(ln[l] - 1) * ls[l][0];
    }
    if (!m_runs.empty()) m_runs.back().shape = internShape(m_open);
    m_open = Shape{};
    m_open.derive = derive;
    for (size_t l = 0; l < levels; ++l) m_open.s[l] = ls[l];
    Run r;
    r.first = first;
    r.index = m_size;
    r.count = uint32_t(total);
    r.n0 = levels >= 2 ? uint32_t(ln[0]) : 0;
    r.n1 = levels >= 3 ? uint32_t(ln[1]) : 0;
    m_runs.push_back(r);
    m_size += total;
    m_lastStep = uint32_t(lastStep);
}

} // namespace layoutscope
