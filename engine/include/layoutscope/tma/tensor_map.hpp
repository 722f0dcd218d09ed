#pragma once
/// CUtensorMap parameters and the encode rules of the CUDA 13 driver.
/// Names and values follow cuda.h exactly: globalDim[0] is the innermost dimension, globalStrides
/// holds rank-1 byte strides (globalStrides[i] is the stride of dimension i+1).
/// Reference: ../shared/ref/tma.md §2; golden: ../shared/golden/tma/tensormap_encode.jsonl.gz.
#include "layoutscope/core/result.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace layoutscope {

/// CUtensorMapDataType (cuda.h values). Values outside the enum are representable (the driver
/// rejects them with CUDA_ERROR_INVALID_VALUE). The three sub-byte types start with a digit in
/// cuda.h (CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B), so they get a `T` prefix here.
enum class TensorDataType : uint32_t {
    UINT8 = 0,
    UINT16 = 1,
    UINT32 = 2,
    INT32 = 3,
    UINT64 = 4,
    INT64 = 5,
    FLOAT16 = 6,
    FLOAT32 = 7,
    FLOAT64 = 8,
    BFLOAT16 = 9,
    FLOAT32_FTZ = 10,
    TFLOAT32 = 11,
    TFLOAT32_FTZ = 12,
    T16U4_ALIGN8B = 13,
    T16U4_ALIGN16B = 14,
    T16U6_ALIGN16B = 15,
};
enum class TensorInterleave : uint32_t { NONE = 0, I16B = 1, I32B = 2 };
/// CUtensorMapSwizzle. 128B_ATOM_* are sm_100+ (the sm_90 driver rejects them).
/// PTX_96B is not a cuda.h value: PTX 8.8 `tensormap.replace .swizzle_mode` 4 (96B), which CUDA 13.0's
/// CUtensorMapSwizzle lacks. The encoder rejects it like any unknown value; scenarios set it after
/// encoding (`swizzle=96B`, sm_103a/f only, docs/tma-blackwell.md §4). Unverified (open question 1).
enum class TensorSwizzle : uint32_t {
    NONE = 0,
    S32B = 1,
    S64B = 2,
    S128B = 3,
    S128B_ATOM_32B = 4,
    S128B_ATOM_32B_FLIP_8B = 5,
    S128B_ATOM_64B = 6,
    PTX_96B = 0x104,
};
enum class TensorL2Promotion : uint32_t { NONE = 0, L2_64B = 1, L2_128B = 2, L2_256B = 3 };
enum class TensorOobFill : uint32_t { NONE = 0, NAN_REQUEST_ZERO_FMA = 1 };

/// cuda.h spelling, e.g. "CU_TENSOR_MAP_DATA_TYPE_FLOAT16"; "INVALID_VALUE_<n>" outside the enum.
[[nodiscard]] std::string cudaName(TensorDataType v);
[[nodiscard]] std::string cudaName(TensorInterleave v);
[[nodiscard]] std::string cudaName(TensorSwizzle v);
[[nodiscard]] std::string cudaName(TensorL2Promotion v);
[[nodiscard]] std::string cudaName(TensorOobFill v);
/// Parse a cuda.h name, with or without its CU_TENSOR_MAP_<KIND>_ prefix ("FLOAT16", "128B").
[[nodiscard]] std::optional<TensorDataType> parseDataType(std::string_view s);
[[nodiscard]] std::optional<TensorInterleave> parseInterleave(std::string_view s);
[[nodiscard]] std::optional<TensorSwizzle> parseSwizzle(std::string_view s);
[[nodiscard]] std::optional<TensorL2Promotion> parseL2Promotion(std::string_view s);
[[nodiscard]] std::optional<TensorOobFill> parseOobFill(std::string_view s);

/// Bits per element: 8..64 for byte types, 4 or 6 for the sub-byte types, 0 if invalid.
[[nodiscard]] uint32_t elementBits(TensorDataType t);
/// Bytes per element in shared memory for byte types (1..8); 1 for padded sub-byte types (one
/// 8-bit container per element), 0 for 16U4_ALIGN8B (packed, half a byte) or invalid.
[[nodiscard]] bool isFloatType(TensorDataType t);
[[nodiscard]] bool isSubByteType(TensorDataType t);
/// Swizzle span in bytes: 0 (NONE), 32, 64, 128 (all 128B variants).
[[nodiscard]] uint32_t swizzleSpan(TensorSwizzle s);

inline constexpr int kMaxTensorRank = 5;

/// Exactly the parameters of cuTensorMapEncodeTiled (cuda.h), plus the address of the output
/// CUtensorMap object (its alignment is checked by the driver).
struct TensorMapTiledParams {
    TensorDataType dataType = TensorDataType::FLOAT16;
    uint32_t tensorRank = 2;
    uint64_t globalAddress = 0;
    std::array<uint64_t, kMaxTensorRank> globalDim{};         ///< elements; [0] innermost
    std::array<uint64_t, kMaxTensorRank - 1> globalStrides{}; ///< bytes; [i] = stride of dim i+1
    std::array<uint32_t, kMaxTensorRank> boxDim{};            ///< elements
    std::array<uint32_t, kMaxTensorRank> elementStrides{1, 1, 1, 1, 1};
    TensorInterleave interleave = TensorInterleave::NONE;
    TensorSwizzle swizzle = TensorSwizzle::NONE;
    TensorL2Promotion l2Promotion = TensorL2Promotion::NONE;
    TensorOobFill oobFill = TensorOobFill::NONE;
    uint64_t tensorMapAddress = 0; ///< address of the CUtensorMap object (0 = assume aligned)
};

