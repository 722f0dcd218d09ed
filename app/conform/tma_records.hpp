#pragma once
/// Internal to the conformance library: golden/tma JSON records -> engine parameters and checks.
#include "conform/golden_reader.hpp"
#include "layoutscope/tma/tensor_map.hpp"

#include <nlohmann/json.hpp>

namespace layoutscope::conform {

using Json = nlohmann::json;

/// Parse a hex string "0x7f..." as an unsigned 64-bit value.
[[nodiscard]] uint64_t parseHexAddress(const std::string& s);

/// The record's `tensor_map` object (fn = cuTensorMapEncodeTiled) as encode parameters. Enum fields
/// are taken from their numeric `...Value` twins, so INVALID_VALUE_<n> round-trips.
[[nodiscard]] TensorMapTiledParams tiledParamsFromJson(const Json& tensorMap, uint64_t globalAddress);

CaseOutcome checkEncodeRecord(const Json& rec);   ///< conform_encode.cpp
CaseOutcome checkTileLoadRecord(const Json& rec); ///< conform_tma.cpp (tile_load, multicast)
CaseOutcome checkStoreRecord(const Json& rec);    ///< conform_tma.cpp

/// Appended (encode work, conform_encode.cpp): run the encoder that the record's `tensor_map.fn`
/// names (cuTensorMapEncodeTiled / Im2col / Im2colWide) on its parameters. For im2col loads too.
[[nodiscard]] Result<TensorMap> encodeFromJson(const Json& tensorMap, uint64_t globalAddress,
                                               uint64_t tensorMapAddress = 0, TmaArch arch = TmaArch::Sm90);

/// Appended (encode work): "" when the 128 bytes `expectedHex` match tensorMapBytes(map) on every
/// confidently decoded bit, else the first differing byte and its field.
[[nodiscard]] std::string compareTensorMapBytes(const std::string& expectedHex, const TensorMap& map);

} // namespace layoutscope::conform
