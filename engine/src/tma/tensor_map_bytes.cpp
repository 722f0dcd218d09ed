// The 128-byte CUtensorMap image written by cuTensorMapEncode* on sm_90 (CUDA 13 driver, H100).
// Decoded from the 332 successful encodes in golden/tma (all match byte for byte); the layout with
// its evidence is in docs/tensormap-layout.md. Offsets are bytes of the object, bits are within the
// little-endian 32-bit word at that offset.
#include "tma/tensor_map_detail.hpp"

namespace layoutscope {
namespace {

void put32(std::array<uint8_t, 128>& b, size_t off, uint32_t v) {
    for (int i = 0; i < 4; ++i) b[off + i] = uint8_t(v >> (8 * i));
}
void put64(std::array<uint8_t, 128>& b, size_t off, uint64_t v) {
    for (int i = 0; i < 8; ++i) b[off + i] = uint8_t(v >> (8 * i));
}

/// PTX tensormap `.elemtype` numbering (PTX §9.7.9.26 Table 33), which the descriptor stores: it
/// differs from CUtensorMapDataType for FLOAT64 (9), BFLOAT16 (10) and FLOAT32_FTZ (8). The TF32
/// types are stored as their FP32 base (7 / 8) plus a separate TF32 bit.
uint32_t descriptorElemType(TensorDataType t) {
    switch (t) {
    case TensorDataType::FLOAT64:
        return 9;
    case TensorDataType::BFLOAT16:
        return 10;
    case TensorDataType::FLOAT32_FTZ:
        return 8;
    case TensorDataType::TFLOAT32:
        return 7;
    case TensorDataType::TFLOAT32_FTZ:
        return 8;
    default:
        return uint32_t(t) & 0xf; // unverified for the sub-byte types (13..15 assumed)
    }
}

} // namespace

std::array<uint8_t, 128> tensorMapBytes(const TensorMap& m) {
    std::array<uint8_t, 128> b{};
    const TensorMapTiledParams& p = m.p;
    const bool im = m.mode != TensorMap::Mode::Tiled;
    const uint32_t rank = p.tensorRank > uint32_t(kMaxTensorRank) ? uint32_t(kMaxTensorRank) : p.tensorRank;
    const bool tf32 = p.dataType == TensorDataType::TFLOAT32 || p.dataType == TensorDataType::TFLOAT32_FTZ;

    put64(b, 0, p.globalAddress); // bytes [0,8): globalAddress
    uint32_t w = 0;
    w |= im ? 1u : 0u;           // bits [0,1): im2col (also im2col-wide; W and W128 identical)
    w |= ((rank - 1) & 7u) << 4; // bits [4,7): tensorRank - 1
    w |= (descriptorElemType(p.dataType) & 0xfu) << 7; // bits [7,11): PTX .elemtype
    w |= (uint32_t(p.interleave) & 3u) << 11;          // bits [11,13): interleave
    w |= (uint32_t(p.swizzle) & 3u) << 13;             // bits [13,15): swizzle mode (atom variants: unknown)
    w |= (uint32_t(p.oobFill) & 1u) << 15;             // bits [15,16): NaN OOB fill
    w |= (tf32 ? 1u : 0u) << 16;                       // bits [16,17): TF32 rounding
    w |= (uint32_t(p.l2Promotion) & 3u) << 17;         // bits [17,19): L2 promotion
    put32(b, 8, w);

    uint32_t high = 0;
    for (uint32_t i = 0; i + 1 < rank; ++i) {
        const uint64_t s = p.globalStrides[i] >> 4;
        put32(b, 12 + 4 * i, uint32_t(s)); // bytes [12,28): globalStrides[i] >> 4, bits [0,32)
        high |= uint32_t((s >> 32) & 0xf)
                << (4 * i); // bytes [28,32): bits [4i,4i+4) = stride[i] bits [36,40)
    }
    put32(b, 28, high);
    for (uint32_t i = 0; i < rank; ++i)
        put32(b, 32 + 4 * i, uint32_t(p.globalDim[i] - 1)); // bytes [32,52): globalDim - 1

    uint32_t es = 0;
    for (uint32_t i = 0; i < rank; ++i)
        es |= ((p.elementStrides[i] - 1) & 7u) << (3 * i); // bits [3i,3i+3): elementStrides - 1
    const uint32_t inner = im ? m.channelsPerPixel : p.boxDim[0];
    es |= ((inner - 1) & 0xffu) << 24; // bits [24,32): boxDim[0] - 1 or channelsPerPixel - 1
    put32(b, 52, es);

    if (!im) {
        for (uint32_t i = 1; i < rank; ++i)
            b[55 + i] = uint8_t(p.boxDim[i] - 1); // bytes [56,60): boxDim[1..4] - 1
    } else {
        // bytes [56,60): corners, lower in bits [0,16), upper in [16,32), each half split into
        // rank-2 signed fields of 16 / (rank-2) bits (16, 8, 5), W first. Wide: W only.
        const uint32_t spatial = rank >= 3 ? rank - 2 : 1;
        const uint32_t width = 16 / spatial;
        const uint32_t mask = (1u << width) - 1;
        const uint32_t n = m.mode == TensorMap::Mode::Im2colWide ? 1 : spatial;
        uint32_t c = 0;
        for (uint32_t d = 0; d < n; ++d) {
            c |= (uint32_t(m.pixelBoxLowerCorner[d]) & mask) << (width * d);
            c |= (uint32_t(m.pixelBoxUpperCorner[d]) & mask) << (16 + width * d);
        }
        put32(b, 56, c);
        put32(b, 60, m.pixelsPerColumn - 1); // bytes [60,64): pixelsPerColumn - 1
    }
    put64(b, 64, detail::descriptorBoxBytes(m)); // bytes [64,72): box bytes (truncating, es[0] included)
    const uint32_t span = swizzleSpan(p.swizzle);
    put32(b, 72, span == 0 ? 16 : span * 8); // bytes [72,76): shared-memory alignment (16 / 256 / 512 / 1024)
    return b;                                // bytes [76,128): zero
}

std::array<uint8_t, 128> tensorMapBytesConfidentMask() {
    std::array<uint8_t, 128> mask;
    // Every field is decoded for the sm_90 maps the driver accepts (the stride high nibbles of
    // strides 1..3 and the wide corner packing were confirmed by probes). Sub-byte types and the
    // atom swizzles never encode on sm_90, so no hardware image exists to compare them against.
    mask.fill(0xff);
    return mask;
}

} // namespace layoutscope
