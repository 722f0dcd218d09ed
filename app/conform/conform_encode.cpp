// conform tma, category "encode": replay every cuTensorMapEncode* / cuTensorMapReplaceAddress call
// recorded on the H100 and compare CUDA_SUCCESS vs CUDA_ERROR_INVALID_VALUE with the engine's rules.
#include "conform/tma_records.hpp"

namespace layoutscope::conform {
namespace {

template <class Arr>
void fillInts(const Json& tm, const char* key, Arr& arr) {
    if (!tm.contains(key)) return;
    const Json& a = tm.at(key);
    for (size_t i = 0; i < a.size() && i < arr.size(); ++i) arr[i] = a[i].get<int32_t>();
}

std::string resultName(bool ok) {
    return ok ? "CUDA_SUCCESS" : "CUDA_ERROR_INVALID_VALUE";
}

/// "" when the engine agrees with the expected CUresult, else the first difference.
std::string compareResult(const char* call, int64_t expected, const Result<TensorMap>& got) {
    const bool expectOk = expected == 0;
    if (expectOk == got.ok()) return "";
    if (!expectOk)
        return std::string(call) + ": expected " +
               (expected == 1 ? resultName(false) : "CUresult " + std::to_string(expected)) +
               ", engine accepted";
    const Diagnostic& d = got.error();
    return std::string(call) + ": expected CUDA_SUCCESS, engine rejected: " + d.message + " [" + d.ruleRef +
           "]";
}

const char* fieldAt(size_t off) {
    if (off < 8) return "globalAddress";
    if (off < 12) return "mode/rank/elemtype/interleave/swizzle/fill/l2 word";
    if (off < 32) return "globalStrides";
    if (off < 52) return "globalDim";
    if (off < 56) return "elementStrides/boxDim[0]";
    if (off < 60) return "boxDim[1..4] or im2col corners";
    if (off < 64) return "pixelsPerColumn";
    if (off < 72) return "box bytes";
    if (off < 76) return "shared-memory alignment";
    return "reserved (zero)";
}

} // namespace

std::string compareTensorMapBytes(const std::string& expectedHex, const TensorMap& map) {
    const std::vector<uint8_t> exp = fromHex(expectedHex);
    if (exp.size() != 128) return "tensormap_hex is not 128 bytes";
    const auto got = tensorMapBytes(map);
    const auto mask = tensorMapBytesConfidentMask();
    for (size_t i = 0; i < 128; ++i)
        if (((exp[i] ^ got[i]) & mask[i]) != 0)
            return "tensormap byte " + std::to_string(i) + " (" + fieldAt(i) + "): expected " +
                   toHex(&exp[i], 1) + ", engine " + toHex(&got[i], 1);
    return "";
}

Result<TensorMap> encodeFromJson(const Json& tm, uint64_t globalAddress, uint64_t tensorMapAddress,
                                 TmaArch arch) {
    const std::string fn = tm.value("fn", "cuTensorMapEncodeTiled");
    TensorMapTiledParams base = tiledParamsFromJson(tm, globalAddress);
    base.tensorMapAddress = tensorMapAddress;
    if (fn == "cuTensorMapEncodeIm2col") {
        TensorMapIm2colParams p;
        p.base = base;
        fillInts(tm, "pixelBoxLowerCorner", p.pixelBoxLowerCorner);
        fillInts(tm, "pixelBoxUpperCorner", p.pixelBoxUpperCorner);
        p.channelsPerPixel = tm.at("channelsPerPixel").get<uint32_t>();
        p.pixelsPerColumn = tm.at("pixelsPerColumn").get<uint32_t>();
        return encodeIm2col(p, arch);
    }
    if (fn == "cuTensorMapEncodeIm2colWide") {
        TensorMapIm2colWideParams p;
        p.base = base;
        p.pixelBoxLowerCornerWidth = tm.at("pixelBoxLowerCornerWidth").get<int32_t>();
        p.pixelBoxUpperCornerWidth = tm.at("pixelBoxUpperCornerWidth").get<int32_t>();
        p.channelsPerPixel = tm.at("channelsPerPixel").get<uint32_t>();
        p.pixelsPerColumn = tm.at("pixelsPerColumn").get<uint32_t>();
        p.mode = static_cast<TensorIm2colWideMode>(tm.at("modeValue").get<uint32_t>());
        return encodeIm2colWide(p, arch);
    }
    if (fn != "cuTensorMapEncodeTiled") {
        Diagnostic d;
        d.code = DiagCode::Unsupported;
        d.message = "unknown encode function '" + fn + "'";
        return d;
    }
    return encodeTiled(base, arch);
}

CaseOutcome checkEncodeRecord(const Json& rec) {
    CaseOutcome out{rec.value("case_id", ""), true, ""};
    const Json& tm = rec.at("tensor_map");
    const uint64_t addr = parseHexAddress(rec.at("global_address").get<std::string>());
    // The output CUtensorMap* was offset from a 64-aligned buffer by tensormap_ptr_misalign bytes.
    const uint64_t mapAddr = 0x10000 + rec.value("tensormap_ptr_misalign", uint64_t(0));
    auto enc = encodeFromJson(tm, addr, mapAddr);
    const std::string fn = tm.value("fn", "cuTensorMapEncodeTiled");
    out.firstDifference = compareResult(fn.c_str(), rec.at("result_value").get<int64_t>(), enc);
    if (out.firstDifference.empty() && enc.ok() && rec.contains("tensormap_hex"))
        out.firstDifference = compareTensorMapBytes(rec.at("tensormap_hex").get<std::string>(), *enc);
    if (out.firstDifference.empty() && enc.ok() && rec.contains("replace_address")) {
        const uint64_t to = parseHexAddress(rec.at("replace_address").get<std::string>());
        auto replaced = replaceAddress(*enc, to);
        out.firstDifference = compareResult("cuTensorMapReplaceAddress",
                                            rec.at("replace_result_value").get<int64_t>(), replaced);
        if (out.firstDifference.empty() && replaced.ok() && rec.contains("tensormap_hex_after_replace"))
            out.firstDifference =
                compareTensorMapBytes(rec.at("tensormap_hex_after_replace").get<std::string>(), *replaced);
    }
    out.passed = out.firstDifference.empty();
    return out;
}

} // namespace layoutscope::conform
