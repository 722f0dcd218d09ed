// decodeTensorMap: the 128-byte CUtensorMap -> encode parameters, the inverse of tensorMapBytes()
// (tensor_map_bytes.cpp). Every field is read back from the bits the encoder writes; every other bit
// must be zero; then the parameters are re-encoded and the bytes compared, so what is accepted is
// exactly what some cuTensorMapEncode* call (followed by cuTensorMapReplaceAddress) can write.
// Layout and its evidence: docs/tensormap-layout.md §2. Word = little-endian 32 bits at a byte offset.
#include "layoutscope/tma/tensor_map_decode.hpp"

#include <cstdio>
#include <optional>
#include <vector>

namespace layoutscope {
namespace {

using S = std::string;
constexpr const char* kLayoutRef =
    "docs/tensormap-layout.md §2: the bytes cuTensorMapEncode* writes (CUDA 13)";

uint32_t get32(const TensorMapImage& b, size_t off) {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= uint32_t(b[off + i]) << (8 * i);
    return v;
}
uint64_t get64(const TensorMapImage& b, size_t off) {
    return uint64_t(get32(b, off)) | (uint64_t(get32(b, off + 4)) << 32);
}
S hex(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}
S n(uint64_t v) {
    return std::to_string(v);
}
S range(size_t off, size_t len) {
    return "bytes [" + n(off) + "," + n(off + len) + ")";
}
S bits(uint32_t lo, uint32_t hi) {
    return hi == lo + 1 ? "bit " + n(lo) : "bits [" + n(lo) + "," + n(hi) + ")";
}
uint32_t field(uint32_t w, uint32_t lo, uint32_t hi) {
    return hi - lo == 32 ? w : (w >> lo) & ((1u << (hi - lo)) - 1);
}
int32_t signExtend(uint32_t v, uint32_t width) {
    return int32_t(v << (32 - width)) >> (32 - width);
}

/// Which parameter a byte of the image holds (for "byte N (field) differs").
S fieldAt(size_t byte) {
    if (byte < 8) return "globalAddress";
    if (byte < 12) return "the mode/rank/type/interleave/swizzle/fill/l2 word";
    if (byte < 28) return "globalStrides[" + n((byte - 12) / 4) + "] >> 4";
    if (byte < 32) return "the globalStrides high bits";
    if (byte < 52) return "globalDim[" + n((byte - 32) / 4) + "] - 1";
    if (byte < 56) return "elementStrides and boxDim[0] / channelsPerPixel";
    if (byte < 60) return "boxDim[1..4] or the im2col corners";
    if (byte < 64) return "pixelsPerColumn - 1";
    if (byte < 72) return "the box size in bytes";
    if (byte < 76) return "the shared-memory alignment";
    return "reserved (zero)";
}

/// CUtensorMapDataType from the PTX .elemtype numbering (bits [7,11)) and the TF32 bit (bit 16).
std::optional<TensorDataType> dataTypeOf(uint32_t elemType, bool tf32) {
    if (tf32) {
        if (elemType == 7) return TensorDataType::TFLOAT32;
        if (elemType == 8) return TensorDataType::TFLOAT32_FTZ;
        return std::nullopt;
    }
    switch (elemType) {
    case 8:
        return TensorDataType::FLOAT32_FTZ;
    case 9:
        return TensorDataType::FLOAT64;
    case 10:
        return TensorDataType::BFLOAT16;
    case 11:
    case 12:
        return std::nullopt; // .tf32 / .tf32.ftz: the encoder writes 7 / 8 plus bit 16 instead
    default:
        return TensorDataType(elemType);
    }
}

/// CUtensorMapSwizzle from the 2-bit mode (bits [13,15)) and the alignment word (bytes [72,76)):
/// the 128B_ATOM_* modes are written as their value & 3 with the 1024-byte alignment of a 128-byte span.
std::optional<TensorSwizzle> swizzleOf(uint32_t mode, uint32_t align) {
    if (align == 16 && mode == 0) return TensorSwizzle::NONE;
    if (align == 256 && mode == 1) return TensorSwizzle::S32B;
    if (align == 512 && mode == 2) return TensorSwizzle::S64B;
    if (align == 1024) {
        static constexpr TensorSwizzle k1024[] = {TensorSwizzle::S128B_ATOM_32B,
                                                  TensorSwizzle::S128B_ATOM_32B_FLIP_8B,
                                                  TensorSwizzle::S128B_ATOM_64B, TensorSwizzle::S128B};
        return k1024[mode & 3];
    }
    return std::nullopt;
}

struct Reader {
    const TensorMapImage& b;
    std::vector<Diagnostic> diags;

