#pragma once
// Internal: the field helpers move_table.cpp and move_table_levels.cpp share (MoveTable's varying fields,
// the constants of a run, derived addresses).
#include "layoutscope/core/move_table.hpp"
#include "layoutscope/tma/tma.hpp"

#include <span>
#include <tuple>

namespace layoutscope::move_table_detail {

using Strides = MoveTable::Strides;

// The varying fields, in Strides order.
inline Strides fieldsOf(const ByteMove& m) {
    return {int64_t(m.step),    int64_t(m.src.cta),  int64_t(m.src.addr),
            int64_t(m.dst.cta), int64_t(m.dst.addr), int64_t(m.logicalOffset),
            m.coord[0],         m.coord[1],          m.coord[2],
            m.coord[3],         m.coord[4]};
}

inline void setFields(ByteMove& m, const Strides& v) {
    m.step = uint32_t(v[0]);
    m.src.cta = uint8_t(v[1]);
    m.src.addr = uint64_t(v[2]);
    m.dst.cta = uint8_t(v[3]);
    m.dst.addr = uint64_t(v[4]);
    m.logicalOffset = uint32_t(v[5]);
    for (size_t c = 0; c < 5; ++c) m.coord[c] = int32_t(v[6 + c]);
}

constexpr size_t kSrcAddr = 2, kDstAddr = 4, kLogical = 5;

// Fields every move of a run shares.
inline bool sameConstants(const ByteMove& a, const ByteMove& b) {
    return a.instr == b.instr && a.src.space == b.src.space && a.dst.space == b.dst.space &&
           a.length == b.length && a.transform == b.transform && a.rule == b.rule;
}

inline uint64_t derivedAddr(const AddrDerivation& d, int64_t logical) {
    return swizzleAddress(TensorSwizzle(d.swizzle), uint32_t(d.base + uint64_t(logical)));
}

// Move k of a run or grid whose first move is `first` and whose varying fields are `v`: the fields set, its
// data at k moves of `first.length` past the first's, a derived address recomputed from the logical offset.
inline ByteMove moveWithFields(const ByteMove& first, const Strides& v, uint64_t k, const AddrDerivation& d) {
    ByteMove m = first;
    setFields(m, v);
    m.dataOffset = first.dataOffset + k * first.length;
    if (d.side == AddrDerivation::Side::Dst) m.dst.addr = derivedAddr(d, v[kLogical]);
    if (d.side == AddrDerivation::Side::Src) m.src.addr = derivedAddr(d, v[kLogical]);
    return m;
}

inline bool sameDerivation(const AddrDerivation& a, const AddrDerivation& b) {
    return a.side == b.side &&
           (a.side == AddrDerivation::Side::None || (a.swizzle == b.swizzle && a.base == b.base));
}

// A grid's levels (n[l] moves with strides s[l], level 0 fastest) as a run stores them: a level of one move
// is none, and a level whose strides continue the one below (s[l] == n[l-1] * s[l-1]) merges into it. Field
// `skip` (a derived address, or kFields for none) is not compared. Writes ln / ls; returns the level count.
inline size_t mergeLevels(std::span<const uint32_t> n, std::span<const Strides> s, size_t skip, uint64_t* ln,
                          Strides* ls) {
    constexpr size_t kFields = std::tuple_size_v<Strides>;
    size_t levels = 0;
    for (size_t l = 0; l < n.size(); ++l) {
        if (n[l] == 1) continue;
        Strides st = s[l];
        if (skip != kFields) st[skip] = 0;
        if (levels > 0) {
            bool continues = true;
            for (size_t f = 0; f < kFields && continues; ++f)
                continues = st[f] == int64_t(ln[levels - 1]) * ls[levels - 1][f];
            if (continues) {
                ln[levels - 1] *= n[l];
                continue;
            }
        }
        ln[levels] = n[l];
        ls[levels] = st;
        ++levels;
    }
    return levels;
}

} // namespace layoutscope::move_table_detail
