// tcgen05.cp forms, row -> lane maps and decompression bit placement
// (PTX ISA 9.2 §9.7.16.9; tcgen05.md §5; golden/cute utccp.json).
#include "layoutscope/tcgen05/tcgen05.hpp"
#include "layoutscope/tcgen05/tmem.hpp"

#include <cctype>
#include <string>

namespace layoutscope {
namespace {

Diagnostic syntaxDiag(std::string msg) {
    const RuleInfo& r = ruleInfo(RuleId::PtxSyntax);
    return Diagnostic{Severity::Error, DiagCode::Syntax, {}, std::move(msg), r.reference, r.provenance};
}

} // namespace

const char* cpShapeName(CpShape s) {
    switch (s) {
    case CpShape::k128x256b:
        return "128x256b";
    case CpShape::k4x256b:
        return "4x256b";
    case CpShape::k128x128b:
        return "128x128b";
    case CpShape::k64x128b:
        return "64x128b";
    case CpShape::k32x128b:
        return "32x128b";
    }
    return "?";
}

Result<CpForm> parseCp(std::string_view ptx) {
    size_t i = 0;
    while (i < ptx.size() && std::isspace(static_cast<unsigned char>(ptx[i]))) ++i;
    size_t j = i;
    while (j < ptx.size() && !std::isspace(static_cast<unsigned char>(ptx[j])) && ptx[j] != ';') ++j;
    std::vector<std::string> t;
    std::string cur;
    for (char c : ptx.substr(i, j - i)) {
        if (c == '.')
            t.push_back(cur), cur.clear();
        else
            cur += c;
    }
    t.push_back(cur);
    if (t.size() < 3 || t[0] != "tcgen05" || t[1] != "cp") return syntaxDiag("expected tcgen05.cp");
    CpForm f;
    bool haveShape = false, haveGroup = false, haveDst = false;
    for (size_t k = 2; k < t.size(); ++k) {
        const std::string& q = t[k];
        if (q == "cta_group::1" || q == "cta_group::2")
            f.ctaGroup = q.back() - '0', haveGroup = true;
        else if (q == "128x256b")
            f.shape = CpShape::k128x256b, haveShape = true;
        else if (q == "4x256b")
            f.shape = CpShape::k4x256b, haveShape = true;
        else if (q == "128x128b")
            f.shape = CpShape::k128x128b, haveShape = true;
        else if (q == "64x128b")
            f.shape = CpShape::k64x128b, haveShape = true;
        else if (q == "32x128b")
            f.shape = CpShape::k32x128b, haveShape = true;
        else if (q == "warpx2::02_13")
            f.multicast = CpMulticast::Warpx2_02_13;
        else if (q == "warpx2::01_23")
            f.multicast = CpMulticast::Warpx2_01_23;
        else if (q == "warpx4")
            f.multicast = CpMulticast::Warpx4;
        else if (q == "b8x16")
            haveDst = true;
        else if (q == "b6x16_p32" || q == "b4x16_p64") {
            if (!haveDst) return syntaxDiag(".dst_fmt .b8x16 must come before ." + q);
            f.decompress = q == "b6x16_p32" ? CpDecompress::B8x16_B6x16_p32 : CpDecompress::B8x16_B4x16_p64;
        } else
            return syntaxDiag("unexpected qualifier ." + q + " in tcgen05.cp");
    }
    if (!haveGroup) return syntaxDiag("missing .cta_group::1 or .cta_group::2");
    if (!haveShape) return syntaxDiag("missing .shape (128x256b, 4x256b, 128x128b, 64x128b or 32x128b)");
    if (haveDst && f.decompress == CpDecompress::None) return syntaxDiag(".b8x16 needs a .src_fmt");
    const bool needX2 = f.shape == CpShape::k64x128b, needX4 = f.shape == CpShape::k32x128b;
    const bool isX2 = f.multicast == CpMulticast::Warpx2_02_13 || f.multicast == CpMulticast::Warpx2_01_23;
    const bool isX4 = f.multicast == CpMulticast::Warpx4;
    if (needX2 != isX2 || needX4 != isX4)
        return tcgen05Diagnostic(Severity::Error, RuleId::Tcgen05CpRowMap,
                                 std::string(".") + cpShapeName(f.shape) +
                                     (needX2   ? " requires .warpx2::02_13 or .warpx2::01_23"
                                      : needX4 ? " requires .warpx4"
                                               : " takes no .warpx2/.warpx4 qualifier"));
    return f;
}

uint32_t cpSourceRows(CpShape s) {
    switch (s) {
    case CpShape::k128x256b:
        return 128;
    case CpShape::k4x256b:
        return 4;
    case CpShape::k128x128b:
        return 128;
    case CpShape::k64x128b:
        return 64;
    case CpShape::k32x128b:
        return 32;
    }
    return 0;
}

uint32_t cpRowBytes(CpShape s) {
    return s == CpShape::k128x256b || s == CpShape::k4x256b ? 32 : 16;
}

uint32_t cpRowLanesInto(const CpForm& f, uint32_t r, std::array<uint32_t, 4>& out) {
    switch (f.shape) {
    case CpShape::k128x256b:
    case CpShape::k128x128b:
        out[0] = r;
        return 1;
    case CpShape::k4x256b:
        out[0] = 32 * r; // unverified: open question 2 (CuTe layout, not its comment)
        return 1;
    case CpShape::k32x128b:
        out = {r, r + 32, r + 64, r + 96};
        return 4;
    case CpShape::k64x128b:
        // unverified: open question 20 — CuTe: both warps of a pair receive the same 32-row half.
        if (f.multicast == CpMulticast::Warpx2_02_13) {
            out[0] = r, out[1] = r + 64;
        } else {
            out[0] = 64 * (r / 32) + r % 32, out[1] = 64 * (r / 32) + r % 32 + 32;
        }
        return 2;
    }
    return 0;
}

std::vector<uint32_t> cpRowLanes(const CpForm& f, uint32_t r) {
    std::array<uint32_t, 4> lanes{};
    const uint32_t n = cpRowLanesInto(f, r, lanes);
    return std::vector<uint32_t>(lanes.begin(), lanes.begin() + n);
}

int decompressSourceBit(CpDecompress d, uint32_t e, uint32_t k) {
    switch (d) {
    case CpDecompress::None:
        return static_cast<int>(8 * e + k);
    case CpDecompress::B8x16_B4x16_p64: // unverified: open question 3 — value in bits [5:2]
        return (k >= 2 && k < 6) ? static_cast<int>(4 * e + (k - 2)) : -1;
    case CpDecompress::B8x16_B6x16_p32: // unverified: open question 3 — value in bits [5:0]
        return k < 6 ? static_cast<int>(6 * e + k) : -1;
    }
    return -1;
}

std::array<uint8_t, 16> decompressChunk(CpDecompress d, const std::array<uint8_t, 16>& src) {
    // The bit walk of decompressSourceBit in closed form (tcgen05_cp_test.cpp checks the two agree):
    // element e of the packed source starts at bit w*e (w = 4 or 6), little-endian across bytes.
    std::array<uint8_t, 16> out{};
    switch (d) {
    case CpDecompress::None:
        return src; // decompressSourceBit(None, e, k) = 8e + k: the identity
    case CpDecompress::B8x16_B4x16_p64:
        for (uint32_t e = 0; e < 16; ++e)
            out[e] = static_cast<uint8_t>(((src[e / 2] >> (4 * (e % 2))) & 0xF) << 2);
        return out;
    case CpDecompress::B8x16_B6x16_p32:
        for (uint32_t e = 0; e < 16; ++e) {
            const uint32_t bit = 6 * e, lo = src[bit / 8], hi = bit / 8 + 1 < 16 ? src[bit / 8 + 1] : 0;
            out[e] = static_cast<uint8_t>(((lo | hi << 8) >> (bit % 8)) & 0x3F);
        }
        return out;
    }
    return out;
}

} // namespace layoutscope
