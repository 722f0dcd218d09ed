// A decoded CUtensorMap written back out: as the scenario `tensormap` directive that encodes it
// (docs/scenario-format.md) and as a golden/tma-style `tensor_map` JSON object (cuda.h names).
#include "layoutscope/tma/tensor_map_decode.hpp"

#include <cstdio>
#include <vector>

namespace layoutscope {
namespace {

using S = std::string;
using Mode = TensorMap::Mode;

S hex(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

template <class T>
S list(const T* v, size_t count) {
    S s = "[";
    for (size_t i = 0; i < count; ++i) s += (i ? "," : "") + std::to_string(v[i]);
    return s + "]";
}

/// cuda.h name without its CU_TENSOR_MAP_<KIND>_ prefix ("128B", "L2_128B"), as scenarios spell it.
S shortName(const S& cuda, const char* prefix) {
    const S p = prefix;
    return cuda.rfind(p, 0) == 0 ? cuda.substr(p.size()) : cuda;
}

uint32_t spatialDims(const TensorMap& m) {
    return m.mode == Mode::Im2colWide ? 1 : m.p.tensorRank - 2;
}

const char* fnName(Mode mode) {
    switch (mode) {
    case Mode::Tiled:
        return "cuTensorMapEncodeTiled";
    case Mode::Im2col:
        return "cuTensorMapEncodeIm2col";
    case Mode::Im2colWide:
        return "cuTensorMapEncodeIm2colWide";
    }
    return "?";
}

bool atomSwizzle(TensorSwizzle s) {
    return s == TensorSwizzle::S128B_ATOM_32B || s == TensorSwizzle::S128B_ATOM_32B_FLIP_8B ||
           s == TensorSwizzle::S128B_ATOM_64B;
}

std::vector<S> notes(const DecodedTensorMap& d) {
    std::vector<S> out;
    if (d.im2colWideEquivalent)
        out.push_back(
            "cuTensorMapEncodeIm2colWide with the W corners and mode W or W128 writes the same bytes");
    if (d.map.mode == Mode::Im2colWide)
        out.push_back("mode W and W128 write the same bytes; the mode is not recorded in the map");
    if (d.addressByReplace)
        out.push_back(
            "globalAddress " + hex(d.map.p.globalAddress) +
            " is not aligned as encode requires for these parameters (32 bytes with INTERLEAVE_32B): "
            "cuTensorMapReplaceAddress put it there after encoding");
    if (!d.sm90)
        out.push_back("the sm_90 driver rejects this map (sub-byte type or 128B_ATOM swizzle): sm_100+ only");
    if (atomSwizzle(d.map.p.swizzle) || isSubByteType(d.map.p.dataType))
        out.push_back(
            "unverified: the bytes of sub-byte types and 128B_ATOM swizzles were never seen from a driver "
            "(docs/tensormap-layout.md §2)");
    return out;
}

S jsonString(const S& s) {
    S out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

} // namespace

S tensorMapDirective(const DecodedTensorMap& d, std::string_view name) {
    const TensorMap& m = d.map;
    const TensorMapTiledParams& p = m.p;
    const uint32_t rank = p.tensorRank;
    S out;
    for (const S& note : notes(d)) out += "# " + note + "\n";
    // A scenario encodes at its address, so a replaced address that encode refuses is rounded down.
    const uint64_t address = d.addressByReplace ? p.globalAddress & ~uint64_t(31) : p.globalAddress;
    if (d.addressByReplace) out += "# so this directive encodes at " + hex(address) + " instead\n";
    if (!d.sm90) out += "target sm_100a\n";
    const S type = shortName(cudaName(p.dataType), "CU_TENSOR_MAP_DATA_TYPE_");
    // The sub-byte names start with a digit; scenarios take them with the cuda.h prefix.
    out += "tensormap " + S(name) + " " +
           (m.mode == Mode::Tiled    ? "tiled"
            : m.mode == Mode::Im2col ? "im2col"
                                     : "im2col_wide") +
           " " + (isSubByteType(p.dataType) ? cudaName(p.dataType) : type);
    out += " dims=" + list(p.globalDim.data(), rank);
    if (rank > 1) out += " strides=" + list(p.globalStrides.data(), rank - 1);
    if (m.mode == Mode::Tiled) {
        out += " box=" + list(p.boxDim.data(), rank);
    } else {
        const uint32_t n = spatialDims(m);
        if (m.mode == Mode::Im2colWide) {
            out += " lower=" + std::to_string(m.pixelBoxLowerCorner[0]) +
                   " upper=" + std::to_string(m.pixelBoxUpperCorner[0]);
        } else {
            out += " lower=" + list(m.pixelBoxLowerCorner.data(), n) +
                   " upper=" + list(m.pixelBoxUpperCorner.data(), n);
        }
        out += " channels=" + std::to_string(m.channelsPerPixel) +
               " pixels=" + std::to_string(m.pixelsPerColumn);
        if (m.mode == Mode::Im2colWide) out += " mode=W";
    }
    bool unitStrides = true;
    for (uint32_t i = 0; i < rank; ++i) unitStrides = unitStrides && p.elementStrides[i] == 1;
    if (!unitStrides) out += " elementStrides=" + list(p.elementStrides.data(), rank);
    if (p.interleave != TensorInterleave::NONE)
        out += " interleave=" + shortName(cudaName(p.interleave), "CU_TENSOR_MAP_INTERLEAVE_");
    if (p.swizzle != TensorSwizzle::NONE)
        out += " swizzle=" + shortName(cudaName(p.swizzle), "CU_TENSOR_MAP_SWIZZLE_");
    if (p.l2Promotion != TensorL2Promotion::NONE)
        out += " l2=" + shortName(cudaName(p.l2Promotion), "CU_TENSOR_MAP_L2_PROMOTION_");
    if (p.oobFill == TensorOobFill::NAN_REQUEST_ZERO_FMA) out += " oob=nan";
    out += " address=" + hex(address);
    return out + "\n";
}

S tensorMapJson(const DecodedTensorMap& d) {
    const TensorMap& m = d.map;
    const TensorMapTiledParams& p = m.p;
    const uint32_t rank = p.tensorRank;
    S o = "{";
    auto key = [&](const char* k) { o += (o.size() > 1 ? ",\"" : "\"") + S(k) + "\":"; };
    auto enumField = [&](const char* k, const S& cuda, uint32_t value) {
        key(k);
        o += jsonString(cuda);
        key((S(k) + "Value").c_str());
        o += std::to_string(value);
    };
    key("fn");
    o += jsonString(fnName(m.mode));
    enumField("tensorDataType", cudaName(p.dataType), uint32_t(p.dataType));
    key("tensorRank");
    o += std::to_string(rank);
    key("globalDim");
    o += list(p.globalDim.data(), rank);
    key("globalStrides");
    o += list(p.globalStrides.data(), rank - 1);
    if (m.mode == Mode::Tiled) {
        key("boxDim");
        o += list(p.boxDim.data(), rank);
    } else if (m.mode == Mode::Im2col) {
        key("pixelBoxLowerCorner");
        o += list(m.pixelBoxLowerCorner.data(), spatialDims(m));
        key("pixelBoxUpperCorner");
        o += list(m.pixelBoxUpperCorner.data(), spatialDims(m));
    } else {
        key("pixelBoxLowerCornerWidth");
        o += std::to_string(m.pixelBoxLowerCorner[0]);
        key("pixelBoxUpperCornerWidth");
        o += std::to_string(m.pixelBoxUpperCorner[0]);
    }
    if (m.mode != Mode::Tiled) {
        key("channelsPerPixel");
        o += std::to_string(m.channelsPerPixel);
        key("pixelsPerColumn");
        o += std::to_string(m.pixelsPerColumn);
    }
    key("elementStrides");
    o += list(p.elementStrides.data(), rank);
    enumField("interleave", cudaName(p.interleave), uint32_t(p.interleave));
    if (m.mode == Mode::Im2colWide) enumField("mode", cudaName(TensorIm2colWideMode::W), 0);
    enumField("swizzle", cudaName(p.swizzle), uint32_t(p.swizzle));
    enumField("l2Promotion", cudaName(p.l2Promotion), uint32_t(p.l2Promotion));
    enumField("oobFill", cudaName(p.oobFill), uint32_t(p.oobFill));
    key("global_address");
    o += jsonString(hex(p.globalAddress));
    if (const auto ns = notes(d); !ns.empty()) {
        key("notes");
        o += "[";
        for (size_t i = 0; i < ns.size(); ++i) o += (i ? "," : "") + jsonString(ns[i]);
        o += "]";
    }
    return o + "}";
}

} // namespace layoutscope
