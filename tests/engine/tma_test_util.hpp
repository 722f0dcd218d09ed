#pragma once
// Helpers shared by the TMA executor tests: build encoded tensor maps and run one copy.
#include "layoutscope/tma/tma.hpp"

#include <catch2/catch.hpp>

#include <initializer_list>
#include <vector>

namespace tmatest {

using namespace layoutscope;

inline constexpr uint64_t kGlobal = 0x10000000;

struct MapSpec {
    TensorDataType type = TensorDataType::FLOAT16;
    std::vector<uint64_t> dims; ///< globalDim, dim 0 first
    std::vector<uint32_t> box;  ///< boxDim
    TensorSwizzle swizzle = TensorSwizzle::NONE;
    TensorOobFill fill = TensorOobFill::NONE;
    std::vector<uint32_t> elementStrides; ///< empty: all 1
    std::vector<uint64_t> strides;        ///< empty: dense rows rounded up to 16 B
};

inline TensorMapTiledParams paramsOf(const MapSpec& s) {
    TensorMapTiledParams p;
    p.dataType = s.type;
    p.tensorRank = uint32_t(s.dims.size());
    p.globalAddress = kGlobal;
    p.swizzle = s.swizzle;
    p.oobFill = s.fill;
    const uint64_t eb = elementBits(s.type) / 8;
    uint64_t stride = (s.dims[0] * eb + 15) / 16 * 16;
    for (size_t i = 0; i < s.dims.size(); ++i) {
        p.globalDim[i] = s.dims[i];
        p.boxDim[i] = s.box[i];
        p.elementStrides[i] = s.elementStrides.empty() ? 1 : s.elementStrides[i];
        if (i + 1 < s.dims.size()) {
            p.globalStrides[i] = s.strides.empty() ? stride : s.strides[i];
            stride = p.globalStrides[i] * s.dims[i + 1];
        }
    }
    return p;
}

inline TensorMap mapOf(const MapSpec& s, TmaArch arch = TmaArch::Sm90) {
    auto r = encodeTiled(paramsOf(s), arch);
    if (!r.ok()) FAIL("encode rejected the test map: " << r.error().message);
    return r.value();
}

/// Bytes of the whole tensor: extent from the outermost stride.
inline uint64_t extentOf(const TensorMap& m) {
    const uint32_t r = m.p.tensorRank;
    if (r == 1) return m.p.globalDim[0] * (elementBits(m.p.dataType) / 8);
    return m.p.globalStrides[r - 2] * m.p.globalDim[r - 1];
}

/// Global byte at offset o: a simple pattern that differs in every byte of a row.
inline uint8_t globalByte(uint64_t o) {
    return uint8_t((o * 7 + (o >> 8) * 13 + 1) & 0xFF);
}

inline std::array<int32_t, 5> at(std::initializer_list<int32_t> c) {
    std::array<int32_t, 5> a{};
    size_t i = 0;
    for (int32_t v : c) a[i++] = v;
    return a;
}

} // namespace tmatest
