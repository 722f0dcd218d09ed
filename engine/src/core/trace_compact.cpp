// A trace's before/after bytes at most one byte per byte moved (issue 25 item 9): where each move's bytes
// are (Trace::DataSegment), how the readers get them (Trace::beforeBytes / afterBytes), and the compact
// grid path (TraceBuilder::moveGrid with a state). Nothing is approximated: a byte is left out of the store
// only when the trace can give it back exactly (docs/trace.md, "Before/after bytes").
#include "layoutscope/core/trace.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>

namespace layoutscope {

namespace {

// The bytes a fill move writes: zeros, or OOB-NaN 0x7FF7 per 16-bit unit, little-endian (a move starts
// at an even byte of its row: TMA moves 16-byte chunks).
void fillBytes(Transform t, uint8_t* out, size_t n) {
    if (t == Transform::FillNaN)
        for (size_t i = 0; i < n; ++i) out[i] = i & 1u ? 0x7F : 0xF7;
    else
        std::memset(out, 0, n);
}

// Destinations whose `before` bytes the executors copy from memory (the others keep zeros).
bool copiedBeforeSpace(MemSpace s) {
    return s == MemSpace::SharedCta || s == MemSpace::Global || s == MemSpace::TensorMemory;
}

bool isFill(const ByteMove& m) {
    return m.src.space == MemSpace::Fill &&
           (m.transform == Transform::FillZero || m.transform == Transform::FillNaN);
}

} // namespace

uint64_t Trace::nextSerial() {
    static std::atomic<uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
}

uint8_t* MoveBytes::own(size_t n) {
    m_view = nullptr;
    m_size = n;
    if (n <= m_small.size()) return m_small.data();
    m_big.resize(n);
    return m_big.data();
}

const Trace::DataSegment& Trace::segmentOf(uint64_t dataOffset) const {
    auto it = std::upper_bound(m_segments.begin(), m_segments.end(), dataOffset,
                               [](uint64_t o, const DataSegment& s) { return o < s.at; });
    LAYOUTSCOPE_ASSERT(it != m_segments.begin());
    const DataSegment& s = *std::prev(it);
    LAYOUTSCOPE_ASSERT(dataOffset - s.at < s.bytes);
    return s;
}

void Trace::generatedAfter(const DataSegment& seg, const ByteMove& m, uint8_t* out) const {
    if (isFill(m)) {
        fillBytes(m.transform, out, m.length);
        return;
    }
    LAYOUTSCOPE_ASSERT(m.transform == Transform::Copy && m.src.space == MemSpace::Global &&
                       seg.image < images.size());
    images[seg.image]->read(m.src.addr, std::span<uint8_t>(out, m.length));
}

MoveBytes Trace::afterBytes(const ByteMove& m) const {
    if (m.length == 0) return {};
    const DataSegment& seg = segmentOf(m.dataOffset);
    if (seg.after == ByteSource::Stored)
        return MoveBytes(
            std::span<const uint8_t>(m_after.data(seg.afterAt + (m.dataOffset - seg.at)), m.length));
    MoveBytes b;
    generatedAfter(seg, m, b.own(m.length));
    return b;
}

MoveBytes Trace::beforeBytes(const ByteMove& m) const {
    if (m.length == 0) return {};
    if (m.dst.space == MemSpace::Register) return MoveBytes(zeroBytes(m.length));
    const DataSegment& seg = segmentOf(m.dataOffset);
    const uint64_t r = m.dataOffset - seg.at;
    switch (seg.before) {
    case ByteSource::Stored:
        return MoveBytes(std::span<const uint8_t>(m_before.data(seg.beforeAt + r), m.length));
    case ByteSource::Previous: { // move k of this grid overwrote what move k of that grid wrote
        const DataSegment& p = m_segments[seg.from];
        LAYOUTSCOPE_ASSERT(seg.moveLength == m.length && p.moveLength == m.length && r < p.bytes);
        const ByteMove pm = moves[p.firstMove + r / m.length];
        LAYOUTSCOPE_ASSERT(pm.dataOffset == p.at + r);
        return afterBytes(pm);
    }
    case ByteSource::Zero:
    case ByteSource::Generated:
        break;
    }
    MoveBytes b;
    std::memset(b.own(m.length), 0, m.length);
    return b;
}

namespace {

// The longest prefix of `n` bytes from `offset` that is one piece of memory: a segment may run across a
// block boundary of its store (two appends back to back), where the next block need not follow.
uint64_t contiguous(const ByteStore& s, uint64_t offset, uint64_t n) {
    constexpr uint64_t kBlock = ByteStore::kBlockBytes;
    for (uint64_t b = (offset / kBlock + 1) * kBlock; b < offset + n; b += kBlock)
        if (s.data(b) != s.data(b - 1) + 1) return b - offset;
    return n;
}

} // namespace

std::span<const uint8_t> Trace::keptBytes(uint64_t at, uint64_t n, bool after) const {
    if (n == 0 || at >= m_dataEnd) return {};
    const DataSegment& seg = segmentOf(at);
    const uint64_t r = at - seg.at;
    n = std::min(n, seg.bytes - r);
    const ByteSource src = after ? seg.after : seg.before;
    const ByteStore* store = nullptr;
    uint64_t from = 0;
    if (src == ByteSource::Stored) {
        store = after ? &m_after : &m_before;
        from = (after ? seg.afterAt : seg.beforeAt) + r;
    } else if (!after &&
               src == ByteSource::Previous) { // beforeBytes: the earlier grid's after, move for move
        const DataSegment& p = m_segments[seg.from];
        if (p.after != ByteSource::Stored || seg.moveLength != p.moveLength || r >= p.bytes) return {};
        n = std::min(n, p.bytes - r);
        store = &m_after;
        from = p.afterAt + r;
    } else {
        return {};
    }
    return {store->data(from), contiguous(*store, from, n)};
}

TraceBuilder::~TraceBuilder() {
    flush();
}

uint8_t* TraceBuilder::beforeAt(uint64_t at) {
    const Trace::DataSegment& l = m_t.m_segments.back();
    LAYOUTSCOPE_ASSERT(at >= l.at && at - l.at < l.bytes && l.before == ByteSource::Stored);
    return m_t.m_before.data(l.beforeAt + (at - l.at));
}

uint8_t* TraceBuilder::afterAt(uint64_t at) {
    const Trace::DataSegment& l = m_t.m_segments.back();
    LAYOUTSCOPE_ASSERT(at >= l.at && at - l.at < l.bytes && l.after == ByteSource::Stored);
    return m_t.m_after.data(l.afterAt + (at - l.at));
}

uint32_t TraceBuilder::imageOf(const GlobalMemory& g) {
    if (m_t.images.empty() || m_imageSource != &g || m_imageRegions != g.regionCount() ||
        m_imageSerial != m_t.m_serial) {
        m_t.images.push_back(std::make_shared<const GlobalMemory>(g.initialImage()));
        m_imageSource = &g;
        m_imageRegions = g.regionCount();
        m_imageSerial = m_t.m_serial;
    }
    return uint32_t(m_t.images.size() - 1);
}

TraceBuilder::GridBytes TraceBuilder::moveGrid(const MachineState& state, ByteMove first,
                                               const std::array<uint32_t, 3>& n,
                                               const std::array<MoveTable::Strides, 3>& s,
                                               const AddrDerivation& derive) {
    const uint64_t count = uint64_t(n[0]) * n[1] * n[2], bytes = count * first.length;
    if (!m_t.compactBytes || first.dst.space == MemSpace::Register || !m_tracing || bytes == 0)
        return moveGrid(first, n, s, derive);
    LAYOUTSCOPE_ASSERT(m_open);
    flush();
    m_t.instrs[m_instr].bytesMoved += bytes;
    first.step = m_t.stepCount; // a new step, like move(newStep = true)
    int64_t last = first.step;
    for (size_t l = 0; l < 3; ++l) last += int64_t(n[l] - 1) * s[l][0];
    m_t.stepCount = uint32_t(last + 1);
    first.instr = m_instr;

    Pending& p = m_pending;
    p = Pending{};
    p.first = first;
    // After: a copy of global bytes nothing has written since the run began (the source range spans
    // the grid's extreme source addresses: field 2 of the strides), or a fill (checked in flush()).
    if (first.transform == Transform::Copy && first.src.space == MemSpace::Global) {
        int64_t lo = 0, hi = 0;
        for (size_t l = 0; l < 3; ++l) {
            const int64_t d = int64_t(n[l] - 1) * s[l][2];
            (d < 0 ? lo : hi) += d;
        }
        const uint64_t from = uint64_t(int64_t(first.src.addr) + lo);
        const uint64_t to = uint64_t(int64_t(first.src.addr) + hi) + first.length;
        p.generated = to > from && state.global.unwritten(from, to - from);
    } else {
        p.generated = isFill(first);
    }
    p.key = {uint64_t(first.dst.space) | uint64_t(first.dst.cta) << 8, first.dst.addr, bytes, first.length};
    for (size_t i = 0; i < m_slots.size(); ++i) {
        const Slot& sl = m_slots[i];
        if (sl.serial == m_t.m_serial && sl.key == p.key) {
            p.beforeCandidate = true;
            p.slot = i;
        }
    }

    Trace::DataSegment seg;
    seg.at = first.dataOffset = m_t.m_dataEnd;
    seg.bytes = bytes;
    seg.firstMove = m_t.moves.size();
    seg.moveLength = first.length;
    m_t.m_dataEnd += bytes;
    GridBytes gb;
    if (p.beforeCandidate) {
        if (m_beforeScratch.size() < bytes) m_beforeScratch.resize(bytes);
        gb.before = m_beforeScratch.data();
    } else {
        seg.beforeAt = m_t.m_before.append(bytes, !copiedBeforeSpace(first.dst.space));
        gb.before = m_t.m_before.data(seg.beforeAt);
    }
    if (p.generated) {
        if (m_afterScratch.size() < bytes) m_afterScratch.resize(bytes);
        gb.after = m_afterScratch.data();
        if (first.src.space == MemSpace::Global) seg.image = imageOf(state.global);
    } else {
        seg.afterAt = m_t.m_after.append(bytes, false);
        gb.after = m_t.m_after.data(seg.afterAt);
    }
    p.segment = m_t.m_segments.size();
    p.serial = m_t.m_serial;
    p.open = true;
    m_t.m_segments.push_back(seg);
    m_t.moves.appendGrid(first, n, s, derive);
    return gb;
}

void TraceBuilder::flush() {
    Pending& p = m_pending;
    if (!p.open) return;
    p.open = false;
    if (p.serial != m_t.m_serial || p.segment >= m_t.m_segments.size()) return; // the trace was reset
    const size_t idx = p.segment;
    const uint64_t bytes = m_t.m_segments[idx].bytes;
    const uint8_t* after = nullptr;
    if (p.generated) {
        bool same = true; // a fill: its bytes must be the pattern afterBytes makes (else kept)
        if (isFill(p.first)) {
            std::array<uint8_t, 64> want{};
            const uint32_t len = p.first.length;
            same = len <= want.size();
            if (same) fillBytes(p.first.transform, want.data(), len);
            for (uint64_t i = 0; i < bytes && same; i += len)
                same = std::memcmp(m_afterScratch.data() + i, want.data(), len) == 0;
        }
        if (same) {
            m_t.m_segments[idx].after = ByteSource::Generated;
            after = m_afterScratch.data();
        } else {
            const uint64_t a = m_t.m_after.append(bytes, false);
            std::memcpy(m_t.m_after.data(a), m_afterScratch.data(), bytes);
            m_t.m_segments[idx].afterAt = a;
        }
    }
    if (!after) after = m_t.m_after.data(m_t.m_segments[idx].afterAt);
    if (p.beforeCandidate) {
        const Slot& c = m_slots[p.slot];
        const uint8_t* prev = c.stored ? c.stored : c.copy.data();
        if (std::memcmp(m_beforeScratch.data(), prev, bytes) == 0) {
            m_t.m_segments[idx].before = ByteSource::Previous;
            m_t.m_segments[idx].from = uint32_t(c.segment);
        } else {
            const uint64_t b = m_t.m_before.append(bytes, false);
            std::memcpy(m_t.m_before.data(b), m_beforeScratch.data(), bytes);
            m_t.m_segments[idx].beforeAt = b;
        }
    }
    // Remember this grid's after bytes for the next grid at the same place: in its slot (a reload of the
    // same buffer), else the least recently used one.
    size_t v = 0;
    for (size_t i = 0; i < m_slots.size(); ++i) {
        if (m_slots[i].serial == m_t.m_serial && m_slots[i].key == p.key) {
            v = i;
            break;
        }
        if (m_slots[i].used < m_slots[v].used) v = i;
    }
    Slot& sl = m_slots[v];
    sl.key = p.key;
    sl.serial = m_t.m_serial;
    sl.segment = idx;
    sl.used = ++m_clock;
    if (m_t.m_segments[idx].after == ByteSource::Generated) {
        sl.stored = nullptr;
        std::swap(sl.copy, m_afterScratch); // the scratch's bytes, kept without a copy
    } else {
        sl.stored = after;
    }
}

} // namespace layoutscope
