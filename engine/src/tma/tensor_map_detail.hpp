#pragma once
// Internal to the tensor-map encoder (tensor_map.cpp) and its byte image (tensor_map_bytes.cpp).
#include "layoutscope/tma/tensor_map.hpp"

#include <string>

namespace layoutscope::detail {

/// Seed-004 sub-byte restriction `number` (1..9; PTX ISA 9.2 §9.7.9.25.5.1) as the copy executor
/// quotes it: `PTX restriction N: "<text>"` (tma_subbyte.cpp). Empty for other numbers.
[[nodiscard]] std::string subByteRestrictionQuote(int number);

[[nodiscard]] inline bool paddedSubByte(TensorDataType t) {
    return t == TensorDataType::T16U4_ALIGN16B || t == TensorDataType::T16U6_ALIGN16B;
}

/// Bytes that `count` dimension-0 elements occupy: 16U4_ALIGN8B packs two per byte; the padded
/// sub-byte types take 16 bytes per 16 values (gaps included; unverified); byte types their size.
[[nodiscard]] inline uint64_t innerBytes(TensorDataType t, uint64_t count) {
    if (t == TensorDataType::T16U4_ALIGN8B) return count / 2;
    if (paddedSubByte(t)) return count;
    return count * (elementBits(t) / 8);
}

/// The box size the driver stores at bytes [64,72) and limits to 228 KiB (measured on H100):
/// tiled: elemsize * prod floor(boxDim[i] / elementStrides[i]) over every dimension, dimension 0
/// included (truncating, unlike the transfer count); im2col: channelsPerPixel * pixelsPerColumn * elemsize.
[[nodiscard]] inline uint64_t descriptorBoxBytes(const TensorMap& m) {
    const TensorMapTiledParams& p = m.p;
    if (m.mode != TensorMap::Mode::Tiled)
        return innerBytes(p.dataType, uint64_t(m.channelsPerPixel) * m.pixelsPerColumn);
    const uint32_t rank = p.tensorRank > uint32_t(kMaxTensorRank) ? uint32_t(kMaxTensorRank) : p.tensorRank;
    if (rank == 0) return 0;
    uint64_t b = innerBytes(p.dataType, p.elementStrides[0] ? p.boxDim[0] / p.elementStrides[0] : 0);
    for (uint32_t i = 1; i < rank; ++i) b *= p.elementStrides[i] ? p.boxDim[i] / p.elementStrides[i] : 0;
    return b;
}

} // namespace layoutscope::detail
