#include "scene/document.hpp"
#include "layoutscope/analysis/compare_match.hpp"
#include "layoutscope/analysis/observed.hpp"
#include "layoutscope/ptx/module.hpp"
#include "layoutscope/scenario/load_kernel.hpp"
#include "scene/file_kind.hpp"
#include "scene/kernel_progress.hpp"
#include "scene/prepared_views.hpp"

#include <algorithm>
#include <cstdio>
#include <new>

namespace layoutscope::views {

static InstrTile tileOf(const ScenarioInstr& in) {
    InstrTile t;
    if (in.kind != ScenarioInstrKind::Copy) return t; // mbarrier ops, fences: no tile
    const ScenarioOp& op = in.op;
    auto fromLoad = [&t](const TmaTileLoad& ld) {
        t.valid = true;
        t.map = ld.map;
        t.coords = ld.coords;
        t.cta = ld.dstCta;
        t.smemAddr = ld.dstAddr;
    };
    auto fromStore = [&t](const TmaTileStore& st) {
        t.valid = true;
        t.load = false;
        t.map = st.map;
        t.coords = st.coords;
        t.cta = st.srcCta;
        t.smemAddr = st.srcAddr;
    };
    if (const auto* ld = std::get_if<TmaTileLoad>(&op)) {
        fromLoad(*ld);
    } else if (const auto* st = std::get_if<TmaTileStore>(&op)) {
        fromStore(*st);
    } else if (const auto* g = std::get_if<TmaGather4Load>(&op)) {
        fromLoad(g->load);
        t.kind = TileKind::Gather4;
        t.coords = {g->col, g->rows[0], 0, 0, 0};
        t.rows = g->rows;
    } else if (const auto* sc = std::get_if<TmaScatter4Store>(&op)) {
        fromStore(sc->store);
        t.kind = TileKind::Gather4;
        t.coords = {sc->col, sc->rows[0], 0, 0, 0};
        t.rows = sc->rows;
    } else if (const auto* il = std::get_if<TmaIm2colLoad>(&op)) {
        fromLoad(il->load);
        t.kind = TileKind::Im2col;
        t.offsets = il->offsets;
        t.im2colMode = il->mode;
        t.wHalo = il->wHalo;
        t.wOffset = il->wOffset;
    } else if (const auto* is = std::get_if<TmaIm2colStore>(&op)) {
        fromStore(is->store);
        t.kind = TileKind::Im2col;
    }
    return t;
}

void im2colPixelsFromTrace(std::vector<InstrTile>& tiles, const Trace& t) {
    for (uint32_t i = 0; i < tiles.size() && i < t.instrs.size(); ++i) {
        InstrTile& tile = tiles[i];
        if (!tile.valid || tile.kind != TileKind::Im2col) continue;
        tile.pixels.clear();
        const TraceInstr& in = t.instrs[i];
        if (in.endStep <= in.firstStep) continue;
        const size_t lo = t.movesOfStep(in.firstStep).first, hi = t.movesOfStep(in.endStep - 1).second;
        // (logicalOffset, pixel coordinate): a pixel row's pieces share dims 1.. (tma_im2col.cpp).
        std::vector<std::pair<uint32_t, std::array<int32_t, kMaxTensorRank>>> rows;
        for (size_t k = lo; k < hi; ++k) {
            const ByteMove& m = t.moves[k];
            if (m.instr != i) continue;
            std::array<int32_t, kMaxTensorRank> c = m.coord;
            c[0] = tile.coords[0];
            rows.emplace_back(m.logicalOffset, c);
        }
        std::stable_sort(rows.begin(), rows.end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
        const uint32_t eb = std::max<uint32_t>(1, tile.map.elemBits / 8);
        const uint32_t pitch = std::max(swizzleSpan(tile.map.p.swizzle), tile.map.channelsPerPixel * eb);
        for (const auto& [off, c] : rows) {
            // A row's pieces (and multicast copies) are adjacent in offset order; a new coordinate is the
            // next row. (::w::128 may read a pixel twice, as a halo and again as a main pixel: not adjacent.)
            if (!tile.pixels.empty() && tile.pixels.back().coord == c) continue;
            Im2colPixelRead p{c, false};
            // .im2col::w: halo rows follow the pixelsPerColumn main rows; ::w::128: wHalo after every 32.
            const uint32_t row = pitch ? off / pitch : 0;
            if (tile.im2colMode == TmaIm2colMode::W) p.halo = row >= tile.map.pixelsPerColumn;
            if (tile.im2colMode == TmaIm2colMode::W128) p.halo = row % (32u + tile.wHalo) >= 32u;
            tile.pixels.push_back(p);
        }
    }
}

Document::Document() = default;
// The prepared views hold a Replay and a scene cache pointing into this document: freed before its trace.
Document::~Document() {
    m_prepared.reset();
}

void Document::setPrepared(std::unique_ptr<PreparedViews> p) {
    m_prepared = std::move(p);
}

std::unique_ptr<PreparedViews> Document::takePrepared() {
    return std::move(m_prepared);
}

std::unique_ptr<Document> Document::fromText(std::string text, std::string path, const RunOptions& options) {
    auto d = std::make_unique<Document>();
    d->m_text = std::move(text);
    d->m_path = std::move(path);
    auto load = [&d, &options] {
        // loadScenario: a `kernel` directive runs the kernel and its recording is the scenario (issue 22);
        // its launch and run errors come back like parse errors, at the directive.
        // The kernel's run stops on options.cancel (File > Open's Cancel, the editor's next keystroke) and
        // reports its progress to the building thread's KernelProgressScope.
        LoadOptions lo{options.cancel, {}};
        if (std::atomic<uint64_t>* sink = KernelProgressScope::current())
            lo.progress = [sink](uint64_t n) { sink->store(n, std::memory_order_relaxed); };
        Result<Scenario> sc = loadScenario(d->m_text, d->m_path, lo);
        if (!sc.ok()) {
            d->m_diags = sc.diagnostics();
            return;
        }
        if (sc->kernel) d->m_kernelPath = sc->kernel->resolvedPath;
        for (const ScenarioInstr& in : sc->instrs) d->m_tiles.push_back(layoutscope::views::tileOf(in));
        Result<Run> run = runScenario(*sc, options);
        // A recorded kernel's diagnostics name lines of its recording, which the user never wrote: at the
        // `kernel` directive, led by the kernel's own PTX and CUDA line (placeInKernel; others unchanged).
        if (!run.ok()) {
            d->m_diags = placeInKernel(*sc, run.diagnostics());
            return;
        }
        d->m_run.emplace(std::move(run).value());
        // Diagnostics of a completed run (TMEM use, expect_tx, leaks).
        d->m_diags = placeInKernel(*sc, d->m_run->warnings);
        im2colPixelsFromTrace(d->m_tiles, d->m_run->trace);
        for (uint32_t cta = 0; cta < d->m_run->initial.smem.size(); ++cta)
            d->m_windows.push_back(smemWindowOf(d->m_run->trace, cta, &*sc));
        d->compareObservations(*sc);
        std::string module; // a recorded kernel's module: the families of its pokes (instrFamilies)
        if (!d->m_kernelPath.empty())
            if (auto t = readPtxModuleFile(d->m_kernelPath)) module = std::move(t).value();
        d->m_families = layoutscope::views::instrFamilies(d->m_run->trace, module);
        d->m_scenario = std::make_unique<const Scenario>(std::move(sc).value());
    };
    try {
        load();
    } catch (const std::bad_alloc&) { // out of memory is the document's diagnostic, not a crash
        d->m_run.reset();
        d->m_scenario.reset();
        d->m_tiles.clear();
        d->m_windows.clear();
        d->m_diags = {outOfMemory("parsing or running the scenario")};
    }
    return d;
}

Diagnostic outOfMemory(const std::string& what) {
    return Diagnostic{Severity::Error,
                      DiagCode::Io,
                      {},
                      "out of memory (std::bad_alloc) while " + what +
                          ": it needs more memory than this machine has",
                      "docs/scenario-format.md (limits)",
                      Provenance::Assumption};
}

std::unique_ptr<Document> Document::failed(std::string text, std::string path, Diagnostic d) {
    auto doc = std::make_unique<Document>();
    doc->m_text = std::move(text);
    doc->m_path = std::move(path);
    doc->m_diags = {std::move(d)};
    return doc;
}

std::unique_ptr<Document> Document::fromFile(const std::string& path) {
    if (auto bad = notRegularFile(path)) return failed({}, path, std::move(*bad));
    Result<std::string> text = readScenarioFile(path); // bounded: kMaxScenarioBytes
    if (!text) {
        auto d = std::make_unique<Document>();
        d->m_path = path;
        d->m_diags = text.diagnostics();
        return d;
    }
    return fromText(std::move(text).value(), path);
}

std::unique_ptr<Document> Document::fromTrace(Trace trace, MachineState initial, std::vector<InstrTile> tiles,
                                              SmemWindow window) {
    auto d = std::make_unique<Document>();
    d->m_run.emplace(Run{std::move(initial), MachineState{}, std::move(trace)});
    d->m_tiles = std::move(tiles);
    im2colPixelsFromTrace(d->m_tiles, d->m_run->trace);
    d->m_windows = {window};
    d->m_families = layoutscope::views::instrFamilies(d->m_run->trace, {});
    return d;
}

const std::vector<uint32_t>& Document::observedDiffers(uint32_t cta) const {
    static const std::vector<uint32_t> none;
    return cta < m_observedSmem.size() ? m_observedSmem[cta] : none;
}

// Each `observe` directive: its dump (relative to the scenario's folder) against the run's final state; the
// summary a diagnostic at the directive (warning when bytes differ or the dump cannot be read, else a note),
// the differing shared-memory bytes kept for the views' marks.
void Document::compareObservations(const Scenario& sc) {
    if (sc.observations.empty()) return;
    m_observedSmem.assign(m_run->final.smem.size(), {});
    const size_t slash = m_path.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "" : m_path.substr(0, slash + 1);
    for (const Observation& o : sc.observations) {
        const std::string path = !o.path.empty() && o.path[0] == '/' ? o.path : dir + o.path;
        Diagnostic d{Severity::Warning, DiagCode::Io, o.span, "", "docs/observed.md", Provenance::Assumption};
        auto bytes = readObservedFile(path);
        auto rep =
            bytes ? compareObserved(sc, *m_run, o, *bytes, 1) : Result<ObservedReport>(bytes.diagnostics());
        if (!rep) {
            // A dump that cannot be read (missing, a directory, a device) is an input error, as in the CLI
            // (issue 25: no silent accepts); one that reads but does not fit the run stays a warning.
            if (!bytes) d.severity = Severity::Error;
            d.message = "observe: " + rep.error().message;
            m_diags.push_back(d);
            continue;
        }
        const std::string what = o.space == Observation::Space::Smem     ? "smem " + o.name
                                 : o.space == Observation::Space::Global ? "global " + o.name
                                                                         : std::string("tmem");
        d.code = DiagCode::InvalidValue;
        if (rep->differing == 0) {
            d.severity = Severity::Note;
            d.message = "observe " + what + ": the dump matches the engine (" +
                        std::to_string(rep->compared) + " bytes, " + rep->format + ")";
        } else {
            const ByteDiff& f = rep->first.front();
            char b[96];
            std::snprintf(b, sizeof b, "; first at +%llu (%s): observed 0x%02x, predicted 0x%02x",
                          static_cast<unsigned long long>(f.offset), f.where.c_str(), f.observed,
                          f.predicted);
            d.message = "observe " + what + ": " + std::to_string(rep->differing) + " of " +
                        std::to_string(rep->compared) + " bytes differ from the dump (marked)" + b +
                        (f.hint.empty() ? "" : "; " + f.hint);
        }
        for (const Diagnostic& n : rep->notes) m_diags.push_back(n);
        m_diags.push_back(d);
        if (o.space == Observation::Space::Tmem) { // cells lane-major, 4 bytes each, in the observed window
            const Observation& ob = rep->observation;
            uint32_t last = UINT32_MAX;
            for (uint64_t off : rep->differingOffsets) {
                const uint32_t cell = uint32_t(off / 4);
                if (cell == last) continue;
                last = cell;
                m_observedTmem.push_back({ob.cta, ob.lane0 + cell / ob.cols, ob.col0 + cell % ob.cols});
            }
        }
        if (o.space == Observation::Space::Global) // each differing element once, by its coordinates
            if (const ScenarioTensorMap* tm = sc.findTensorMap(o.name)) {
                const TensorMapTiledParams& p = tm->map.p;
                const uint64_t es = std::max<uint32_t>(1, elementBits(p.dataType) / 8);
                uint64_t lastElem = UINT64_MAX;
                for (uint64_t off : rep->differingOffsets) {
                    if (off / es == lastElem) continue;
                    lastElem = off / es;
                    ObservedElement e{p.globalAddress, {}};
                    uint64_t rest = lastElem * es;
                    for (int d = int(p.tensorRank) - 1; d >= 1; --d) {
                        e.coords[d] = int32_t(rest / p.globalStrides[d - 1]);
                        rest %= p.globalStrides[d - 1];
                    }
                    e.coords[0] = int32_t(rest / es);
                    m_observedGlobal.push_back(e);
                }
            }
        if (o.space != Observation::Space::Smem) continue;
        const ScenarioBuffer* buf = sc.findBuffer(o.name);
        const uint32_t cta = rep->observation.cta;
        if (!buf || cta >= m_observedSmem.size()) continue;
        for (uint64_t off : rep->differingOffsets) m_observedSmem[cta].push_back(buf->addr + uint32_t(off));
        std::sort(m_observedSmem[cta].begin(), m_observedSmem[cta].end());
    }
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
    const SharedWindow w =
        sharedWindowOf(t, cta, s); // the engine's, so `layoutscope-cli compare` sees this window
    return {w.cta, w.base, w.size};
}

} // namespace layoutscope::views
