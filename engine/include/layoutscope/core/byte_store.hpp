#pragma once
/// Append-only byte storage of a trace's before/after bytes (Trace::before, Trace::after).
///
/// A std::vector doubled as it grew: every doubling copied all earlier bytes and touched twice the memory,
/// and resize() zeroed bytes the executors overwrite at once (issue 11: half the time of a large run).
/// A ByteStore keeps its bytes in blocks that never move; appending does not zero unless asked.
/// Offsets are global and stable: a span handed out is contiguous, so an append that does not fit in the
/// rest of the current block starts a new one and leaves a gap (zeroed, and counted by size() but not by
/// usedBytes()). Lookup is O(1): offset / kBlockBytes picks the block.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace layoutscope {

class ByteStore {
  public:
    static constexpr uint64_t kBlockBytes = uint64_t(1) << 20;

    ByteStore() = default;
    ~ByteStore();
    ByteStore(const ByteStore& o);
    ByteStore& operator=(const ByteStore& o);
    ByteStore(ByteStore&& o) noexcept;
    ByteStore& operator=(ByteStore&& o) noexcept;

    /// One past the last offset handed out (gaps included).
    [[nodiscard]] uint64_t size() const { return m_end; }
    [[nodiscard]] bool empty() const { return m_end == 0; }
    /// Bytes appended (gaps excluded): what the trace's memory budget counts.
    [[nodiscard]] uint64_t usedBytes() const { return m_used; }
    /// Bytes allocated.
    [[nodiscard]] uint64_t capacity() const { return m_blocks.size() * kBlockBytes; }
    /// Room for `n` contiguous bytes; returns their offset. Uninitialised unless `zero`.
    uint64_t append(uint64_t n, bool zero);
    /// The byte at `offset` (< size()); nullptr past the last block (an empty append at the end).
    [[nodiscard]] uint8_t* data(uint64_t offset) {
        const uint64_t b = offset / kBlockBytes;
        return b < m_blocks.size() ? m_blocks[b] + offset % kBlockBytes : nullptr;
    }
    [[nodiscard]] const uint8_t* data(uint64_t offset) const {
        const uint64_t b = offset / kBlockBytes;
        return b < m_blocks.size() ? m_blocks[b] + offset % kBlockBytes : nullptr;
    }
    void clear();
    /// The same offsets holding the same bytes.
    friend bool operator==(const ByteStore& a, const ByteStore& b);

  private:
    /// Owned memory of whole blocks. Freed single blocks go to a small process-wide pool (byte_store.cpp)
    /// that the next trace reuses: pages already mapped, not fresh ones to fault in.
    struct Chunk {
        uint64_t start = 0;  ///< offset of its first byte (a multiple of kBlockBytes)
        uint64_t blocks = 0; ///< kBlockBytes each
        uint8_t* bytes = nullptr;
    };
    std::vector<Chunk> m_chunks;
    std::vector<uint8_t*> m_blocks; ///< block i = bytes [i * kBlockBytes, (i + 1) * kBlockBytes)
    uint64_t m_end = 0;
    uint64_t m_used = 0;
};

} // namespace layoutscope