    void error(S message, Provenance prov = Provenance::CudaDriver) {
        Diagnostic d;
        d.code = DiagCode::InvalidValue;
        d.message = std::move(message);
        d.ruleRef = kLayoutRef;
        d.provenance = prov;
        diags.push_back(std::move(d));
    }
    /// Bits [lo,hi) of the word at `off` must be zero (`why`: what the encoder writes there).
    void reserved(size_t off, uint32_t lo, uint32_t hi, const S& why) {
        if (const uint32_t v = field(get32(b, off), lo, hi))
            error(range(off, 4) + " " + bits(lo, hi) + " = " + hex(v) + ", but no encode sets them (" + why +
                  ")");
    }
};

/// The encode parameters read from the bytes, before the re-encode check.
struct Fields {
    TensorMap map;
    uint64_t address = 0;
};

std::optional<Fields> readFields(Reader& r) {
    const TensorMapImage& b = r.b;
    Fields f;
    TensorMapTiledParams& p = f.map.p;
    const uint32_t w = get32(b, 8);
    r.reserved(8, 1, 4, "only bit 0, im2col, is used below bit 4");
    r.reserved(8, 19, 32, "the word's last field, l2Promotion, ends at bit 19");
    const bool im = w & 1u;
    const uint32_t rank = field(w, 4, 7) + 1;
    if (rank > uint32_t(kMaxTensorRank)) {
        r.error(range(8, 4) + " bits [4,7) hold tensorRank - 1 = " + n(rank - 1) + ": tensorRank " + n(rank) +
                " is more than 5, which no encode accepts");
        return std::nullopt;
    }
    if (im && rank < 3)
        r.error(range(8, 4) + " bit 0 marks an im2col map, but bits [4,7) give tensorRank " + n(rank) +
                " (im2col needs 3..5)");
    p.tensorRank = rank;
    f.map.mode = im ? TensorMap::Mode::Im2col : TensorMap::Mode::Tiled;
    const uint32_t elemType = field(w, 7, 11);
    const bool tf32 = field(w, 16, 17);
    if (auto t = dataTypeOf(elemType, tf32))
        p.dataType = *t;
    else if (tf32)
        r.error(range(8, 4) + " bit 16 (TF32) is set with element type " + n(elemType) +
                " in bits [7,11); the encoder sets it only with 7 (TFLOAT32) or 8 (TFLOAT32_FTZ)");
    else
        r.error(range(8, 4) + " bits [7,11) hold element type " + n(elemType) +
                ", which no encode writes (TFLOAT32 / TFLOAT32_FTZ are stored as 7 / 8 with bit 16 set)");
    if (const uint32_t il = field(w, 11, 13); il <= 2)
        p.interleave = TensorInterleave(il);
    else
        r.error(range(8, 4) + " bits [11,13) hold interleave 3, which is not a CUtensorMapInterleave value");
    const uint32_t align = get32(b, 72);
    if (auto s = swizzleOf(field(w, 13, 15), align))
        p.swizzle = *s;
    else
        r.error(range(8, 4) + " bits [13,15) hold swizzle mode " + n(field(w, 13, 15)) + " but " +
                range(72, 4) + " hold shared-memory alignment " + n(align) +
                "; the encoder writes 0/16 (NONE), 1/256 (32B), 2/512 (64B), 3/1024 (128B) or 0..2/1024 "
                "(128B_ATOM_*)");
    p.oobFill = TensorOobFill(field(w, 15, 16));
    p.l2Promotion = TensorL2Promotion(field(w, 17, 19));

    // bytes [12,28): globalStrides[i] >> 4 (bits [4,36)); bytes [28,32): bits [36,40) in nibble i.
    const uint32_t high = get32(b, 28);
    for (uint32_t i = 0; i < 4; ++i) {
        const uint32_t low = get32(b, 12 + 4 * i), nib = field(high, 4 * i, 4 * i + 4);
        if (i + 1 < rank)
            p.globalStrides[i] = ((uint64_t(nib) << 32) | low) << 4;
        else if (low || nib)
            r.error(range(12 + 4 * i, 4) + " and " + range(28, 4) + " " + bits(4 * i, 4 * i + 4) +
                    " hold globalStrides[" + n(i) + "] = " + hex(((uint64_t(nib) << 32) | low) << 4) +
                    ", but a rank-" + n(rank) + " map has " + n(rank - 1) +
                    " strides (unused strides are zero)");
    }
    r.reserved(28, 16, 32, "the four stride high nibbles end at bit 16");
    for (uint32_t i = 0; i < uint32_t(kMaxTensorRank); ++i) {
        const uint32_t d = get32(b, 32 + 4 * i);
        if (i < rank)
            p.globalDim[i] = uint64_t(d) + 1;
        else if (d)
            r.error(range(32 + 4 * i, 4) + " hold globalDim[" + n(i) + "] - 1 = " + n(d) +
                    ", but the map has rank " + n(rank) + " (unused dimensions are zero)");
    }
    // bytes [52,56): elementStrides[i] - 1 in bits [3i,3i+3); boxDim[0] or channelsPerPixel - 1 in [24,32).
    const uint32_t es = get32(b, 52);
    for (uint32_t i = 0; i < rank; ++i) p.elementStrides[i] = field(es, 3 * i, 3 * i + 3) + 1;
    r.reserved(52, 3 * rank, 24, "elementStrides of a rank-" + n(rank) + " map end at bit " + n(3 * rank));
    const uint32_t inner = field(es, 24, 32) + 1;
    const uint32_t word60 = get32(b, 60);
    if (!im) {
        p.boxDim[0] = inner;
        for (uint32_t i = 1; i < 5; ++i) {
            if (i < rank)
                p.boxDim[i] = uint32_t(b[55 + i]) + 1;
            else if (b[55 + i])
                r.error("byte " + n(55 + i) + " holds boxDim[" + n(i) + "] - 1 = " + n(b[55 + i]) +
                        ", but the map has rank " + n(rank) + " (unused box dimensions are zero)");
        }
        if (word60)
            r.error(range(60, 4) + " = " + hex(word60) +
                    " (pixelsPerColumn - 1), but bit 0 of byte 8 marks a tiled map");
    } else if (rank >= 3) {
        // bytes [56,60): lower corners in bits [0,16), upper in [16,32); rank-2 signed fields of 16/(rank-2)
        // bits.
        const uint32_t spatial = rank - 2, width = 16 / spatial, c = get32(b, 56);
        f.map.channelsPerPixel = inner;
        for (uint32_t d = 0; d < spatial; ++d) {
            f.map.pixelBoxLowerCorner[d] = signExtend(field(c, width * d, width * (d + 1)), width);
            f.map.pixelBoxUpperCorner[d] = signExtend(field(c, 16 + width * d, 16 + width * (d + 1)), width);
        }
        if (width * spatial < 16) {
            r.reserved(56, width * spatial, 16, "a rank-5 map packs three 5-bit lower corners");
            r.reserved(56, 16 + width * spatial, 32, "a rank-5 map packs three 5-bit upper corners");
        }
        if (word60 >= 1024)
            r.error(range(60, 4) + " hold pixelsPerColumn - 1 = " + n(word60) + "; pixelsPerColumn " +
                    n(uint64_t(word60) + 1) + " is more than 1024, which no encode accepts");
        f.map.pixelsPerColumn = word60 + 1;
    }
    for (size_t i = 76; i < 128; ++i)
        if (b[i]) {
            r.error("byte " + n(i) + " = " + hex(b[i]) + ", but " + range(76, 52) +
                    " are zero in every encode");
            break;
        }
    f.address = get64(b, 0);
    if (f.address % 16)
        r.error(range(0, 8) + " hold globalAddress " + hex(f.address) + ", which is " + n(f.address % 16) +
                " bytes past a 16-byte boundary; every encode requires 16-byte alignment");
    if (!r.diags.empty()) return std::nullopt;
    return f;
}

/// Re-wrap an encoder rejection: the bytes name parameters that `fn` rejects.
std::vector<Diagnostic> rejected(const std::vector<Diagnostic>& ds, const char* fn) {
    std::vector<Diagnostic> out = ds;
    for (Diagnostic& d : out)
        d.message = S("the bytes decode to parameters that ") + fn + " rejects: " + d.message;
    return out;
}

/// Run the encoder that `m.mode` names on the parameters held in `m`.
Result<TensorMap> encodeAs(const TensorMap& m, TmaArch arch) {
    switch (m.mode) {
    case TensorMap::Mode::Tiled:
        return encodeTiled(m.p, arch);
    case TensorMap::Mode::Im2col:
        return encodeIm2col(
            {m.p, m.pixelBoxLowerCorner, m.pixelBoxUpperCorner, m.channelsPerPixel, m.pixelsPerColumn}, arch);
    case TensorMap::Mode::Im2colWide:
        return encodeIm2colWide({m.p, m.pixelBoxLowerCorner[0], m.pixelBoxUpperCorner[0], m.channelsPerPixel,
                                 m.pixelsPerColumn, TensorIm2colWideMode::W},
                                arch);
    }
    return encodeTiled(m.p, arch);
}

} // namespace

Result<DecodedTensorMap> decodeTensorMap(const TensorMapImage& bytes) {
    Reader r{bytes, {}};
    auto f = readFields(r);
    if (!f) return r.diags;
    const TensorMap& m = f->map; // at globalAddress 0 (encode accepts null; the address comes last)
    // Im2colWide writes only the W corners: the same bytes as im2col with zero H and D corners.
    std::optional<TensorMap> wide;
    if (m.mode == TensorMap::Mode::Im2col && !m.pixelBoxLowerCorner[1] && !m.pixelBoxUpperCorner[1] &&
        !m.pixelBoxLowerCorner[2] && !m.pixelBoxUpperCorner[2]) {
        wide = m;
        wide->mode = TensorMap::Mode::Im2colWide;
    }
    DecodedTensorMap out;
    auto enc = encodeAs(m, TmaArch::Sm100);
    const bool wideOk = wide && encodeAs(*wide, TmaArch::Sm100).ok();
    if (enc) {
        out.map = *enc;
        out.im2colWideEquivalent = wideOk;
    } else if (wideOk) {
        out.map = *encodeAs(*wide, TmaArch::Sm100);
    } else {
        return rejected(enc.diagnostics(), m.mode == TensorMap::Mode::Tiled ? "cuTensorMapEncodeTiled"
                                                                            : "cuTensorMapEncodeIm2col");
    }
    out.sm90 = encodeAs(out.map, TmaArch::Sm90).ok();
    if (f->address) { // encoded at null (always accepted), then re-pointed
        auto moved = replaceAddress(out.map, f->address, TmaArch::Sm100);
        if (!moved) return rejected(moved.diagnostics(), "cuTensorMapReplaceAddress");
        out.map = *moved;
        out.addressByReplace = !encodeAs(out.map, TmaArch::Sm100).ok();
    }
    const TensorMapImage again = tensorMapBytes(out.map);
    for (size_t i = 0; i < again.size(); ++i) {
        if (again[i] == bytes[i]) continue;
        const size_t word = i - i % 4;
        Reader r2{bytes, {}};
        r2.error("byte " + n(i) + " (" + fieldAt(i) + ") = " + hex(bytes[i]) +
                 ", but the parameters read from the " + "other fields encode it as " + hex(again[i]) + " (" +
                 range(word, 4) + ": " + hex(get32(bytes, word)) + " vs " + hex(get32(again, word)) + ")");
        return r2.diags;
    }
    return out;
}

Result<TensorMapImage> tensorMapFromBinary(std::string_view data) {
    if (data.size() != 128) {
        Diagnostic d;
        d.code = DiagCode::InvalidValue;
        d.message = "a CUtensorMap is 128 bytes, this blob has " + n(data.size()) +
                    (data.size() < 128 ? " (truncated?)" : " (more than one map, or not a map?)");
        d.ruleRef = "cuda.h: CUtensorMap is 64-byte aligned, 128 bytes (CU_TENSOR_MAP_NUM_QWORDS 16)";
        d.provenance = Provenance::CudaHeader;
        return d;
    }
    TensorMapImage b;
    for (size_t i = 0; i < 128; ++i) b[i] = uint8_t(data[i]);
    return b;
}

} // namespace layoutscope
