#pragma once
/// Machine state: sparse global memory, one shared memory per CTA of a cluster, mbarriers.
/// Global memory costs only the bytes a scenario touches: regions are described by a generator and
/// materialised page by page on first write.
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

namespace layoutscope {

inline constexpr uint32_t kSmemBytesPerCta = 228 * 1024; ///< sm_90/sm_100 shared memory per SM
inline constexpr uint32_t kMaxClusterCtas = 16;          ///< non-portable cluster size limit

/// Byte value of a region at a given offset from its base (pure function).
using ByteGenerator = std::function<uint8_t(uint64_t offset)>;
/// Rows of a region for a BulkByteGenerator: row i is the `rowBytes` bytes at offset + i * stride.
struct ByteRows {
    uint64_t offset = 0;
    uint64_t stride = 0;
    uint64_t rowBytes = 0;
    uint64_t count = 1;
};
/// The same function over rows: out[i * rowBytes + j] = gen(offset + i * stride + j). Optional; makes
/// reads of a generated tensor one call per box (a TMA box's rows) or run of bytes, not one per byte.
using BulkByteGenerator = std::function<void(const ByteRows& rows, uint8_t* out)>;

/// Sparse 64-bit global address space. Unmapped bytes read as 0.
class GlobalMemory {
  public:
    /// Declare [base, base+size) whose initial bytes come from `gen` (nullptr: zeros).
    /// `bulk`, when given, must agree with `gen` byte for byte.
    void addRegion(uint64_t base, uint64_t size, ByteGenerator gen, BulkByteGenerator bulk = nullptr);
    [[nodiscard]] bool isMapped(uint64_t addr, uint64_t len) const;
    [[nodiscard]] uint8_t readByte(uint64_t addr) const;
    void read(uint64_t addr, std::span<uint8_t> out) const;
    void write(uint64_t addr, std::span<const uint8_t> in);
    /// `count` rows of `rowBytes` bytes, row i at addr + i * stride, back to back into `out` (count *
    /// rowBytes bytes): the same as read() of each row, with the region resolved once when no row has
    /// been written (a TMA box of a generated tensor).
    void readRows(uint64_t addr, uint64_t stride, uint64_t rowBytes, uint64_t count, uint8_t* out) const;
    /// Whether no byte of [addr, addr + len) has been written: it reads as its initial (generated) byte.
    [[nodiscard]] bool unwritten(uint64_t addr, uint64_t len) const;
    /// The regions alone, nothing written: the initial memory (a trace keeps it to regenerate bytes).
    [[nodiscard]] GlobalMemory initialImage() const;
    [[nodiscard]] size_t regionCount() const { return m_regions.size(); }
    /// Number of 4 KiB pages materialised by writes (for the "costs only what is touched" rule).
    [[nodiscard]] size_t materialisedPages() const { return m_pages.size(); }

    static constexpr uint64_t kPage = 4096;

  private:
    struct Region {
        uint64_t base, size;
        ByteGenerator gen;
        BulkByteGenerator bulk;
    };
    using Page = std::array<uint8_t, kPage>;
    [[nodiscard]] const Region* regionOf(uint64_t addr) const;
    [[nodiscard]] uint8_t initialByte(uint64_t addr) const;
    /// The initial bytes of [addr, addr + out.size()): one region lookup per run, only the bytes asked.
    void generate(uint64_t addr, std::span<uint8_t> out) const;
    std::vector<Region> m_regions;
    /// base -> index into m_regions, while no two regions overlap (m_disjoint): regionOf is then one
    /// O(log n) lookup instead of a scan (issue 25 item 3: 100k tensors made every access scan them all).
    std::map<uint64_t, size_t> m_byBase;
    bool m_disjoint = true;
    std::unordered_map<uint64_t, Page> m_pages; ///< page index -> bytes written (copyable state)
};

/// One CTA's shared memory window: shared::cta addresses [0, size).
class SharedMemory {
  public:
    explicit SharedMemory(uint32_t size = kSmemBytesPerCta, uint8_t fill = 0) : m_bytes(size, fill) {}
    [[nodiscard]] uint32_t size() const { return static_cast<uint32_t>(m_bytes.size()); }
    [[nodiscard]] std::span<uint8_t> bytes() { return m_bytes; }
    [[nodiscard]] std::span<const uint8_t> bytes() const { return m_bytes; }

  private:
    std::vector<uint8_t> m_bytes;
};

/// An mbarrier's transaction state (PTX ISA §9.7.13.15), as far as data movement needs it.
struct MbarrierState {
    int64_t txCount = 0;        ///< expect-tx adds, complete-tx subtracts
    int64_t completedBytes = 0; ///< total complete-tx bytes received (for display / conformance)
};

/// Everything an execution reads and writes.
struct MachineState {
    explicit MachineState(uint32_t clusterSize = 1, uint8_t smemFill = 0,
                          uint32_t smemSize = kSmemBytesPerCta);
    uint32_t clusterSize = 1;
    GlobalMemory global;
    std::vector<SharedMemory> smem;                                   ///< index = %cluster_ctarank
    std::map<std::pair<uint32_t, uint32_t>, MbarrierState> mbarriers; ///< (cta, shared::cta addr)
};

} // namespace layoutscope
