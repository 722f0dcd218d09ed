#pragma once
// Private pieces of the CUDA repro exporter (export_cuda*.cpp).
#include "layoutscope/core/result.hpp"
#include "layoutscope/scenario/scenario.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace layoutscope::cudaexport {

/// Where the scenario's shared::cta addresses go in the program: kBase (smemBase rounded down to 1024)
/// maps to the 1024-aligned start of dynamic shared memory, so every address keeps its value mod 1024.
struct SmemLayout {
    uint32_t base = 0;   ///< scenario address that maps to the aligned dynamic base
    uint32_t region = 0; ///< bytes from base to the end of the last buffer or barrier
};
[[nodiscard]] SmemLayout smemLayout(const Scenario& s);

/// One instruction as an inline-asm statement of thread 0 of its CTA.
struct AsmStatement {
    std::string code; ///< C++ statement(s), indented by the caller
};

/// `let NAME = INT` values read back from the scenario text (Scenario keeps them resolved only).
[[nodiscard]] std::map<std::string, int64_t, std::less<>> letValues(std::string_view text);

/// The asm statement for a scenario instruction, or Unsupported naming the instruction's line.
[[nodiscard]] Result<AsmStatement> asmFor(const Scenario& s, const ScenarioInstr& in,
                                          const std::map<std::string, int64_t, std::less<>>& lets,
                                          const SmemLayout& layout, uint32_t spinLimit);

/// Hex digits of bytes, split into C++ string-literal lines of 64 bytes each.
[[nodiscard]] std::string hexLiteral(const uint8_t* p, size_t n, std::string_view indent);

/// The host half of the program: allocation, fills, encodes, launch, dumps and the comparison.
[[nodiscard]] Result<std::string> hostProgram(const Scenario& s, const Run& run, const SmemLayout& layout);

} // namespace layoutscope::cudaexport
