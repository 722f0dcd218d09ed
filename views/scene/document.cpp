#include "scene/document.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace layoutscope::views {

static InstrTile tileOf(const ScenarioInstr& in) {
    InstrTile t;
    if (in.kind != ScenarioInstrKind::Copy) return t; // mbarrier ops, fences: no tile
    const ScenarioOp& op = in.op;
    if (const auto* ld = std::get_if<TmaTileLoad>(&op)) {
        t = {true, true, ld->map, ld->coords, ld->dstCta, ld->dstAddr};
    } else if (const auto* st = std::get_if<TmaTileStore>(&op)) {
        t = {true, false, st->map, st->coords, st->srcCta, st->srcAddr};
    }
    return t;
}

std::unique_ptr<Document> Document::fromText(std::string text, std::string path) {
    auto d = std::make_unique<Document>();
    d->m_text = std::move(text);
    d->m_path = std::move(path);
    Result<Scenario> sc = parseScenario(d->m_text);
    if (!sc.ok()) {
        d->m_diags = sc.diagnostics();
        return d;
    }
    for (const ScenarioInstr& in : sc->instrs) d->m_tiles.push_back(layoutscope::views::tileOf(in));
    Result<Run> run = runScenario(*sc);
    if (!run.ok()) {
        d->m_diags = run.diagnostics();
        return d;
    }
    d->m_run.emplace(std::move(run).value());
    for (uint32_t cta = 0; cta < d->m_run->initial.smem.size(); ++cta)
        d->m_windows.push_back(smemWindowOf(d->m_run->trace, cta, &*sc));
    return d;
}

std::unique_ptr<Document> Document::fromFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        auto d = std::make_unique<Document>();
        d->m_path = path;
        d->m_diags.push_back(Diagnostic{Severity::Error, DiagCode::Io, {}, "cannot read scenario file '" + path + "'",
                                        "", Provenance::Assumption});
        return d;
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    return fromText(ss.str(), path);
}

std::unique_ptr<Document> Document::fromTrace(Trace trace, MachineState initial, std::vector<InstrTile> tiles,
                                              SmemWindow window) {
    auto d = std::make_unique<Document>();
    d->m_run.emplace(Run{std::move(initial), MachineState{}, std::move(trace)});
    d->m_tiles = std::move(tiles);
    d->m_windows = {window};
    return d;
}

const InstrTile* Document::tileOf(uint32_t instr) const {
    if (instr >= m_tiles.size() || !m_tiles[instr].valid) return nullptr;
    return &m_tiles[instr];
}

const InstrTile* Document::firstTile() const {
    for (const InstrTile& t : m_tiles)
        if (t.valid) return &t;
    return nullptr;
}

TensorDataType Document::dataTypeOf(uint32_t instr) const {
    const InstrTile* t = tileOf(instr);
    return t ? t->map.p.dataType : TensorDataType::FLOAT16;
}

uint32_t Document::elemBytesOf(uint32_t instr) const {
    const InstrTile* t = tileOf(instr);
    const uint32_t bits = t ? t->map.elemBits : 16;
    return std::max<uint32_t>(1, bits / 8);
}

SmemWindow smemWindowOf(const Trace& t, uint32_t cta, const Scenario* s) {
    uint64_t lo = UINT64_MAX, hi = 0;
    auto cover = [&](uint64_t a, uint64_t len) {
        lo = std::min(lo, a);
        hi = std::max(hi, a + len);
    };
    if (s)
        for (const ScenarioBuffer& b : s->buffers)
            if (b.cta == cta && b.size > 0) cover(b.addr, b.size);
    for (const ByteMove& m : t.moves) {
        if (m.dst.space == MemSpace::SharedCta && m.dst.cta == cta) cover(m.dst.addr, m.length);
        if (m.src.space == MemSpace::SharedCta && m.src.cta == cta) cover(m.src.addr, m.length);
    }
    if (hi == 0) return {cta, 0, 0};
    lo = lo / 128 * 128;
    hi = (hi + 127) / 128 * 128;
    return {cta, static_cast<uint32_t>(lo), static_cast<uint32_t>(hi - lo)};
}

} // namespace layoutscope::views
