#include "conform/conform.hpp"
#include "conform/tma_records.hpp"

namespace layoutscope::conform {

uint64_t parseHexAddress(const std::string& s) {
    return std::stoull(s, nullptr, 16); // accepts an optional 0x prefix
}

TensorMapTiledParams tiledParamsFromJson(const Json& tm, uint64_t globalAddress) {
    TensorMapTiledParams p;
    p.dataType = static_cast<TensorDataType>(tm.at("tensorDataTypeValue").get<uint32_t>());
    p.tensorRank = tm.at("tensorRank").get<uint32_t>();
    p.globalAddress = globalAddress;
    auto fill = [](const Json& a, auto& arr) {
        for (size_t i = 0; i < a.size() && i < arr.size(); ++i)
            arr[i] = a[i].get<std::remove_reference_t<decltype(arr[0])>>();
    };
    fill(tm.at("globalDim"), p.globalDim);
    if (tm.contains("globalStrides")) fill(tm.at("globalStrides"), p.globalStrides);
    if (tm.contains("boxDim")) fill(tm.at("boxDim"), p.boxDim);
    if (tm.contains("elementStrides")) fill(tm.at("elementStrides"), p.elementStrides);
    p.interleave = static_cast<TensorInterleave>(tm.at("interleaveValue").get<uint32_t>());
    p.swizzle = static_cast<TensorSwizzle>(tm.at("swizzleValue").get<uint32_t>());
    p.l2Promotion = static_cast<TensorL2Promotion>(tm.at("l2PromotionValue").get<uint32_t>());
    p.oobFill = static_cast<TensorOobFill>(tm.at("oobFillValue").get<uint32_t>());
    return p;
}

Result<std::vector<CaseOutcome>> conformTma(const std::string& path) {
    auto lines = readJsonLines(path);
    if (!lines) return lines.diagnostics();
    std::vector<CaseOutcome> out;
    out.reserve(lines->size());
    for (size_t i = 0; i < lines->size(); ++i) {
        Json rec = Json::parse((*lines)[i], nullptr, /*allow_exceptions=*/false);
        if (rec.is_discarded() || !rec.is_object()) {
            out.push_back({path + ":" + std::to_string(i + 1), false, "line is not a JSON object"});
            continue;
        }
        const std::string id = rec.value("case_id", "line " + std::to_string(i + 1));
        const std::string cat = rec.value("category", "");
        try {
            if (cat == "encode")
                out.push_back(checkEncodeRecord(rec));
            else if (cat == "tile_load" || cat == "multicast_load" || cat == "im2col_load")
                out.push_back(checkTileLoadRecord(rec));
            else if (cat == "store")
                out.push_back(checkStoreRecord(rec));
            else
                out.push_back({id, false, "category '" + cat + "' is not modelled yet"});
        } catch (const std::exception& e) {
            out.push_back({id, false, std::string("malformed record: ") + e.what()});
        }
    }
    return out;
}

} // namespace layoutscope::conform
