#pragma once
/// Linked selection (no Qt): what the user clicked, followed through the trace's byte moves, so
/// every view can highlight the same data: its source in global memory, its shared-memory slots,
/// its Tensor Memory cells and its registers, with the hops between them for the path.
///
/// Granularity follows what each view draws: global and shared memory by byte, Tensor Memory by
/// 32-bit cell (lane<<16 | column), registers by 32-bit register (thread<<16 | register).
/// A byte moved with a transform is linked to the source byte it was made from: decompression
/// 4->8 bits reads byte k/2 of the chunk, 6->8 bits byte 6k/8 (the source bits of container k);
/// the 8->6 packing store the inverse, floor(8k/6).
#include "scene/document.hpp"

#include <array>
#include <compare>
#include <cstdint>
#include <optional>
#include <vector>

namespace layoutscope::views {

struct DataLoc {
    MemSpace space = MemSpace::None;
    uint32_t cta = 0; ///< shared memory, Tensor Memory and registers; 0 for global
    uint64_t key = 0; ///< byte address; TMEM lane<<16|column; register thread<<16|register
    friend auto operator<=>(const DataLoc&, const DataLoc&) = default;
};

/// The location of byte `byteInMove` of side `r` of a move (nullopt for fills).
[[nodiscard]] std::optional<DataLoc> locOf(const MemRef& r, uint32_t byteInMove);
/// The source byte a destination byte `k` of `m` was made from (see the header comment).
[[nodiscard]] uint32_t srcByteOf(const ByteMove& m, uint32_t k);

/// A location that holds the selected data from timeline step `since` (the scene step after the
/// move that wrote it; 0 for data that was there at the start) until `until` (overwritten).
struct LinkedLoc {
    DataLoc loc;
    uint32_t since = 0;
    uint32_t until = UINT32_MAX;
    std::optional<std::array<int32_t, 5>> coord; ///< global locations: the tensor element
    [[nodiscard]] bool aliveAt(uint32_t sceneStep) const { return since <= sceneStep && sceneStep < until; }
};

/// One move of the data: from -> to at timeline step `step` (shown from scene step step + 1).
struct Hop {
    uint32_t step = 0, instr = 0;
    DataLoc from, to;
};

struct LinkedData {
    std::vector<LinkedLoc> locs; ///< every (location, lifetime) of the data, roots first
    std::vector<Hop> hops;       ///< in trace order
    [[nodiscard]] bool empty() const { return locs.empty(); }
};

/// Follow `start` (locations as seen at scene step `step`) back to where their bytes came from,
/// then forward from there through the whole trace (every later copy, until overwritten).
/// At most `maxLocs` locations are kept (the rest is dropped; `truncated` says so).
[[nodiscard]] LinkedData linkData(const Document& doc, const std::vector<DataLoc>& start, uint32_t step,
                                  size_t maxLocs = 4096, bool* truncated = nullptr);

/// A stage of the path: the hops of one instruction between two spaces, with one representative
/// hop (the first) for drawing, and how many hops it stands for.
struct PathStage {
    uint32_t instr = 0, firstStep = 0, lastStep = 0;
    MemSpace fromSpace = MemSpace::None, toSpace = MemSpace::None;
    Hop first;
    uint32_t count = 0;
};
[[nodiscard]] std::vector<PathStage> pathStages(const LinkedData& d);

} // namespace layoutscope::views