/// What the GPU target supports; the sm_90 driver rejects the sm_100 swizzles and sub-byte types.
/// Sm103 / Sm120 (appended by tmaextra) encode like Sm100; they gate the PTX restrictions that
/// name sm_103a (.b6p2x16 stores) and sm_120a (.shared::cluster loads) when a copy executes.
enum class TmaArch { Sm90, Sm100, Sm103, Sm120 };

/// An encoded tiled tensor map: the validated parameters. Only encodeTiled() makes one.
struct TensorMap {
    TensorMapTiledParams p;
    uint32_t elemBits = 16;
    // --- appended: im2col / im2col-wide maps (encodeIm2col, encodeIm2colWide). For those, p.boxDim is
    // unused.
    enum class Mode : uint8_t { Tiled, Im2col, Im2colWide };
    Mode mode = Mode::Tiled;
    std::array<int32_t, kMaxTensorRank - 2> pixelBoxLowerCorner{}; ///< W, H, D order; wide: [0] = W only
    std::array<int32_t, kMaxTensorRank - 2> pixelBoxUpperCorner{};
    uint32_t channelsPerPixel = 0; ///< elements along C per pixel (im2col)
    uint32_t pixelsPerColumn = 0;  ///< pixels per column (im2col)
    uint32_t wideMode = 0;         ///< CUtensorMapIm2ColWideMode (0 = W, 1 = W128)
};

/// cuTensorMapEncodeTiled: accepts and rejects exactly as the CUDA 13 driver does (measured on an
/// H100 for TmaArch::Sm90), naming the rule on rejection (DiagCode::InvalidValue).
[[nodiscard]] Result<TensorMap> encodeTiled(const TensorMapTiledParams& p, TmaArch arch = TmaArch::Sm90);

// [SECTION] appended by the encode work: im2col, im2col-wide, replace-address.

/// CUtensorMapIm2ColWideMode (cuda.h): W = 0, W128 = 1.
enum class TensorIm2colWideMode : uint32_t { W = 0, W128 = 1 };
[[nodiscard]] std::string cudaName(TensorIm2colWideMode v);
[[nodiscard]] std::optional<TensorIm2colWideMode> parseIm2colWideMode(std::string_view s);

/// Exactly the parameters of cuTensorMapEncodeIm2col. `base` carries every field shared with the
/// tiled encoder (its boxDim is ignored). Corner arrays hold tensorRank-2 entries ordered W, H, D
/// (index 0 acts on tensor dimension 1; tma.md §2.3, measured on H100).
struct TensorMapIm2colParams {
    TensorMapTiledParams base;
    std::array<int32_t, kMaxTensorRank - 2> pixelBoxLowerCorner{};
    std::array<int32_t, kMaxTensorRank - 2> pixelBoxUpperCorner{};
    uint32_t channelsPerPixel = 0; ///< elements along C (dimension 0)
    uint32_t pixelsPerColumn = 0;  ///< pixels along N, D, H, W
};

/// Exactly the parameters of cuTensorMapEncodeIm2colWide (documented for CC >= 10.0; exported and
/// working on the CUDA 13 driver on an H100).
struct TensorMapIm2colWideParams {
    TensorMapTiledParams base; ///< boxDim ignored
    int32_t pixelBoxLowerCornerWidth = 0;
    int32_t pixelBoxUpperCornerWidth = 0;
    uint32_t channelsPerPixel = 0;
    uint32_t pixelsPerColumn = 0; ///< ignored in mode W128
    TensorIm2colWideMode mode = TensorIm2colWideMode::W;
};

/// cuTensorMapEncodeIm2col / cuTensorMapEncodeIm2colWide, with the same rule table as encodeTiled.
[[nodiscard]] Result<TensorMap> encodeIm2col(const TensorMapIm2colParams& p, TmaArch arch = TmaArch::Sm90);
[[nodiscard]] Result<TensorMap> encodeIm2colWide(const TensorMapIm2colWideParams& p,
                                                 TmaArch arch = TmaArch::Sm90);

/// cuTensorMapReplaceAddress: the same map re-pointed at `globalAddress` (16-byte alignment only,
/// measured: the driver does not re-apply the 32-byte INTERLEAVE_32B rule).
[[nodiscard]] Result<TensorMap> replaceAddress(const TensorMap& map, uint64_t globalAddress,
                                               TmaArch arch = TmaArch::Sm90);

/// The 128-byte CUtensorMap the CUDA 13 driver writes for `map` on sm_90 (layout decoded from the 332
/// successful golden encodes; docs/tensormap-layout.md). Fields never observed (sub-byte types, the
/// 128B atom swizzles, high bits of globalStrides[1..3]) follow the documented assumptions.
[[nodiscard]] std::array<uint8_t, 128> tensorMapBytes(const TensorMap& map);
/// Bit mask of the bytes above that were decoded with confidence (1 = compare against hardware).
[[nodiscard]] std::array<uint8_t, 128> tensorMapBytesConfidentMask();

} // namespace layoutscope
