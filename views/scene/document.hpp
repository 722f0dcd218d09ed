#pragma once
/// Document: what the GUI shows, built from a scenario file by the engine's pure stages (loadScenario ->
/// runScenario; a `kernel` scenario is the recording of a real kernel's run). Plain C++ (no Qt), so tests
/// can build one by hand.
/// A failed parse or run leaves diagnostics and no trace; the window still opens.
#include "layoutscope/scenario/scenario.hpp"
#include "layoutscope/tma/tma.hpp"
#include "scene/instr_filter.hpp"

#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace layoutscope::views {

/// What kind of TMA copy an InstrTile describes (how its global footprint is shaped).
enum class TileKind : uint8_t {
    Tile,    ///< .tile: one box of boxDim elements (elementStrides apart)
    Gather4, ///< .tile::gather4 / ::scatter4: four boxDim[0] x 1 rows {coords[0], rows[i]} (tma.md §8)
    Im2col,  ///< .im2col / ::w / ::w::128 loads, .im2col_no_offs stores: a walk of pixels (tma.md §9)
};

/// One pixel row of an im2col copy: the element coordinate it reads (offsets applied; dim 0 =
/// the first channel), in shared-memory row order.
struct Im2colPixelRead {
    std::array<int32_t, kMaxTensorRank> coord{};
    bool halo = false; ///< .im2col::w*: a halo pixel (after the main pixels)
};

/// The tile an instruction moves, as the global-tensor view needs it.
struct InstrTile {
    bool valid = false; ///< false for instructions that are not TMA copies
    bool load = true;   ///< load (global -> smem) or store (smem -> global)
    TensorMap map;
    std::array<int32_t, kMaxTensorRank> coords{}; ///< instruction coordinates (gather4: {col, row0, 0..})
    uint32_t cta = 0;                             ///< destination (load) / source (store) CTA
    uint32_t smemAddr = 0;                        ///< shared::cta address of the box
    TileKind kind = TileKind::Tile;
    std::array<int32_t, 4> rows{};     ///< gather4/scatter4: the four dim-1 coordinates, operand order
    std::array<uint16_t, 3> offsets{}; ///< .im2col: offsets W, H, D as written (0 for stores)
    TmaIm2colMode im2colMode = TmaIm2colMode::Im2col;
    uint16_t wHalo = 0, wOffset = 0; ///< .im2col::w*: halo pixels and W shift
    /// im2col: every pixel row walked, from the trace (empty before a run).
    std::vector<Im2colPixelRead> pixels;
};

/// A window of one CTA's shared memory, whole 128-byte rows: [base, base + size).
struct SmemWindow {
    uint32_t cta = 0;
    uint32_t base = 0; ///< multiple of 128
    uint32_t size = 0; ///< multiple of 128
    [[nodiscard]] uint32_t rows() const { return size / 128; }
};

struct PreparedViews;

class Document {
  public:
    Document();
    ~Document();
    /// Parse and run scenario text. Never throws; failures become diagnostics (out of memory too).
    /// `options.cancel` stops a run that is no longer wanted (the editor's next keystroke).
    static std::unique_ptr<Document> fromText(std::string text, std::string path = {},
                                              const RunOptions& options = {});
    /// A document that failed with diagnostic `d` (no trace), e.g. out of memory while showing it.
    static std::unique_ptr<Document> failed(std::string text, std::string path, Diagnostic d);
    /// Read a file then fromText; an unreadable file gives a DiagCode::Io diagnostic.
    static std::unique_ptr<Document> fromFile(const std::string& path);
    /// A document around a hand-built trace (tests, fixtures).
    static std::unique_ptr<Document> fromTrace(Trace trace, MachineState initial,
                                               std::vector<InstrTile> tiles, SmemWindow window);

