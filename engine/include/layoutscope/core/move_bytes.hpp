#pragma once
/// What Trace::beforeBytes / afterBytes return (trace.hpp), and where a trace keeps those bytes.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace layoutscope {

/// The bytes of one move before or after it (Trace::beforeBytes / afterBytes): a view of the trace's
/// store, or bytes made on demand (a generated source, a fill, zeros). A value: it may own its bytes, so
/// keep it while its span is used (`auto b = t.afterBytes(m);`, then `b.begin()`, `b.end()`).
class MoveBytes {
  public:
    MoveBytes() = default;
    explicit MoveBytes(std::span<const uint8_t> view) : m_view(view.data()), m_size(view.size()) {}
    /// Owned storage for `n` bytes, returned for the caller to fill.
    uint8_t* own(size_t n);
    [[nodiscard]] const uint8_t* data() const {
        return m_view ? m_view : (m_size <= m_small.size() ? m_small.data() : m_big.data());
    }
    [[nodiscard]] size_t size() const { return m_size; }
    [[nodiscard]] bool empty() const { return m_size == 0; }
    [[nodiscard]] const uint8_t* begin() const { return data(); }
    [[nodiscard]] const uint8_t* end() const { return data() + m_size; }
    [[nodiscard]] uint8_t operator[](size_t i) const { return data()[i]; }
    [[nodiscard]] std::span<const uint8_t> span() const { return {data(), m_size}; }
    operator std::span<const uint8_t>() const { return span(); } // NOLINT: reads as the bytes

  private:
    const uint8_t* m_view = nullptr;
    size_t m_size = 0;
    std::array<uint8_t, 32> m_small{};
    std::vector<uint8_t> m_big;
};

/// Where the before or after bytes of a span of moves come from (Trace::DataSegment).
enum class ByteSource : uint8_t {
    Stored,    ///< kept in the trace's store
    Zero,      ///< zeros (a register destination: no earlier value in this model)
    Previous,  ///< before only: the after bytes of an earlier segment, move for move (the same bytes)
    Generated, ///< after only: the move's source bytes in the initial global memory (Trace::images) through
               ///< its transform (copy), or the fill pattern of a fill move
};

} // namespace layoutscope
