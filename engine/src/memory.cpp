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

uint8_t GlobalMemory::readByte(uint64_t addr) const {
    auto it = m_pages.find(addr / kPage);
    if (it != m_pages.end()) return it->second[addr % kPage];
    return initialByte(addr);
}

void GlobalMemory::read(uint64_t addr, std::span<uint8_t> out) const {
    for (size_t i = 0; i < out.size(); ++i) out[i] = readByte(addr + i);
}

void GlobalMemory::write(uint64_t addr, std::span<const uint8_t> in) {
    for (size_t i = 0; i < in.size(); ++i) {
        const uint64_t a = addr + i;
        auto it = m_pages.find(a / kPage);
        if (it == m_pages.end()) {
            std::array<uint8_t, kPage> page{};
            const uint64_t pageBase = (a / kPage) * kPage;
            for (uint64_t j = 0; j < kPage; ++j) page[j] = initialByte(pageBase + j);
            it = m_pages.emplace(a / kPage, page).first;
        }
        it->second[a % kPage] = in[i];
    }
}

MachineState::MachineState(uint32_t clusterSize_, uint8_t smemFill, uint32_t smemSize)
    : clusterSize(clusterSize_) {
    smem.reserve(clusterSize_);
    for (uint32_t i = 0; i < clusterSize_; ++i) smem.emplace_back(smemSize, smemFill);
}

} // namespace layoutscope
