#pragma once
/// Observed bytes from a real kernel (issue 13 item 4): a dump of shared memory, Tensor Memory or a global
/// tensor read from a file (raw .bin, NumPy .npy, or the hex text cuda-gdb `x/` prints), compared with what
/// the engine predicts for the same scenario. docs/observed.md.
///
///   observe smem sA file=dumps/sA.bin [cta=1]        # the buffer's bytes, from its first byte
///   observe global C file=c_after.npy                 # the tensor's bytes from its global address
///   observe tmem file=tmem.txt [cta=0] lanes=0:32 cols=0:8   # cells lane-major, 4 bytes each
#include "layoutscope/core/result.hpp"
#include "layoutscope/scenario/scenario.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace layoutscope {

// Observation (a scenario's `observe` directive) is declared in scenario.hpp.

/// The bytes of a dump file and how they were read.
struct ObservedBytes {
    std::vector<uint8_t> bytes;
    std::string format; ///< "raw", "npy <f2 (64, 64)", "hex (4-byte words)", "hex (bytes)"
};

/// Largest dump accepted (256 MiB): a full 228 KiB shared memory, 256 KiB TMEM or a large tensor fit easily.
inline constexpr uint64_t kMaxObservedBytes = uint64_t(256) << 20;

/// The format from the content: `\x93NUMPY` magic -> .npy (C order, any little-endian or byte dtype; the
/// data bytes as stored); text of hex tokens (cuda-gdb `x/NNx{b,h,w,g}` with or without `ADDR <sym>:`
/// prefixes, 0x-prefixed words little-endian, or plain digits in memory order as `xxd -p`) -> hex;
/// anything else -> raw bytes. Errors name the rule: a truncated or malformed .npy header, Fortran order,
/// a big-endian dtype, data shorter than the shape says; hex words of mixed widths; an odd digit count.
[[nodiscard]] Result<ObservedBytes> parseObservedBytes(std::string_view data);
/// Reads at most kMaxObservedBytes + 1 bytes of `path` (DiagCode::Io on failure or over the limit).
[[nodiscard]] Result<ObservedBytes> readObservedFile(const std::string& path);

struct ByteDiff {
    uint64_t offset = 0; ///< from the observed region's first byte
    uint8_t observed = 0, predicted = 0;
    std::string where; ///< e.g. "row 3, byte 16 of the 128-B row" or "lane 5 column 2 byte 1"
    std::string hint;  ///< e.g. "holds element (8, 3) of A; the engine predicts (0, 3)" (index fill)
};

struct ObservedReport {
    Observation observation;
    std::string format;
    uint64_t compared = 0, differing = 0;
    std::vector<ByteDiff> first;            ///< the first differing bytes, at most maxDiffs
    std::vector<uint64_t> differingOffsets; ///< every differing offset (at most kMaxMarkedOffsets): the marks
    std::vector<Diagnostic> notes;          ///< e.g. the file is shorter or longer than the region (Warning)
};

/// differingOffsets holds at most this many offsets (a whole 228 KiB shared memory, and TMEM, fit).
inline constexpr size_t kMaxMarkedOffsets = size_t(1) << 20;

/// Compare observed bytes with the engine's final state of the run. Errors: an unknown buffer or tensor,
/// a CTA outside the cluster, a TMEM window outside 128 x 512.
[[nodiscard]] Result<ObservedReport> compareObserved(const Scenario& s, const Run& run, const Observation& o,
                                                     const ObservedBytes& bytes, size_t maxDiffs = 16);

} // namespace layoutscope
