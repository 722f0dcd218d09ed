// ByteStore: blocks that never move (byte_store.hpp).
#include "layoutscope/core/byte_store.hpp"

#include <algorithm>
#include <cstring>
#include <mutex>

namespace layoutscope {
namespace {

// Up to kPoolBlocks freed single blocks (32 MiB) are kept for the next ByteStore: a trace rebuilt on every
// edit, or a benchmark's, then writes to pages already mapped instead of faulting fresh ones in.
constexpr size_t kPoolBlocks = 32;
struct Pool {
    std::mutex mutex;
    std::vector<uint8_t*> blocks;
};
// Never destroyed (a ByteStore in a static object may outlive any other): its blocks stay reachable.
Pool& pool() {
    static Pool* p = new Pool;
    return *p;
}

uint8_t* allocBlocks(uint64_t blocks) {
    if (blocks == 1) {
        Pool& p = pool();
        std::lock_guard<std::mutex> lock(p.mutex);
        if (!p.blocks.empty()) {
            uint8_t* b = p.blocks.back();
            p.blocks.pop_back();
            return b;
        }
    }
    return new uint8_t[blocks * ByteStore::kBlockBytes];
}

void freeBlocks(uint8_t* bytes, uint64_t blocks) {
    if (blocks == 1) {
        Pool& p = pool();
        std::lock_guard<std::mutex> lock(p.mutex);
        if (p.blocks.size() < kPoolBlocks) {
            p.blocks.push_back(bytes);
            return;
        }
    }
    delete[] bytes;
}

} // namespace

uint64_t ByteStore::append(uint64_t n, bool zero) {
    const uint64_t room = m_blocks.size() * kBlockBytes;
    if (n > room - m_end) { // a new chunk of whole blocks; the rest of the last one is a gap
        if (m_end < room) std::memset(data(m_end), 0, room - m_end);
        m_end = room;
        const uint64_t blocks = std::max<uint64_t>(1, (n + kBlockBytes - 1) / kBlockBytes);
        Chunk c{room, blocks, allocBlocks(blocks)};
        for (uint64_t b = 0; b < blocks; ++b) m_blocks.push_back(c.bytes + b * kBlockBytes);
        m_chunks.push_back(c);
    }
    const uint64_t at = m_end;
    m_end += n;
    m_used += n;
    if (zero && n != 0) std::memset(data(at), 0, n);
    return at;
}

ByteStore::~ByteStore() {
    clear();
}

ByteStore::ByteStore(ByteStore&& o) noexcept
    : m_chunks(std::move(o.m_chunks)), m_blocks(std::move(o.m_blocks)), m_end(o.m_end), m_used(o.m_used) {
    o.m_chunks.clear();
    o.m_blocks.clear();
    o.m_end = o.m_used = 0;
}

ByteStore& ByteStore::operator=(ByteStore&& o) noexcept {
    if (this != &o) {
        clear();
        m_chunks.swap(o.m_chunks);
        m_blocks.swap(o.m_blocks);
        std::swap(m_end, o.m_end);
        std::swap(m_used, o.m_used);
    }
    return *this;
}

void ByteStore::clear() {
    for (const Chunk& c : m_chunks) freeBlocks(c.bytes, c.blocks);
    m_chunks.clear();
    m_blocks.clear();
    m_end = 0;
    m_used = 0;
}

ByteStore::ByteStore(const ByteStore& o) : m_end(o.m_end), m_used(o.m_used) {
    for (const Chunk& c : o.m_chunks) {
        Chunk d{c.start, c.blocks, allocBlocks(c.blocks)};
        // Only the bytes handed out are copied (the rest of the last chunk was never written).
        const uint64_t n = std::min(c.blocks * kBlockBytes, m_end - c.start);
        std::memcpy(d.bytes, c.bytes, n);
        for (uint64_t b = 0; b < d.blocks; ++b) m_blocks.push_back(d.bytes + b * kBlockBytes);
        m_chunks.push_back(d);
    }
}

ByteStore& ByteStore::operator=(const ByteStore& o) {
    if (this != &o) *this = ByteStore(o); // a copy, then the move assignment frees ours
    return *this;
}

bool operator==(const ByteStore& a, const ByteStore& b) {
    if (a.m_end != b.m_end || a.m_used != b.m_used) return false;
    for (uint64_t at = 0; at < a.m_end;) { // block by block (both have the same offsets)
        const uint64_t n = std::min(ByteStore::kBlockBytes - at % ByteStore::kBlockBytes, a.m_end - at);
        if (std::memcmp(a.data(at), b.data(at), n) != 0) return false;
        at += n;
    }
    return true;
}

} // namespace layoutscope
