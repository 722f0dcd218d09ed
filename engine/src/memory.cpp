#include "layoutscope/memory.hpp"

#include <algorithm>

namespace layoutscope {

void GlobalMemory::addRegion(uint64_t base, uint64_t size, ByteGenerator gen) {
    m_regions.push_back(Region{base, size, std::move(gen)});
}

const GlobalMemory::Region* GlobalMemory::regionOf(uint64_t addr) const {
    for (const Region& r : m_regions)
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

void GlobalMemory::generatePage(uint64_t page, Page& out) const {
    const uint64_t base = page * kPage;
    uint64_t j = 0;
    while (j < kPage) { // one region lookup per run of bytes, not per byte
        const Region* r = regionOf(base + j);
        if (!r) {
            out[j++] = 0;
            continue;
        }
        const uint64_t end = std::min<uint64_t>(kPage, r->base + r->size - base);
        if (!r->gen)
            std::fill(out.begin() + int64_t(j), out.begin() + int64_t(end), uint8_t(0));
        else
            for (; j < end; ++j) out[j] = r->gen(base + j - r->base);
        j = end;
    }
}

const GlobalMemory::Page* GlobalMemory::pageFor(uint64_t page) const {
    if (auto it = m_pages.find(page); it != m_pages.end()) return &it->second;
    if (auto it = m_cache.pages.find(page); it != m_cache.pages.end()) return &it->second;
    if (m_cache.pages.size() >= kReadCachePages) m_cache.pages.clear();
    Page& p = m_cache.pages[page];
    generatePage(page, p);
    return &p;
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
        if (m_regions.empty() && m_pages.empty()) {
            std::fill_n(out.begin() + int64_t(i), n, uint8_t(0));
        } else {
            const Page* p = pageFor(a / kPage);
            std::copy_n(p->begin() + int64_t(a % kPage), n, out.begin() + int64_t(i));
        }
        i += n;
    }
}

void GlobalMemory::write(uint64_t addr, std::span<const uint8_t> in) {
    size_t i = 0;
    while (i < in.size()) {
        const uint64_t a = addr + i, page = a / kPage;
        const size_t n = std::min<uint64_t>(in.size() - i, kPage - a % kPage);
        auto it = m_pages.find(page);
        if (it == m_pages.end()) {
            Page fresh;
            if (auto c = m_cache.pages.find(page); c != m_cache.pages.end()) {
                fresh = c->second;
                m_cache.pages.erase(c);
            } else {
                generatePage(page, fresh);
            }
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
