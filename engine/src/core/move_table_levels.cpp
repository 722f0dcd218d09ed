// MoveTable grids of more than three nested counts (appendGridLevels; move_table.hpp, docs/trace.md).
#include "core/move_table_fields.hpp"
#include "layoutscope/core/move_table.hpp"
#include "layoutscope/core/result.hpp"

#include <algorithm>

namespace layoutscope {
namespace {

using Strides = MoveTable::Strides;
using namespace move_table_detail;

} // namespace

ByteMove MoveTable::gridMoveLevels(const ByteMove& first, std::span<const uint32_t> n,
                                   std::span<const Strides> s, uint64_t k, const AddrDerivation& derive) {
    LAYOUTSCOPE_ASSERT(n.size() == s.size());
    Strides v = fieldsOf(first);
    uint64_t q = k;
    for (size_t l = 0; l < n.size(); ++l) {
        const uint64_t i = l + 1 < n.size() ? q % n[l] : q;
        q /= n[l];
        for (size_t f = 0; f < kFields; ++f) v[f] += int64_t(i) * s[l][f];
    }
    return moveWithFields(first, v, k, derive);
}

void MoveTable::appendGridLevels(const ByteMove& first, std::span<const uint32_t> n,
                                 std::span<const Strides> s, const AddrDerivation& derive) {
    LAYOUTSCOPE_ASSERT(n.size() == s.size() && n.size() <= kMaxLevels);
    uint64_t total = 1;
    for (uint32_t c : n) total *= c;
    if (total == 0) return;
    const size_t skip = derive.side == AddrDerivation::Side::Dst   ? kDstAddr
                        : derive.side == AddrDerivation::Side::Src ? kSrcAddr
                                                                   : kFields;
    // Merge as appendGrid does: a level of one move is none; a level continuing the one below joins it.
    std::array<uint64_t, kMaxLevels> ln{};
    std::array<Strides, kMaxLevels> ls{};
    const size_t levels = mergeLevels(n, s, skip, ln.data(), ls.data());
    if (levels <= 3) {
        std::array<uint32_t, 3> n3{1, 1, 1};
        std::array<Strides, 3> s3{};
        for (size_t l = 0; l < levels; ++l) {
            LAYOUTSCOPE_ASSERT(ln[l] <= UINT32_MAX);
            n3[l] = uint32_t(ln[l]);
            s3[l] = ls[l];
        }
        appendGrid(first, n3, s3, derive);
        return;
    }
    LAYOUTSCOPE_ASSERT(total <= UINT32_MAX && (m_size == 0 || first.step >= m_lastStep));
    if (derive.side == AddrDerivation::Side::Dst)
        LAYOUTSCOPE_ASSERT(first.dst.addr == derivedAddr(derive, first.logicalOffset));
    if (derive.side == AddrDerivation::Side::Src)
        LAYOUTSCOPE_ASSERT(first.src.addr == derivedAddr(derive, first.logicalOffset));
    int64_t lastStep = first.step;
    for (size_t l = 0; l < levels; ++l) lastStep += int64_t(ln[l] - 1) * ls[l][0];
    if (!m_runs.empty()) m_runs.back().shape = internShape(m_open);
    Ext e;
    e.levels = uint32_t(levels);
    for (size_t l = 2; l + 1 < levels; ++l) e.n[l - 2] = uint32_t(ln[l]);
    for (size_t l = 3; l < levels; ++l) e.s[l - 3] = ls[l];
    // Runs of one instruction form share their levels: reuse the last when it is the same.
    const bool same =
        !m_ext.empty() && m_ext.back().levels == e.levels && m_ext.back().n == e.n && m_ext.back().s == e.s;
    if (!same) m_ext.push_back(e);
    m_open = Shape{};
    m_open.derive = derive;
    m_open.ext = uint32_t(m_ext.size() - 1);
    for (size_t l = 0; l < 3; ++l) m_open.s[l] = ls[l];
    Run r;
    r.first = first;
    r.index = m_size;
    r.count = uint32_t(total);
    r.n0 = uint32_t(ln[0]);
    r.n1 = uint32_t(ln[1]);
    m_runs.push_back(r);
    m_size += total;
    m_lastStep = uint32_t(lastStep);
}

std::vector<MoveTable::RunSpan> MoveTable::runSpans(size_t lo, size_t hi) const {
    std::vector<RunSpan> out;
    for (size_t i = lo; i < hi;) { // rebuild()'s index decomposition, as gridMoveLevels levels
        const Run& r = m_runs[runOf(i)];
        const Shape& sh = (&r == &m_runs.back()) ? m_open : m_shapes[r.shape];
        RunSpan v;
        v.first = r.first;
        v.index = r.index;
        v.k0 = i - r.index;
        v.k1 = std::min<uint64_t>(hi, r.index + r.count) - r.index;
        v.derive = sh.derive;
        for (size_t l = 0; l < 3; ++l) v.s[l] = sh.s[l];
        v.n[0] = r.n0;
        v.n[1] = r.n1;
        if (sh.ext != kNoExt) {
            const Ext& e = m_ext[sh.ext];
            v.levels = e.levels;
            for (size_t l = 2; l + 1 < e.levels; ++l) v.n[l] = e.n[l - 2];
            for (size_t l = 3; l < e.levels; ++l) v.s[l] = e.s[l - 3];
        } else {
            v.levels = r.n0 == 0 ? 1 : r.n1 == 0 ? 2 : 3;
        }
        v.n[v.levels - 1] = 1;
        out.push_back(v);
        i = r.index + r.count;
    }
    return out;
}

} // namespace layoutscope
