// Range geometry of the async model's history (history.hpp): byte intervals, and Tensor Memory lane x column
// rectangles (address lane << 16 | column, `lanes` lanes from the first).
#include "async/history.hpp"

#include <algorithm>

namespace layoutscope::async {

namespace {
struct Rect {
    uint64_t l0, l1, c0, c1;
};
Rect rect(const Extent& r) {
    const uint64_t l0 = r.begin >> 16, c0 = r.begin & 0xFFFF;
    return {l0, l0 + std::max<uint32_t>(r.lanes, 1), c0, c0 + (r.end - r.begin)};
}
} // namespace

bool overlaps(const Extent& a, const Extent& b) {
    if (a.space != b.space || a.cta != b.cta) return false;
    if (a.space != MemSpace::TensorMemory) return a.begin < b.end && b.begin < a.end;
    const Rect x = rect(a), y = rect(b);
    return x.l0 < y.l1 && y.l0 < x.l1 && x.c0 < y.c1 && y.c0 < x.c1;
}

bool covers(const Extent& outer, const Extent& inner) {
    if (outer.space != inner.space || outer.cta != inner.cta) return false;
    if (outer.space != MemSpace::TensorMemory) return outer.begin <= inner.begin && inner.end <= outer.end;
    const Rect x = rect(outer), y = rect(inner);
    return x.l0 <= y.l0 && y.l1 <= x.l1 && x.c0 <= y.c0 && y.c1 <= x.c1;
}

Range intersect(const Range& a, const Extent& b) {
    Range ov = a;
    if (a.space != MemSpace::TensorMemory) {
        ov.begin = std::max(a.begin, b.begin);
        ov.end = std::min(a.end, b.end);
        return ov;
    }
    const Rect x = rect(extentOf(a)), y = rect(b);
    const uint64_t l0 = std::max(x.l0, y.l0), l1 = std::min(x.l1, y.l1);
    const uint64_t c0 = std::max(x.c0, y.c0), c1 = std::min(x.c1, y.c1);
    ov.begin = l0 << 16 | c0;
    ov.end = l0 << 16 | c1;
    ov.lanes = static_cast<uint32_t>(l1 - l0);
    return ov;
}

} // namespace layoutscope::async
