// cuda.h spellings of the CUtensorMap enums, and per-type facts (element size, float-ness).
#include "layoutscope/tma/tensor_map.hpp"

#include <array>

namespace layoutscope {
namespace {

template <size_t N>
std::string nameOf(const char* prefix, const std::array<const char*, N>& names, uint32_t v) {
    if (v < N) return std::string(prefix) + names[v];
    return "INVALID_VALUE_" + std::to_string(v);
}

template <class E, size_t N>
std::optional<E> parseName(std::string_view prefix, const std::array<const char*, N>& names,
                           std::string_view s) {
    if (s.substr(0, prefix.size()) == prefix) s.remove_prefix(prefix.size());
    for (size_t i = 0; i < N; ++i)
        if (s == names[i]) return static_cast<E>(i);
    return std::nullopt;
}

constexpr std::array<const char*, 16> kDataTypes{
    "UINT8",        "UINT16",       "UINT32",        "INT32",        "UINT64",      "INT64",
    "FLOAT16",      "FLOAT32",      "FLOAT64",       "BFLOAT16",     "FLOAT32_FTZ", "TFLOAT32",
    "TFLOAT32_FTZ", "16U4_ALIGN8B", "16U4_ALIGN16B", "16U6_ALIGN16B"};
constexpr std::array<const char*, 3> kInterleaves{"NONE", "16B", "32B"};
constexpr std::array<const char*, 7> kSwizzles{
    "NONE", "32B", "64B", "128B", "128B_ATOM_32B", "128B_ATOM_32B_FLIP_8B", "128B_ATOM_64B"};
constexpr std::array<const char*, 4> kL2{"NONE", "L2_64B", "L2_128B", "L2_256B"};
constexpr std::array<const char*, 2> kOob{"NONE", "NAN_REQUEST_ZERO_FMA"};
constexpr std::array<const char*, 2> kWideModes{"W", "W128"};

} // namespace

std::string cudaName(TensorDataType v) {
    return nameOf("CU_TENSOR_MAP_DATA_TYPE_", kDataTypes, uint32_t(v));
}
std::string cudaName(TensorInterleave v) {
    return nameOf("CU_TENSOR_MAP_INTERLEAVE_", kInterleaves, uint32_t(v));
}
std::string cudaName(TensorSwizzle v) {
    if (v == TensorSwizzle::PTX_96B) return "PTX_SWIZZLE_MODE_96B"; // no cuda.h name: PTX .swizzle_mode 4
    return nameOf("CU_TENSOR_MAP_SWIZZLE_", kSwizzles, uint32_t(v));
}
std::string cudaName(TensorL2Promotion v) {
    return nameOf("CU_TENSOR_MAP_L2_PROMOTION_", kL2, uint32_t(v));
}
std::string cudaName(TensorOobFill v) {
    return nameOf("CU_TENSOR_MAP_FLOAT_OOB_FILL_", kOob, uint32_t(v));
}

std::string cudaName(TensorIm2colWideMode v) {
    return nameOf("CU_TENSOR_MAP_IM2COL_WIDE_MODE_", kWideModes, uint32_t(v));
}
std::optional<TensorIm2colWideMode> parseIm2colWideMode(std::string_view s) {
    return parseName<TensorIm2colWideMode>("CU_TENSOR_MAP_IM2COL_WIDE_MODE_", kWideModes, s);
}

std::optional<TensorDataType> parseDataType(std::string_view s) {
    return parseName<TensorDataType>("CU_TENSOR_MAP_DATA_TYPE_", kDataTypes, s);
}
std::optional<TensorInterleave> parseInterleave(std::string_view s) {
    return parseName<TensorInterleave>("CU_TENSOR_MAP_INTERLEAVE_", kInterleaves, s);
}
std::optional<TensorSwizzle> parseSwizzle(std::string_view s) {
    return parseName<TensorSwizzle>("CU_TENSOR_MAP_SWIZZLE_", kSwizzles, s);
}
std::optional<TensorL2Promotion> parseL2Promotion(std::string_view s) {
    if (auto r = parseName<TensorL2Promotion>("CU_TENSOR_MAP_L2_PROMOTION_", kL2, s)) return r;
    return std::nullopt;
}
std::optional<TensorOobFill> parseOobFill(std::string_view s) {
    return parseName<TensorOobFill>("CU_TENSOR_MAP_FLOAT_OOB_FILL_", kOob, s);
}

uint32_t elementBits(TensorDataType t) {
    switch (t) {
    case TensorDataType::UINT8:
        return 8;
    case TensorDataType::UINT16:
    case TensorDataType::FLOAT16:
    case TensorDataType::BFLOAT16:
        return 16;
    case TensorDataType::UINT32:
    case TensorDataType::INT32:
    case TensorDataType::FLOAT32:
    case TensorDataType::FLOAT32_FTZ:
    case TensorDataType::TFLOAT32:
    case TensorDataType::TFLOAT32_FTZ:
        return 32;
    case TensorDataType::UINT64:
    case TensorDataType::INT64:
    case TensorDataType::FLOAT64:
        return 64;
    case TensorDataType::T16U4_ALIGN8B:
    case TensorDataType::T16U4_ALIGN16B:
        return 4;
    case TensorDataType::T16U6_ALIGN16B:
        return 6;
    }
    return 0;
}

bool isFloatType(TensorDataType t) {
    switch (t) {
    case TensorDataType::FLOAT16:
    case TensorDataType::FLOAT32:
    case TensorDataType::FLOAT64:
    case TensorDataType::BFLOAT16:
    case TensorDataType::FLOAT32_FTZ:
    case TensorDataType::TFLOAT32:
    case TensorDataType::TFLOAT32_FTZ:
        return true;
    default:
        return false;
    }
}

bool isSubByteType(TensorDataType t) {
    return t == TensorDataType::T16U4_ALIGN8B || t == TensorDataType::T16U4_ALIGN16B ||
           t == TensorDataType::T16U6_ALIGN16B;
}

uint32_t swizzleSpan(TensorSwizzle s) {
    switch (s) {
    case TensorSwizzle::NONE:
        return 0;
    case TensorSwizzle::S32B:
        return 32;
    case TensorSwizzle::S64B:
        return 64;
    case TensorSwizzle::S128B:
    case TensorSwizzle::S128B_ATOM_32B:
    case TensorSwizzle::S128B_ATOM_32B_FLIP_8B:
    case TensorSwizzle::S128B_ATOM_64B:
        return 128;
    case TensorSwizzle::PTX_96B:
        return 96; // unverified: row pitch 96 assumed (96 or 128, open question 1)
    }
    return 0;
}

} // namespace layoutscope
