#pragma once
/// Reading ../shared/golden files exactly as they are: JSON Lines, plain or gzip-compressed.
#include "layoutscope/core/result.hpp"
#include "layoutscope/tma/tensor_map.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace layoutscope::conform {

/// Bounds on a golden file (the largest bundled line is 0.25 MiB, the largest file 0.85 MiB): a line longer
/// than kMaxJsonLineBytes or more than kMaxGoldenFileBytes of (decompressed) text is refused.
inline constexpr uint64_t kMaxJsonLineBytes = uint64_t(16) << 20;
inline constexpr uint64_t kMaxGoldenFileBytes = uint64_t(256) << 20;

/// Every non-empty line of `path` (.jsonl or .jsonl.gz, detected by content), in order; a regular file
/// only (a FIFO or device is refused before a byte is read), within the bounds above.
[[nodiscard]] Result<std::vector<std::string>> readJsonLines(const std::string& path);

/// Decode lowercase hex ("0a1b...") into bytes.
[[nodiscard]] std::vector<uint8_t> fromHex(const std::string& hex);
[[nodiscard]] std::string toHex(const uint8_t* p, size_t n);

/// index_pattern_v1 (golden/tma README): byte `offset` of a buffer filled with elements of size e.
[[nodiscard]] uint8_t indexPatternByte(uint64_t offset, uint32_t elemBytes);

/// One conformance outcome per case; the runner prints failures and the closing count.
struct CaseOutcome {
    std::string id;
    bool passed = true;
    std::string firstDifference;              ///< empty when passed
    std::vector<std::string> moreDifferences; ///< the 2nd, 3rd, ... differences found (at most a few)
    size_t unlistedDifferences = 0;           ///< differences found beyond those listed
};

/// Print failures (each listed difference on its own line, then "... and N more"), then "N passed, M failed";
/// returns the number failed.
size_t reportOutcomes(const std::vector<CaseOutcome>& outcomes, std::ostream& out);

} // namespace layoutscope::conform