    [[nodiscard]] bool hasTrace() const { return m_run.has_value(); }
    [[nodiscard]] const Trace& trace() const { return m_run->trace; }
    [[nodiscard]] const MachineState& initial() const { return m_run->initial; }
    /// The whole run (hasTrace() must be true), e.g. its Tensor Memory before the first instruction.
    [[nodiscard]] const Run& run() const { return *m_run; }
    [[nodiscard]] const std::vector<InstrTile>& tiles() const { return m_tiles; }
    [[nodiscard]] const InstrTile* tileOf(uint32_t instr) const;
    /// The first valid tile (the one the global view shows by default), or nullptr.
    [[nodiscard]] const InstrTile* firstTile() const;
    /// The shared-memory window shown for `cta` (empty beyond the cluster).
    [[nodiscard]] SmemWindow smemWindow(uint32_t cta = 0) const {
        return cta < m_windows.size() ? m_windows[cta] : SmemWindow{cta, 0, 0};
    }
    /// CTAs in the cluster (1 without a trace).
    [[nodiscard]] uint32_t ctaCount() const { return std::max<uint32_t>(1, uint32_t(m_windows.size())); }
    [[nodiscard]] const std::vector<Diagnostic>& diagnostics() const { return m_diags; }
    [[nodiscard]] const std::string& text() const { return m_text; }
    [[nodiscard]] const std::string& path() const { return m_path; }
    /// The parsed scenario behind the trace (nullptr for hand-built traces and failed parses): views that
    /// need its declarations (operands, fragment expectations, bank patterns) read it here instead of
    /// parsing the text again on the UI thread (issue 11 item 4: 40-55 ms for 10,000 instructions).
    [[nodiscard]] const Scenario* scenario() const { return m_scenario.get(); }
    /// The PTX module a `kernel` scenario ran (Scenario::kernel->resolvedPath; empty for other scenarios):
    /// the source pane shows it. setKernelPtxPath: fixtures whose hand-built trace carries origins.
    [[nodiscard]] const std::string& kernelPtxPath() const { return m_kernelPath; }
    void setKernelPtxPath(std::string p) { m_kernelPath = std::move(p); }
    /// The family of each instruction of the trace (instrFamilies: a recorded kernel's pokes by the PTX
    /// line they come from); empty without a trace.
    [[nodiscard]] const std::vector<InstrFamily>& instrFamilies() const { return m_families; }
    /// View state built ahead, off the UI thread (prepared_views.hpp); taken once by the main window.
    void setPrepared(std::unique_ptr<PreparedViews> p);
    [[nodiscard]] std::unique_ptr<PreparedViews> takePrepared();
    /// Shared-memory addresses of `cta` whose bytes differ from the scenario's `observe smem` dumps (sorted;
    /// issue 13 item 4). The views mark them with kFlagDiffers; each observation is also a diagnostic.
    [[nodiscard]] const std::vector<uint32_t>& observedDiffers(uint32_t cta) const;
    /// Tensor Memory cells (cta, lane, column) that differ from the scenario's `observe tmem` dumps.
    struct ObservedCell {
        uint32_t cta = 0, lane = 0, column = 0;
    };
    [[nodiscard]] const std::vector<ObservedCell>& observedTmemDiffers() const { return m_observedTmem; }
    /// Global elements (tensor by its global address, coordinates dim 0 first) whose bytes differ from the
    /// scenario's `observe global` dumps.
    struct ObservedElement {
        uint64_t tensorAddress = 0;
        std::array<int32_t, kMaxTensorRank> coords{};
    };
    [[nodiscard]] const std::vector<ObservedElement>& observedGlobalDiffers() const {
        return m_observedGlobal;
    }
    /// Element type of instruction `instr` (FLOAT16 when unknown).
    [[nodiscard]] TensorDataType dataTypeOf(uint32_t instr) const;
    /// Bytes per element of instruction `instr` (>= 1).
    [[nodiscard]] uint32_t elemBytesOf(uint32_t instr) const;

  private:
    void compareObservations(const Scenario& sc);
    std::vector<std::vector<uint32_t>> m_observedSmem; ///< per CTA
    std::vector<ObservedCell> m_observedTmem;
    std::vector<ObservedElement> m_observedGlobal;
    std::string m_text, m_path;
    std::string m_kernelPath; ///< kernelPtxPath()
    std::vector<InstrFamily> m_families;
    std::vector<Diagnostic> m_diags;
    std::optional<Run> m_run;
    std::unique_ptr<const Scenario> m_scenario; ///< set with m_run
    std::unique_ptr<PreparedViews> m_prepared;
    std::vector<InstrTile> m_tiles;
    std::vector<SmemWindow> m_windows; ///< per CTA
};

/// "out of memory (std::bad_alloc) while <what>: ..." as an error diagnostic.
[[nodiscard]] Diagnostic outOfMemory(const std::string& what);

/// The smallest window of whole 128-B rows covering every shared-memory destination/source of
/// `cta` in the trace (or the scenario's buffers when given). Empty when nothing touches it.
[[nodiscard]] SmemWindow smemWindowOf(const Trace& t, uint32_t cta, const Scenario* s = nullptr);

/// Fill InstrTile::pixels of every im2col tile from the trace: one entry per distinct pixel the
/// instruction's moves read or write, in shared-memory row order (logicalOffset).
void im2colPixelsFromTrace(std::vector<InstrTile>& tiles, const Trace& t);

} // namespace layoutscope::views
