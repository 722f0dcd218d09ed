// compareObserved (observed.hpp): observed bytes against the engine's final state, with the location of
// each differing byte and, for tensors filled with their element index, which element each side holds.
#include "layoutscope/analysis/observed.hpp"
#include "layoutscope/core/coord_text.hpp"

#include <algorithm>

namespace layoutscope {
namespace {

Diagnostic err(const Observation& o, std::string message) {
    return Diagnostic{Severity::Error,    DiagCode::InvalidValue, o.span,
                      std::move(message), "docs/observed.md",     Provenance::Assumption};
}

std::string coordsOf(const ScenarioTensorMap& t, uint64_t elem) {
    // Index fill: element k of memory holds k. With the map's strides, memory offset k*es -> coordinates.
    const TensorMapTiledParams& p = t.map.p;
    const uint32_t bits = elementBits(p.dataType);
    const uint64_t es = bits >= 8 ? bits / 8 : 1;
    uint64_t off = elem * es;
    uint64_t c[kMaxTensorRank] = {};
    for (int d = static_cast<int>(p.tensorRank) - 1; d >= 1; --d) {
        const uint64_t stride = p.globalStrides[d - 1];
        if (!stride) return "";
        c[d] = off / stride;
        off %= stride;
    }
    c[0] = off / es;
    std::array<int64_t, kMaxTensorRank> w{};
    for (uint32_t d = 0; d < p.tensorRank; ++d) {
        if (c[d] >= p.globalDim[d]) return "";
        w[d] = int64_t(c[d]);
    }
    return elementCoordText(w, p.tensorRank); // "(x=0, y=1)": dimension 0 first, labelled
}

/// The tensor whose tile the engine wrote at this smem byte (the last TMA load into the buffer), if its
/// fill is the element index and an element's index fits its bytes.
const ScenarioTensorMap* indexSource(const Scenario& s, const ScenarioBuffer& b) {
    const ScenarioTensorMap* found = nullptr;
    for (const ScenarioInstr& in : s.instrs) {
        const TmaTileLoad* ld = std::get_if<TmaTileLoad>(&in.op);
        if (in.kind != ScenarioInstrKind::Copy || !ld) continue;
        if (ld->dstAddr < b.addr || ld->dstAddr >= b.addr + b.size) continue;
        for (const ScenarioTensorMap& t : s.tensorMaps)
            if (t.map.p.globalAddress == ld->map.p.globalAddress) found = &t;
    }
    if (!found || found->fill != ScenarioFill::Index) return nullptr;
    const uint32_t bits = elementBits(found->map.p.dataType);
    if (bits < 8) return nullptr;
    uint64_t elems = 1;
    for (uint32_t d = 0; d < found->map.p.tensorRank; ++d) elems *= found->map.p.globalDim[d];
    if (bits < 64 && elems > (uint64_t(1) << bits)) return nullptr; // indices would wrap
    return found;
}

uint64_t elementAt(const uint8_t* p, uint64_t es) {
    uint64_t v = 0;
    for (uint64_t i = 0; i < es; ++i) v |= uint64_t(p[i]) << (8 * i);
    return v;
}

} // namespace

Result<ObservedReport> compareObserved(const Scenario& s, const Run& run, const Observation& o,
                                       const ObservedBytes& bytes, size_t maxDiffs) {
    ObservedReport rep;
    rep.observation = o;
    rep.format = bytes.format;
    std::vector<uint8_t> predicted;
    const ScenarioBuffer* buf = nullptr;
    const ScenarioTensorMap* tensor = nullptr;
    uint32_t tmemCols = 0;
    switch (o.space) {
    case Observation::Space::Smem: {
        buf = s.findBuffer(o.name);
        if (!buf) return err(o, "no shared-memory buffer '" + o.name + "' in the scenario");
        const uint32_t cta = o.cta == 0 && buf->cta != 0 ? buf->cta : o.cta;
        if (cta >= run.final.smem.size())
            return err(o, "CTA " + std::to_string(cta) + " is outside the cluster");
        rep.observation.cta = cta;
        const auto all = run.final.smem[cta].bytes();
        predicted.assign(all.begin() + buf->addr, all.begin() + buf->addr + buf->size);
        break;
    }
    case Observation::Space::Global: {
        tensor = s.findTensorMap(o.name);
        if (!tensor) return err(o, "no tensor map '" + o.name + "' in the scenario");
        predicted.resize(static_cast<size_t>(std::min<uint64_t>(tensor->extent, kMaxObservedBytes)));
        run.final.global.read(tensor->map.p.globalAddress, predicted);
        break;
    }
    case Observation::Space::Tmem: {
        if (o.cta >= run.tmemFinal.ctas.size())
            return err(o, "CTA " + std::to_string(o.cta) + " is outside the cluster");
        if (o.lane0 + o.lanes > 128 || o.lanes == 0) return err(o, "TMEM lanes must lie in 0..127");
        tmemCols = o.cols ? o.cols : static_cast<uint32_t>(bytes.bytes.size() / (4 * o.lanes));
        if (o.col0 + tmemCols > 512 || tmemCols == 0) return err(o, "TMEM columns must lie in 0..511");
        rep.observation.cols = tmemCols;
        for (uint32_t l = 0; l < o.lanes; ++l)
            for (uint32_t c = 0; c < tmemCols; ++c) {
                const uint32_t v = run.tmemFinal.ctas[o.cta].cell(o.lane0 + l, o.col0 + c);
                for (int b = 0; b < 4; ++b) predicted.push_back(static_cast<uint8_t>(v >> (8 * b)));
            }
        break;
    }
    }
    const uint64_t n = std::min<uint64_t>(predicted.size(), bytes.bytes.size());
    if (bytes.bytes.size() != predicted.size())
        rep.notes.push_back(Diagnostic{Severity::Warning, DiagCode::InvalidValue, o.span,
                                       "the dump holds " + std::to_string(bytes.bytes.size()) +
                                           " bytes, the region " + std::to_string(predicted.size()) +
                                           ": compared the first " + std::to_string(n),
                                       "docs/observed.md", Provenance::Assumption});
    const ScenarioTensorMap* src = buf                                             ? indexSource(s, *buf)
                                   : tensor && tensor->fill == ScenarioFill::Index ? tensor
                                                                                   : nullptr;
    const uint32_t bits = src ? elementBits(src->map.p.dataType) : 0;
    const uint64_t es = bits / 8;
    rep.compared = n;
    for (uint64_t i = 0; i < n; ++i) {
        if (bytes.bytes[i] == predicted[i]) continue;
        if (rep.differingOffsets.size() < kMaxMarkedOffsets) rep.differingOffsets.push_back(i);
        if (rep.differing++ >= maxDiffs) continue;
        ByteDiff d{i, bytes.bytes[i], predicted[i], "", ""};
        if (o.space == Observation::Space::Smem)
            d.where = "shared::cta 0x" +
                      [](uint64_t v) {
                          char b[24];
                          std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(v));
                          return std::string(b);
                      }(buf->addr + i) +
                      ", 128-B row " + std::to_string(i / 128) + " byte " + std::to_string(i % 128);
        else if (o.space == Observation::Space::Tmem)
            d.where = "lane " + std::to_string(o.lane0 + i / 4 / tmemCols) + " column " +
                      std::to_string(o.col0 + i / 4 % tmemCols) + " byte " + std::to_string(i % 4);
        else
            d.where = "tensor " + o.name + " byte offset " + std::to_string(i);
        if (src && es && i - i % es + es <= n) {
            const uint64_t at = i - i % es;
            const std::string got = coordsOf(*src, elementAt(bytes.bytes.data() + at, es));
            const std::string want = coordsOf(*src, elementAt(predicted.data() + at, es));
            if (!got.empty() && !want.empty())
                d.hint = "holds element " + got + " of " + src->name + "; the engine predicts " + want;
        }
        rep.first.push_back(std::move(d));
    }
    return rep;
}

} // namespace layoutscope
