// MoveTable::Cursor: a walk over the table that steps each move from the one before (move_table.hpp).
// A run's move k is its first move plus sum_l idx[l] * s[l] over its levels (rebuild(): the digits of k in
// the counts n[0], n[1], ..., the last level open); stepping k adds s[0] and carries into the next level
// when a digit wraps, exactly the odometer that rebuild() divides out.
#include "layoutscope/core/move_table.hpp"

#include "core/move_table_fields.hpp"

#include <algorithm>

namespace layoutscope {

static_assert(MoveTable::kMaxLevels == 6, "Cursor's level arrays hold kMaxLevels levels");

MoveTable::Cursor::Cursor(const MoveTable& t, size_t i) : m_t(&t) {
    seek(i);
}

void MoveTable::Cursor::seek(size_t i) {
    if (i == m_i && m_count) return;
    if (i == m_i + 1 && m_i < m_t->m_size && m_k + 1 < m_count) {
        next();
        return;
    }
    m_i = i;
    if (i >= m_t->m_size) return;
    if (m_count && i >= m_t->m_runs[m_run].index && i < m_t->m_runs[m_run].index + m_count) {
        enter(m_run, i - m_t->m_runs[m_run].index);
        return;
    }
    const auto& runs = m_t->m_runs;
    const auto it = std::upper_bound(runs.begin(), runs.end(), uint64_t(i),
                                     [](uint64_t v, const Run& r) { return v < r.index; });
    const size_t r = size_t(it - runs.begin()) - 1;
    enter(r, i - runs[r].index);
}

void MoveTable::Cursor::enter(size_t run, uint64_t k) {
    const Run& r = m_t->m_runs[run];
    const Shape& sh = (run + 1 == m_t->m_runs.size()) ? m_t->m_open : m_t->m_shapes[r.shape];
    m_run = run;
    m_count = r.count;
    m_first = r.first;
    m_derive = sh.derive;
    for (size_t l = 0; l < 3; ++l) m_s[l] = sh.s[l];
    m_n[0] = r.n0, m_n[1] = r.n1;
    if (sh.ext != kNoExt) {
        const Ext& e = m_t->m_ext[sh.ext];
        m_levels = e.levels;
        for (size_t l = 2; l + 1 < e.levels; ++l) m_n[l] = e.n[l - 2];
        for (size_t l = 3; l < e.levels; ++l) m_s[l] = e.s[l - 3];
    } else {
        m_levels = r.n0 == 0 ? 1 : r.n1 == 0 ? 2 : 3;
    }
    // The digits of k (the last level takes the quotient) and the fields they give.
    uint64_t q = k;
    for (uint32_t l = 0; l + 1 < m_levels; ++l) {
        m_idx[l] = q % m_n[l];
        q /= m_n[l];
    }
    m_idx[m_levels - 1] = q;
    m_v = move_table_detail::fieldsOf(m_first);
    for (uint32_t l = 0; l < m_levels; ++l)
        if (m_idx[l] != 0)
            for (size_t f = 0; f < kFields; ++f) m_v[f] += int64_t(m_idx[l]) * m_s[l][f];
    m_k = k;
    build();
}

void MoveTable::Cursor::build() {
    m_move = move_table_detail::moveWithFields(m_first, m_v, m_k, m_derive);
}

void MoveTable::Cursor::next() {
    ++m_i;
    if (m_i >= m_t->m_size) return;
    if (m_k + 1 >= m_count) { // the next run
        enter(m_run + 1, 0);
        return;
    }
    ++m_k;
    for (uint32_t l = 0;; ++l) { // odometer: add level l's stride; a wrapped digit carries upward
        for (size_t f = 0; f < kFields; ++f) m_v[f] += m_s[l][f];
        if (l + 1 == m_levels || ++m_idx[l] < m_n[l]) {
            if (l + 1 == m_levels) ++m_idx[l];
            break;
        }
        for (size_t f = 0; f < kFields; ++f) m_v[f] -= int64_t(m_n[l]) * m_s[l][f];
        m_idx[l] = 0;
    }
    build();
}

} // namespace layoutscope
