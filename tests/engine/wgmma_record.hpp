#pragma once
// One record of the wgmma operand probe (scripts/probes/wgmma/README.md) as the engine's descriptor: the
// sm_90 layout types 0/1/2/3 (none/128B/64B/32B, bits [62,64)) are the sm_100 types 0/2/4/6 (bits [61,64));
// `start` is relative to a 1024-B aligned region; `base_offset` (bits [49,52)) is 0 when not recorded.
#include "layoutscope/tcgen05/smem_descriptor.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace layoutscope::test {

inline SmemDescriptor wgmmaRecordDescriptor(const nlohmann::json& j) {
    static constexpr uint32_t kSm100Type[4] = {0, 2, 4, 6};
    SmemDescriptor d;
    d.startAddress = j.at("start").get<uint32_t>();
    d.lbo = j.at("lbo").get<uint32_t>();
    d.sbo = j.at("sbo").get<uint32_t>();
    d.layoutType = kSm100Type[j.at("layout_type").get<uint32_t>() & 3];
    d.baseOffset = j.value("base_offset", 0u);
    return d;
}

inline MatrixMajor wgmmaRecordMajor(const nlohmann::json& j) {
    return j.at("major").get<std::string>() == "K" ? MatrixMajor::K : MatrixMajor::MN;
}

} // namespace layoutscope::test
