#include "layoutscope/core/memory.hpp"

#include <algorithm>

namespace layoutscope {

void GlobalMemory::addRegion(uint64_t base, uint64_t size, ByteGenerator gen, BulkByteGenerator bulk) {
    if (!gen) bulk = nullptr;
    if (m_disjoint && size > 0) {
        // Disjoint from the region starting at or before base and from the one starting after it.
        auto next = m_byBase.upper_bound(base);
        if (next != m_byBase.begin()) {
            const Region& prev = m_regions[std::prev(next)->second];
            if (base - prev.base < prev.size) m_disjoint = false;
        }
        if (next != m_byBase.end() && next->first - base < size) m_disjoint = false;
        if (m_disjoint) m_byBase.emplace(base, m_regions.size());
    }
    m_regions.push_back(Region{base, size, std::move(gen), std::move(bulk)});
}

const GlobalMemory::Region* GlobalMemory::regionOf(uint64_t addr) const {
    if (m_disjoint) { // at most one region holds addr: the last one starting at or before it
        auto it = m_byBase.upper_bound(addr);
        if (it == m_byBase.begin()) return nullptr;
        const Region& r = m_regions[std::prev(it)->second];
        return addr - r.base < r.size ? &r : nullptr;
    }
    for (const Region& r : m_regions) // overlapping regions: the first declared wins
        if (addr >= r.base && addr - r.base < r.size) return &r;
    return nullptr;
}

bool GlobalMemory::isMapped(uint64_t addr, uint64_t len) const {
    if (len == 0) return true;
    const Region* r = regionOf(addr);
    return r && addr + len - r->base <= r->size;
}

uint8_t GlobalMemory::initialByte(uint64_t addr) const {
    const Region* r = regionOf(addr);
    return (r && r->gen) ? r->gen(addr - r->base) : 0;
}

void GlobalMemory::generate(uint64_t addr, std::span<uint8_t> out) const {
    uint64_t j = 0;
    while (j < out.size()) { // one region lookup per run of bytes, not per byte
        const uint64_t a = addr + j;
        const Region* r = regionOf(a);
        if (!r) {
            out[j++] = 0;
            continue;
        }
        const uint64_t end = std::min<uint64_t>(out.size(), r->base + r->size - addr);
        if (!r->gen)
            std::fill(out.begin() + int64_t(j), out.begin() + int64_t(end), uint8_t(0));
        else if (r->bulk)
            r->bulk(ByteRows{a - r->base, 0, end - j, 1}, out.data() + j);
        else
            for (uint64_t o = a - r->base; j < end; ++j, ++o) out[j] = r->gen(o);
        j = end;
    }
}

uint8_t GlobalMemory::readByte(uint64_t addr) const {
    auto it = m_pages.find(addr / kPage);
    if (it != m_pages.end()) return it->second[addr % kPage];
    return initialByte(addr);
}

void GlobalMemory::read(uint64_t addr, std::span<uint8_t> out) const {
    size_t i = 0;
    while (i < out.size()) {
        const uint64_t a = addr + i;
        const size_t n = std::min<uint64_t>(out.size() - i, kPage - a % kPage);
        if (auto it = m_pages.empty() ? m_pages.end() : m_pages.find(a / kPage); it != m_pages.end())
            std::copy_n(it->second.begin() + int64_t(a % kPage), n, out.begin() + int64_t(i));
        else // never written: generate only the bytes asked for (issue 11: not whole pages)
            generate(a, out.subspan(i, n));
        i += n;
    }
}

void GlobalMemory::readRows(uint64_t addr, uint64_t stride, uint64_t rowBytes, uint64_t count,
                            uint8_t* out) const {
    if (count == 0 || rowBytes == 0) return;
    const uint64_t last = addr + (count - 1) * stride; // no wrap-around: callers pass mapped boxes
    const Region* r = m_pages.empty() && last >= addr ? regionOf(addr) : nullptr;
    const uint64_t end = last + rowBytes;
    bool alone = r && end > last && end - r->base <= r->size;
    for (const Region& o : m_regions) { // an earlier region over part of the rows would win there
        if (m_disjoint) break;          // none overlaps r
        if (!alone || &o == r) break;
        alone = o.base + o.size <= addr || o.base >= end;
    }
    if (!alone) {
        for (uint64_t i = 0; i < count; ++i)
            read(addr + i * stride, std::span<uint8_t>(out + i * rowBytes, rowBytes));
        return;
    }
    // Nothing written and every row in region r: its initial bytes, one generator call for them all.
    if (r->gen && r->bulk) {
        r->bulk(ByteRows{addr - r->base, stride, rowBytes, count}, out);
        return;
    }
    for (uint64_t i = 0; i < count; ++i) {
        const std::span<uint8_t> row(out + i * rowBytes, rowBytes);
        const uint64_t off = addr + i * stride - r->base;
        if (!r->gen)
            std::fill(row.begin(), row.end(), uint8_t(0));
        else
            for (uint64_t j = 0; j < rowBytes; ++j) row[j] = r->gen(off + j);
    }
}

bool GlobalMemory::unwritten(uint64_t addr, uint64_t len) const {
    if (len == 0 || m_pages.empty()) return true;
    if (addr + len < addr) return false; // wraps: not a range this model holds
    const uint64_t p0 = addr / kPage, p1 = (addr + len - 1) / kPage;
    if (p1 - p0 + 1 <= m_pages.size()) { // the range's pages, or the written pages: the fewer
        for (uint64_t p = p0; p <= p1; ++p)
            if (m_pages.count(p)) return false;
        return true;
    }
    for (const auto& [p, page] : m_pages)
        if (p >= p0 && p <= p1) return false;
    return true;
}

GlobalMemory GlobalMemory::initialImage() const {
    GlobalMemory g;
    g.m_regions = m_regions;
    g.m_byBase = m_byBase;
    g.m_disjoint = m_disjoint;
    return g;
}

void GlobalMemory::write(uint64_t addr, std::span<const uint8_t> in) {
    size_t i = 0;
    while (i < in.size()) {
        const uint64_t a = addr + i, page = a / kPage;
        const size_t n = std::min<uint64_t>(in.size() - i, kPage - a % kPage);
        auto it = m_pages.find(page);
        if (it == m_pages.end()) {
            Page fresh;
            generate(page * kPage, fresh);
            it = m_pages.emplace(page, fresh).first;
        }
        std::copy_n(in.begin() + int64_t(i), n, it->second.begin() + int64_t(a % kPage));
        i += n;
    }
}

MachineState::MachineState(uint32_t clusterSize_, uint8_t smemFill, uint32_t smemSize)
    : clusterSize(clusterSize_) {
    smem.reserve(clusterSize_);
    for (uint32_t i = 0; i < clusterSize_; ++i) smem.emplace_back(smemSize, smemFill);
}

} // namespace layoutscope
