#pragma once
/// Conformance runners over ../shared/golden. Each returns one outcome per record.
#include "conform/golden_reader.hpp"

#include <string>
#include <vector>

namespace layoutscope::conform {

/// golden/tma/*.jsonl(.gz): dispatches each record on its "category" (encode, tile_load, store,
/// im2col_load, multicast...). Records of a kind not modelled yet fail with "not modelled".
[[nodiscard]] Result<std::vector<CaseOutcome>> conformTma(const std::string& path);

} // namespace layoutscope::conform

namespace layoutscope::conform {

/// golden/ptxas/validity_public.jsonl.gz: validate each record's instruction or kernel for its
/// target and PTX version and compare accept/reject with ptxas (conform_ptxas.cpp).
[[nodiscard]] Result<std::vector<CaseOutcome>> conformPtxas(const std::string& path);

/// golden/cute/*.json: ld/st atoms, tcgen05.cp atoms, descriptors, swizzles, block-scaled example
/// (conform_cute.cpp). `path` is the directory or one file.
[[nodiscard]] Result<std::vector<CaseOutcome>> conformCute(const std::string& path);

/// golden/banks/*.jsonl(.gz): wavefronts and bank conflicts of one warp-wide shared access per
/// record vs the H100's Nsight Compute counts (conform_banks.cpp). `path` is a directory or a file.
[[nodiscard]] Result<std::vector<CaseOutcome>> conformBanks(const std::string& path);

} // namespace layoutscope::conform
