// cp.async.bulk.tensor im2col-family loads and .im2col_no_offs stores (PTX ISA 9.2 §9.7.9.25.5.2,
// §5.5.4, §5.5.5; restrictions §9.7.9.25.5.1). Faults are detected before anything is written, then the
// plan from tma_im2col.cpp goes through the tile executor's deliverLoad / deliverStore.
//
// Faults measured on an H100 (golden/tma README "Surprises and hazards"; tma.md §9):
//   * channel start coords[0]*elemBytes not a multiple of 16 -> cudaErrorIllegalInstruction
//   (im2col_load_0065);
//   * start pixel outside the bounding box in W, H (D assumed alike) -> cudaErrorIllegalInstruction
//     (im2col_load_0060..0064); N past the tensor is no fault (im2col_load_0063);
//   * shared address not 128-byte aligned -> cudaErrorMisalignedAddress (as tile loads).
// unverified: the order in which several faults are reported (no record combines them).
#include "layoutscope/tma/tma.hpp"
#include "tma/im2col.hpp"
#include "tma/plan.hpp"

#include <optional>
#include <string>
#include <vector>

namespace layoutscope {
namespace {

using detail::BoxPlan;

constexpr uint32_t kSmemAlign = 128; // shared::cta alignment that does not fault (README hazards)

Diagnostic diag(DiagCode code, RuleId rule, std::string msg) {
    const RuleInfo& r = ruleInfo(rule);
    return Diagnostic{Severity::Error, code, {}, std::move(msg), r.reference, r.provenance};
}

Diagnostic invalid(std::string msg, const char* ref, Provenance prov = Provenance::PtxText) {
    return Diagnostic{Severity::Error, DiagCode::InvalidValue, {}, std::move(msg), ref, prov};
}

std::string str(int64_t v) {
    return std::to_string(v);
}

const char* modeName(TmaIm2colMode m) {
    return m == TmaIm2colMode::Im2col ? ".im2col" : m == TmaIm2colMode::W ? ".im2col::w" : ".im2col::w::128";
}

// Map, rank, data type and target checks shared by loads and stores.
std::optional<Diagnostic> mapFaults(const TensorMap& map, TmaIm2colMode mode, bool store, TmaArch arch) {
    const bool wide = mode != TmaIm2colMode::Im2col;
    const TensorMap::Mode want = wide ? TensorMap::Mode::Im2colWide : TensorMap::Mode::Im2col;
    const char* name = store ? ".im2col_no_offs" : modeName(mode);
    if (map.mode != want)
        return invalid(std::string(name) + " needs a tensor map from " +
                           (wide ? "cuTensorMapEncodeIm2colWide" : "cuTensorMapEncodeIm2col"),
                       "PTX ISA 9.2 §5.5.4, §5.5.5; tma.md §2.3-2.4");
    if (wide && TensorIm2colWideMode(map.wideMode) !=
                    (mode == TmaIm2colMode::W128 ? TensorIm2colWideMode::W128 : TensorIm2colWideMode::W))
        return invalid(std::string(name) + " does not match the map's im2col-wide mode " +
                           cudaName(TensorIm2colWideMode(map.wideMode)),
                       "PTX ISA 9.2 §5.5.5; cuda.h CUtensorMapIm2ColWideMode", Provenance::Assumption);
    if (map.p.tensorRank < 3 || map.p.tensorRank > uint32_t(kMaxTensorRank))
        return invalid(std::string(name) + " needs a 3d, 4d or 5d tensor",
                       "PTX ISA 9.2 §9.7.9.25.5.2 (ptxas rejects .2d)");
    if (wide && arch == TmaArch::Sm90)
        return invalid(std::string(name) + " needs sm_100 or later (ptxas rejects it for sm_90a)",
                       "tma.md §1 (ptxas)");
    if (mode == TmaIm2colMode::W128 && arch == TmaArch::Sm120)
        return invalid(".im2col::w::128 is not supported on sm_120a",
                       "PTX ISA 9.2 §9.7.9.25.5.2; tma.md §1 (ptxas)");
    if (isSubByteType(map.p.dataType) || detail::tmaElemBytes(map) == 0)
        return Diagnostic{Severity::Error,
                          DiagCode::Unsupported,
                          {},
                          "im2col copies of tensor data type " + cudaName(map.p.dataType) +
                              " are not modelled",
                          "tma.md §7",
                          Provenance::Assumption};
    if (wide) { // PTX §5.5.5 / §5.5.6: no interleave; a swizzle must be set and not 128B_ATOM_32B_FLIP_8B
        if (map.p.interleave != TensorInterleave::NONE)
            return invalid(std::string(name) + " does not support interleaved layouts", "PTX ISA 9.2 §5.5.6");
        if (map.p.swizzle == TensorSwizzle::NONE || map.p.swizzle == TensorSwizzle::S128B_ATOM_32B_FLIP_8B)
            return invalid(std::string(name) +
                               " needs a swizzle mode other than NONE and 128B_ATOM_32B_FLIP_8B, not " +
                               cudaName(map.p.swizzle),
                           "PTX ISA 9.2 §5.5.5, §9.7.9.25.5.1");
    }
    return std::nullopt;
}

std::optional<Diagnostic> channelAlign(const TensorMap& map, int32_t c0) {
    // Interleaved maps count dimension 0 in slices: any start is aligned (docs/interleave.md probes I8, J6).
    const int64_t eb = detail::tmaElemBytes(map);
    if (map.p.interleave == TensorInterleave::NONE && (int64_t(c0) * eb) % 16 != 0)
        return diag(DiagCode::FaultIllegalInstruction, RuleId::TmaFaultInnerCoordAlign,
                    "channel start " + str(c0) + " x " + str(eb) +
                        " B is not a multiple of 16 bytes (cudaErrorIllegalInstruction; im2col_load_0065)");
    return std::nullopt;
}

std::optional<Diagnostic> smemAlign(uint32_t addr) {
    if (addr % kSmemAlign == 0) return std::nullopt;
    return diag(DiagCode::FaultMisalignedAddress, RuleId::TmaFaultSmemAlign,
                "shared address " + str(addr) + " is not 128-byte aligned (cudaErrorMisalignedAddress)");
}

// The start pixel (the filter base) must lie inside the bounding box (PTX §5.5.4.1; measured for W and H).
std::optional<Diagnostic> boxFault(const TensorMap& map, const std::array<int32_t, 5>& coords) {
    const uint32_t rank = map.p.tensorRank;
    // unverified: for interleaved maps the check follows the shifted walk (corner i on dimension i), as
    // the encode rule does; every interleaved probe started inside that box.
    const uint32_t shift = map.p.interleave == TensorInterleave::NONE ? 1 : 0;
    static const char* kNames[] = {"W", "H", "D"};
    for (uint32_t s = 0; s + 2 < rank; ++s) {
        const detail::WalkRange r = detail::im2colRange(map, s, s + shift);
        const int64_t v = coords[s + shift];
        if (v < r.lo || v > r.hi)
            return diag(DiagCode::FaultIllegalInstruction, RuleId::TmaFaultIm2colBox,
                        std::string("start ") + (shift ? kNames[s] : "coordinate") + " = " + str(v) +
                            " (tensor dimension " + str(s + shift) + ") is outside the bounding box [" +
                            str(r.lo) + ", " + str(r.hi) + "] (cudaErrorIllegalInstruction)");
    }
    return std::nullopt;
}

std::optional<Diagnostic> offsetFaults(const TmaIm2colLoad& op) {
    // .im2col offsets beyond the PTX ranges run on sm_90 (probes L5-L8): im2colEffectiveOffsets applies them.
    if (op.mode == TmaIm2colMode::Im2col) return std::nullopt;
    const uint32_t haloLimit = op.mode == TmaIm2colMode::W ? 512 : 32; // seed 003
    if (op.wHalo >= haloLimit)
        return diag(DiagCode::InvalidValue, RuleId::TmaIm2colOffsetRange,
                    "wHalo = " + str(op.wHalo) + " is outside [0, " + str(haloLimit) + ") for " +
                        modeName(op.mode));
    if (op.wOffset >= 32)
        return diag(DiagCode::InvalidValue, RuleId::TmaIm2colOffsetRange,
                    "wOffset = " + str(op.wOffset) + " is outside [0, 32)");
    return std::nullopt;
}

std::optional<Diagnostic> wideBoxFault(const TensorMap& map, const std::array<int32_t, 5>& coords) {
    // PTX §5.5.5.1: the first element may lie outside the box only in W and only left of it.
    const detail::WalkRange r = detail::im2colRange(map, 0, 1);
    if (coords[1] > r.hi)
        return diag(DiagCode::FaultIllegalInstruction, RuleId::TmaIm2colWide,
                    "start W = " + str(coords[1]) + " lies right of the bounding box (upper end " +
                        str(r.hi) + "); only the left side is allowed");
    return std::nullopt;
}

RuleId placement(const TensorMap& map, TmaIm2colMode mode) {
    if (mode != TmaIm2colMode::Im2col) return RuleId::TmaIm2colWide;
    if (map.p.interleave != TensorInterleave::NONE) return RuleId::TmaIm2colInterleave;
    return map.p.swizzle == TensorSwizzle::NONE ? RuleId::TmaIm2colWalk
                                                : RuleId::None; // None: the swizzle rule
}

} // namespace

Status executeTmaIm2colLoad(const TmaIm2colLoad& op, MachineState& state, TraceBuilder& trace) {
    const TmaTileLoad& ld = op.load;
    const TensorMap& map = ld.map;
    std::vector<uint8_t> dests;
    if (auto f = detail::loadDestinations(ld, state, dests)) return *f;
    if (auto f = mapFaults(map, op.mode, false, ld.arch)) return *f;
    if (auto f = offsetFaults(op)) return *f;
    if (auto f = channelAlign(map, ld.coords[0])) return *f;
    if (auto f = op.mode == TmaIm2colMode::Im2col ? boxFault(map, ld.coords) : wideBoxFault(map, ld.coords))
        return *f;
    if (auto f = detail::targetSwizzleFaults(map, ld.arch, ld.clusterDst)) return *f;
    if (auto f = smemAlign(ld.dstAddr)) return *f;
    if (dests.empty()) return okStatus(); // mask 0: silent no-op (README hazards)

    BoxPlan plan;
    if (op.mode != TmaIm2colMode::Im2col)
        plan = detail::im2colWideBoxPlan(map, ld.coords, op.mode, op.wHalo, op.wOffset);
    else if (map.p.interleave != TensorInterleave::NONE)
        plan = detail::im2colInterleavedBoxPlan(map, ld.coords,
                                                detail::im2colEffectiveOffsets(map.p.tensorRank, op.offsets));
    else
        plan = detail::im2colBoxPlan(map, ld.coords,
                                     detail::im2colEffectiveOffsets(map.p.tensorRank, op.offsets), false);
    return detail::deliverLoad(ld, plan, dests, state, trace, placement(map, op.mode));
}

// PTX says no more than "store counterpart of im2col without offsets" plus the restriction that the box
// lie inside the tensor (lower corners >= 0, upper corners <= 0). Measured on the H100 (docs/im2col.md §4,
// probes S1-S13, open question 18 settled for sm_90): the store reads pixelsPerColumn rows from shared
// memory (the load image) and writes them along the .im2col walk; pixels outside the tensor are skipped;
// channels past C are written up to the 16-byte granule that holds C (S11, as tile stores); a box
// reaching outside the tensor, a start outside the box or a negative coordinate faults.
Status executeTmaIm2colStore(const TmaIm2colStore& op, MachineState& state, TraceBuilder& trace) {
    const TmaTileStore& st = op.store;
    const TensorMap& map = st.map;
    if (st.srcCta >= state.clusterSize)
        return invalid("CTA rank outside the cluster of " + str(state.clusterSize), "tma.md §11");
    if (auto f = mapFaults(map, TmaIm2colMode::Im2col, true, st.arch)) return *f;
    for (uint32_t s = 0; s + 2 < map.p.tensorRank; ++s)
        if (map.pixelBoxLowerCorner[s] < 0 || map.pixelBoxUpperCorner[s] > 0)
            return diag(
                DiagCode::FaultIllegalInstruction, RuleId::TmaIm2colNoOffsStore,
                "an .im2col_no_offs store needs the bounding box inside the tensor: pixelBoxLowerCorner[" +
                    str(s) + "] = " + str(map.pixelBoxLowerCorner[s]) +
                    " must be >= 0 and pixelBoxUpperCorner[" + str(s) +
                    "] = " + str(map.pixelBoxUpperCorner[s]) +
                    " <= 0 (PTX restriction, seed 004; cudaErrorIllegalInstruction on the H100, probes S2, "
                    "S10)");
    for (uint32_t i = 0; i < map.p.tensorRank; ++i)
        if (st.coords[i] < 0)
            return diag(DiagCode::FaultIllegalInstruction, RuleId::TmaFaultStoreNegative,
                        "store coordinate " + str(i) + " is " + str(st.coords[i]) +
                            "; stores fault on any negative coordinate (cudaErrorIllegalInstruction)");
    if (auto f = channelAlign(map, st.coords[0])) return *f;
    if (auto f = boxFault(map, st.coords)) return *f;
    if (auto f = detail::swizzle96BFaults(map, st.arch)) return *f; // PTX-only 96B: sm_103
    if (auto f = smemAlign(st.srcAddr)) return *f;
    // Interleaved maps store the interleaved load walk in reverse (probes N1-N4).
    const BoxPlan plan = map.p.interleave != TensorInterleave::NONE
                             ? detail::im2colInterleavedBoxPlan(map, st.coords, {})
                             : detail::im2colBoxPlan(map, st.coords, {}, true);
    return detail::deliverStore(st, plan, state, trace, RuleId::TmaIm2colNoOffsStore);
}

} // namespace layoutscope
