#include "scene/inspect.hpp"
#include "scene/source_origin.hpp"

#include "layoutscope/core/coord_text.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>

namespace layoutscope::views {

float halfToFloat(uint16_t h) {
    // binary16: sign bit 15, exponent bits [10,15), mantissa bits [0,10).
    const int sign = (h >> 15) & 1, exp = (h >> 10) & 0x1F, man = h & 0x3FF;
    float v;
    if (exp == 0)
        v = std::ldexp(static_cast<float>(man), -24);
    else if (exp == 31)
        v = man ? NAN : INFINITY;
    else
        v = std::ldexp(static_cast<float>(man | 0x400), exp - 25);
    return sign ? -v : v;
}

float bf16ToFloat(uint16_t h) {
    const uint32_t bits = uint32_t(h) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

static std::string hex(uint64_t v, int digits) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%0*llx", digits, static_cast<unsigned long long>(v));
    return buf;
}

static std::string num(double v) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

std::string formatElement(TensorDataType t, std::span<const uint8_t> b) {
    uint64_t raw = 0;
    for (size_t i = 0; i < b.size() && i < 8; ++i) raw |= uint64_t(b[i]) << (8 * i);
    auto f32 = [&] {
        float f;
        const uint32_t u = static_cast<uint32_t>(raw);
        std::memcpy(&f, &u, 4);
        return f;
    };
    switch (t) {
    case TensorDataType::UINT8:
        return "u8 " + std::to_string(raw & 0xFF);
    case TensorDataType::UINT16:
        return "u16 " + std::to_string(raw & 0xFFFF);
    case TensorDataType::UINT32:
        return "u32 " + std::to_string(raw & 0xFFFFFFFFu);
    case TensorDataType::INT32:
        return "i32 " + std::to_string(static_cast<int32_t>(raw));
    case TensorDataType::UINT64:
        return "u64 " + std::to_string(raw);
    case TensorDataType::INT64:
        return "i64 " + std::to_string(static_cast<int64_t>(raw));
    case TensorDataType::FLOAT16:
        return "fp16 " + num(halfToFloat(static_cast<uint16_t>(raw)));
    case TensorDataType::BFLOAT16:
        return "bf16 " + num(bf16ToFloat(static_cast<uint16_t>(raw)));
    case TensorDataType::FLOAT32:
    case TensorDataType::FLOAT32_FTZ:
        return "f32 " + num(f32());
    case TensorDataType::TFLOAT32:
    case TensorDataType::TFLOAT32_FTZ:
        return "tf32 " + num(f32());
    case TensorDataType::FLOAT64: {
        double d;
        std::memcpy(&d, &raw, 8);
        return "f64 " + num(d);
    }
    case TensorDataType::T16U4_ALIGN8B:
    case TensorDataType::T16U4_ALIGN16B:
        return "u4 " + std::to_string(raw & 0xF);
    case TensorDataType::T16U6_ALIGN16B:
        return "u6 " + std::to_string(raw & 0x3F);
    }
    return "raw " + hex(raw, 2 * static_cast<int>(b.size()));
}

std::string provenanceSentence(Provenance p) {
    switch (p) {
    case Provenance::HardwareSm90:
        return "verified on H100 (measured, sm_90a)";
    case Provenance::Ptxas:
        return "verified with ptxas (CUDA 13)";
    case Provenance::CudaDriver:
        return "verified against the CUDA 13 driver";
    case Provenance::CudaHeader:
        return "from cuda.h text, not measured";
    case Provenance::Cute:
        return "from CUTLASS/CuTe sources, not measured";
    case Provenance::PtxText:
        return "from the PTX ISA text, not measured";
    case Provenance::Assumption:
        return "UNVERIFIED ASSUMPTION";
    case Provenance::ToolFormat:
        return "a rule of Layoutscope's file format";
    }
    return "?";
}

/// "(x=5, y=3)": dimension 0 first, labelled, as lessons and the CLI write it (core/coord_text.hpp).
static std::string coordText(const std::array<int32_t, 5>& c, uint32_t rank) {
    return elementCoordText(c, rank);
}

/// Word-wrap `text` at `width` columns, continuation lines indented by `indent` spaces.
static std::string wrap(const std::string& text, size_t width, size_t indent) {
    std::string out, line;
    std::istringstream words(text);
    std::string w;
    while (words >> w) {
        if (!line.empty() && line.size() + 1 + w.size() > width) {
            out += line + "\n" + std::string(indent, ' ');
            line.clear();
        }
        line += (line.empty() ? "" : " ") + w;
    }
    return out + line;
}

static void ruleLines(std::ostringstream& o, const ByteMove& m) {
    const RuleInfo& r = ruleInfo(m.rule);
    o << "rule:    " << r.name << "\n         " << wrap(r.description, 60, 9) << "\n";
    if (r.reference && *r.reference) o << "ref:     " << wrap(r.reference, 60, 9) << "\n";
    o << "status:  " << provenanceSentence(r.provenance) << "\n";
}

namespace {
/// A recorded kernel's instruction behind move `m` (issue 22 item 4): its PTX text, PTX and CUDA lines
/// and issuing warp; nothing for a hand-written scenario's (origin unknown).
void originLines(std::ostringstream& o, const Document& doc, const ByteMove& m) {
    if (m.instr >= doc.trace().instrs.size()) return;
    const TraceInstr& in = doc.trace().instrs[m.instr];
    if (!in.origin.known()) return;
    std::string text = in.text;
    if (text.size() > 72) text = text.substr(0, 69) + "...";
    o << "by:      " << text << "\n         " << originText(in.origin) << "\n";
}
} // namespace

std::string inspectSmemByte(const Document& doc, const SmemScene& s, std::span<const uint8_t> smem,
                            uint32_t addr) {
    const auto idx = s.indexOf(addr);
    if (!idx) return {};
    std::ostringstream o;
    o << "smem:    " << hex(addr, 4) << "  (cta " << s.window.cta << ", row " << (addr - s.window.base) / 128
      << ", byte " << addr % 128 << " of the row)\n";
    o << "bank:    " << (addr / 4) % 32 << "  (byte " << addr % 4 << " of the 4-B word)\n";
    const int32_t mi = s.moveOf[*idx];
    if (mi < 0 || !doc.hasTrace()) {
        o << "source:  untouched at step " << s.step << "\n";
        if (addr < smem.size()) o << "value:   " << hex(smem[addr], 2) << "\n";
        return o.str();
    }
    const ByteMove& m = doc.trace().moves[mi];
    const MemRef& r = (m.dst.space == MemSpace::SharedCta && m.dst.cta == s.window.cta) ? m.dst : m.src;
    const uint32_t eb = doc.elemBytesOf(m.instr);
    const uint32_t inMove = addr - static_cast<uint32_t>(r.addr);
    const auto c = coordOfByte(m, inMove, eb);
    const InstrTile* tile = doc.tileOf(m.instr);
    const uint32_t rank = tile ? tile->map.p.tensorRank : 2;
    o << "source:  element " << coordText(c, rank) << ", byte " << inMove % eb << " of " << eb << "\n";
    if (m.src.space == MemSpace::Global)
        o << "from:    global " << hex(m.src.addr + inMove, 12) << "\n";
    else if (m.src.space == MemSpace::Fill)
        o << "from:    out of bounds: " << transformName(m.transform) << "\n";
    o << "logical: box offset " << m.logicalOffset + inMove << " B (before swizzle)\n";
    const uint32_t elemStart = addr - inMove % eb;
    if (elemStart + eb <= smem.size()) {
        const auto bytes = smem.subspan(elemStart, eb);
        uint64_t raw = 0;
        for (uint32_t i = 0; i < eb && i < 8; ++i) raw |= uint64_t(bytes[i]) << (8 * i);
        o << "value:   byte " << hex(smem[addr], 2) << "; element " << hex(raw, 2 * static_cast<int>(eb))
          << " = " << formatElement(doc.dataTypeOf(m.instr), bytes) << "\n";
    }
    o << "moved:   step " << m.step << " of " << doc.trace().stepCount << ", " << transformName(m.transform)
      << ", " << m.length << " B\n";
    originLines(o, doc, m);
    ruleLines(o, m);
    return o.str();
}

std::string inspectGlobalCell(const Document& doc, const GlobalScene& g, const GlobalMemory& global,
                              uint32_t x, uint32_t y) {
    if (!g.tile || x >= g.w || y >= g.h) return {};
    const InstrTile& tile = *g.tile;
    if (g.isGap(x, y)) { // an elided run of coordinates (global_axis.hpp)
        std::ostringstream o;
        for (int a = 0; a < 2; ++a)
            if (const auto gap = g.axes[size_t(a)].gapAt(a == 0 ? x : y))
                o << "elided:  " << dimName(tile, a == 0 ? g.slice.dimX : g.slice.dimY) << " " << (*gap)[0]
                  << ".." << ((*gap)[1] == INT64_MAX ? std::string("") : std::to_string((*gap)[1] - 1))
                  << ((*gap)[1] == INT64_MAX ? " not shown (over the view's cell limit)\n"
                                             : " not shown (the copy touches none of it)\n");
        return o.str();
    }
    const auto c = g.coordAt(x, y);
    const uint32_t rank = g.rank();
    const TensorMapTiledParams& p = tile.map.p;
    const uint32_t eb = std::max<uint32_t>(1, tile.map.elemBits / 8);
    std::ostringstream o;
    std::string names;
    for (uint32_t d = 0; d < std::max<uint32_t>(rank, 2); ++d)
        names += (d ? ", " : "") + dimName(tile, int(d));
    o << "tensor:  element " << coordText(c, rank) << "  (" << names << ")\n";
    const size_t k = size_t(y) * g.w + x;
    const Rgba8 t = g.texels[k];
    if (!g.inTensor(c)) {
        o << "address: out of bounds (shape " << cuteShape(tile.map) << ")\n";
    } else {
        uint64_t a = p.globalAddress + uint64_t(c[0]) * eb;
        for (uint32_t d = 1; d < rank; ++d) a += uint64_t(c[d]) * p.globalStrides[d - 1];
        std::vector<uint8_t> bytes(eb);
        global.read(a, bytes);
        uint64_t raw = 0;
        for (uint32_t i = 0; i < eb && i < 8; ++i) raw |= uint64_t(bytes[i]) << (8 * i);
        o << "address: global " << hex(a, 12) << "\n";
        o << "value:   " << hex(raw, 2 * static_cast<int>(eb)) << " = " << formatElement(p.dataType, bytes)
          << "\n";
    }
    const int32_t row = k < g.rowOf.size() ? g.rowOf[k] : -1;
    if (t.a & kFlagSkipped) {
        o << "box:     inside the box span, skipped by elementStrides\n";
    } else if (row < 0) {
        o << (tile.kind == TileKind::Im2col ? "box:     not a pixel this copy walks\n"
                                            : "box:     outside the box\n");
    } else if (tile.kind == TileKind::Gather4) {
        o << "gather4: row " << row << " of 4 (dim-1 coordinate " << tile.rows[size_t(row)] << ")\n";
    } else if (tile.kind == TileKind::Im2col) {
        o << "im2col:  pixel row " << row << " of " << tile.pixels.size()
          << (tile.pixels[size_t(row)].halo ? " (halo)" : "")
          << (t.a & kFlagFill ? ", outside the tensor: fill" : "") << "\n";
    }
    const int32_t mi = g.moveOf[k];
    if (mi < 0) {
        if (t.a & kFlagInBox) o << "box:     in the box, not moved yet at step " << g.step << "\n";
        return o.str();
    }
    const ByteMove& m = doc.trace().moves[size_t(mi)];
    const uint32_t inMove = static_cast<uint32_t>(c[0] - m.coord[0]) * eb;
    const MemRef& s = tile.load ? m.dst : m.src;
    o << (tile.load ? "to:      smem " : "from:    smem ") << hex(s.addr + inMove, 4) << " (cta "
      << int(s.cta) << ", bank " << ((s.addr + inMove) / 4) % 32 << ")\n";
    o << "moved:   step " << m.step << ", " << transformName(m.transform) << "\n";
    originLines(o, doc, m);
    ruleLines(o, m);
    return o.str();
}

} // namespace layoutscope::views
