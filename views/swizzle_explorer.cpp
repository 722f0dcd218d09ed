// Swizzle explorer dock widget (swizzle_explorer.hpp).
#include "swizzle_explorer.hpp"

#include "cell_canvas.hpp"

#include "layoutscope/analysis/banks.hpp"
#include "layoutscope/core/rules.hpp"

#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>
#include <cstdio>

namespace layoutscope::views {

namespace {

constexpr TensorSwizzle kModes[] = {
    TensorSwizzle::NONE,           TensorSwizzle::S32B,           TensorSwizzle::S64B,
    TensorSwizzle::S128B,          TensorSwizzle::S128B_ATOM_32B, TensorSwizzle::S128B_ATOM_32B_FLIP_8B,
    TensorSwizzle::S128B_ATOM_64B,
};
constexpr uint32_t kElemSizes[] = {1, 2, 4, 8, 16};
constexpr uint32_t kGap = 6; // empty cells between the logical and the physical image

std::string hex(uint32_t v) {
    char b[16];
    std::snprintf(b, sizeof b, "0x%x", v);
    return b;
}

} // namespace

SwizzleExplorer::SwizzleExplorer(QWidget* parent) : QWidget(parent) {
    auto* col = new QVBoxLayout(this);
    auto* row = new QHBoxLayout;
    m_modeBox = new QComboBox(this);
    m_modeBox->setObjectName("swizzleMode");
    for (TensorSwizzle m : kModes)
        m_modeBox->addItem(QString::fromStdString(swizzleInfo(m).name), static_cast<int>(m));
    m_elemBox = new QComboBox(this);
    m_elemBox->setObjectName("swizzleElemBytes");
    for (uint32_t e : kElemSizes) m_elemBox->addItem(QString("%1-B elements").arg(e), e);
    row->addWidget(new QLabel("Swizzle", this));
    row->addWidget(m_modeBox);
    row->addWidget(m_elemBox);
    row->addStretch(1);
    col->addLayout(row);
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    m_cute = new QLabel(this);
    m_cute->setObjectName("swizzleCute");
    m_bits = new QLabel(this);
    m_bits->setObjectName("swizzleBits");
    m_chunks = new QLabel(this);
    m_chunks->setObjectName("swizzleChunks");
    // The texts (CuTe form, bit diagram, chunk table) scroll in their own area: they neither widen nor
    // lengthen the dock (its minimum height counted for the scenario dock it is a tab of). The canvas
    // stays outside any scroll area: a native GL window is not clipped by one (issue 15).
    auto* texts = new QWidget(this);
    auto* textCol = new QVBoxLayout(texts);
    textCol->setContentsMargins(0, 0, 0, 0);
    for (QLabel* l : {m_cute, m_bits, m_chunks}) {
        l->setFont(mono);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
        textCol->addWidget(l);
    }
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(texts);
    scroll->setMinimumHeight(60);
    col->addWidget(scroll, 1);
    auto* bankRow = new QHBoxLayout;
    m_patternBox = new QComboBox(this);
    m_patternBox->setObjectName("bankPattern");
    for (AccessPattern p : {AccessPattern::ColumnRead, AccessPattern::RowRead, AccessPattern::VectorRow16,
                            AccessPattern::ColumnChunks16, AccessPattern::Ldmatrix8x8x4})
        m_patternBox->addItem(accessPatternName(p), static_cast<int>(p));
    m_bank = new QLabel(this);
    m_bank->setObjectName("bankWavefronts");
    m_bank->setFont(mono);
    bankRow->addWidget(new QLabel("Bank conflicts of", this));
    bankRow->addWidget(m_patternBox);
    bankRow->addStretch(1);
    col->addLayout(bankRow);
    // The headline (wavefronts) on a line of its own, wrapped: never clipped at the dock's edge.
    m_bank->setWordWrap(true);
    m_bank->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    col->addWidget(m_bank);
    m_canvas = new CellCanvas(this);
    m_canvas->setMinimumSize(240, 140);
    m_canvas->setMargins({40, 44, 10, 24});
    m_canvas->setInspector([this](uint32_t x, uint32_t y) { return inspect(x, y); });
    col->addWidget(m_canvas, 2);
    m_modeBox->setCurrentIndex(3); // 128B, the mode most kernels use
    m_elemBox->setCurrentIndex(1); // 2-B (fp16/bf16)
    connect(m_modeBox, &QComboBox::currentIndexChanged, this, [this] { rebuild(); });
    connect(m_elemBox, &QComboBox::currentIndexChanged, this, [this] { rebuild(); });
    connect(m_patternBox, &QComboBox::currentIndexChanged, this, [this] { rebuild(); });
    rebuild();
}

TensorSwizzle SwizzleExplorer::mode() const {
    return static_cast<TensorSwizzle>(m_modeBox->currentData().toInt());
}
uint32_t SwizzleExplorer::elemBytes() const {
    return m_elemBox->currentData().toUInt();
}
void SwizzleExplorer::setMode(TensorSwizzle m) {
    m_modeBox->setCurrentIndex(m_modeBox->findData(static_cast<int>(m)));
}
void SwizzleExplorer::setElemBytes(uint32_t b) {
    m_elemBox->setCurrentIndex(m_elemBox->findData(b));
}
QString SwizzleExplorer::cuteText() const {
    return m_cute->text();
}
QString SwizzleExplorer::bitText() const {
    return m_bits->text();
}
QString SwizzleExplorer::bankText() const {
    return m_bank->text();
}

void SwizzleExplorer::rebuild() {
    m_info = swizzleInfo(mode());
    const uint32_t eb = elemBytes();
    const Provenance prov = ruleInfo(swizzleModeRule(m_info.mode)).provenance;
    const std::string unverified =
        prov == Provenance::Assumption ? "   [unverified: sm_100 atom variant (open question 1)]" : "";
    std::string cute = "CuTe  ";
    if (m_info.cuteBytes) {
        cute += cuteName(*m_info.cuteBytes) + " on byte addresses  |  ";
        const auto e = cuteForElements(*m_info.cuteBytes, eb);
        cute += e ? cuteName(*e) + " on " + std::to_string(eb) + "-B element indices"
                  : "no element form (XOR moves parts of one " + std::to_string(eb) + "-B element)";
    } else {
        cute += "no single Swizzle<B,M,S> (two XORs)";
    }
    m_cute->setText(QString::fromStdString(cute + unverified));
    // Bit diagram: address bits 10..0, XOR targets marked 'x', sources 's'.
    std::string marks(11, '.');
    for (const auto& [dst, src] : m_info.xors) {
        if (dst < 11) marks[10 - dst] = 'x';
        if (src < 11) marks[10 - src] = 's';
    }
    m_bits->setText(QString::fromStdString("Physical = A with " + bitDiagramText(m_info) +
                                           "   (A = absolute shared byte address)\n"
                                           "bit      a98765 43210\n"
                                           "role     " +
                                           marks.substr(0, 6) + " " + marks.substr(6) +
                                           "   s = source, x = XORed; period " +
                                           std::to_string(m_info.periodBytes) + " B"));
    const ChunkGrid g = chunkGrid(m_info);
    std::string chunks =
        std::to_string(m_info.granuleBytes) + "-B granules, logical -> physical per 128-B line:";
    for (uint32_t l = 0; l < g.lines; ++l) {
        chunks += "\nline " + std::to_string(l) + ": ";
        for (uint32_t c = 0; c < g.granules; ++c) chunks += std::to_string(g.at(l, c)) + " ";
    }
    m_chunks->setText(QString::fromStdString(chunks));
    {
        TileInSmem t;
        t.swizzle = m_info.mode;
        t.elemBytes = eb;
        t.pitch = m_info.spanBytes != 0 ? m_info.spanBytes : 128u;
        t.cols = t.pitch / eb;
        t.rows = 64;
        const auto heat = bankHeat(t, static_cast<AccessPattern>(m_patternBox->currentData().toInt()));
        const RuleInfo& br = ruleInfo(RuleId::SmemBankWavefronts);
        m_bank->setText(heat ? QString::fromStdString("= " + std::to_string(heat->report.wavefronts) +
                                                      " wavefronts (ideal " +
                                                      std::to_string(heat->report.ideal) + ", " +
                                                      std::to_string(heat->report.excess) + " excess)  [" +
                                                      provenanceTag(br.provenance) + "]")
                             : QString::fromStdString("= " + heat.error().message));
    }
    // Tile: one period of rows, as many columns as a swizzled row holds.
    const uint32_t span = m_info.spanBytes != 0 ? m_info.spanBytes : 128u;
    const uint32_t rows = std::max(8u, m_info.periodBytes / span);
    m_tile = swizzleTile(m_info.mode, rows, span / eb, eb, 0);
    if (!m_tile) {
        m_canvas->setCells(1, 1, {kBackground}, {});
        return;
    }
    const uint32_t slotCount = 128u / eb;
    m_physX0 = m_tile->cols + kGap;
    const uint32_t w = m_physX0 + slotCount;
    const uint32_t h = std::max(m_tile->rows, m_tile->physLines);
    std::vector<Rgba8> tex(static_cast<size_t>(w) * h, kBackground);
    for (uint32_t r = 0; r < m_tile->rows; ++r)
        for (uint32_t c = 0; c < m_tile->cols; ++c) tex[r * w + c] = m_tile->logical[r * m_tile->cols + c];
    for (uint32_t l = 0; l < m_tile->physLines; ++l)
        for (uint32_t s = 0; s < slotCount; ++s)
            tex[l * w + m_physX0 + s] = m_tile->physical[l * slotCount + s];
    for (auto& t : tex) t.a = kFlagWritten;
    ShadeParams p;
    p.groupX = static_cast<int>(std::max(1u, m_info.granuleBytes / eb));
    m_canvas->setCells(w, h, std::move(tex), p);
    const uint32_t x0 = m_physX0;
    const std::string modeName = m_info.name;
    m_canvas->setOverlay([x0, modeName](const Camera2D& cam, glm::vec2 viewport) {
        // Two captions, each on two lines in the top margin, shortened to the room up to the next
        // caption or the canvas edge: in a narrow dock they overlapped (issue 15).
        OverlayList o;
        const glm::vec2 a = cam.worldToScreen({0.0f, 0.0f});
        const glm::vec2 b = cam.worldToScreen({static_cast<float>(x0), 0.0f});
        const float left = std::max(a.x, 2.0f), right = std::max(b.x, left + 4.0f);
        const float roomA = right - left - 10.0f, roomB = viewport.x - right - 4.0f;
        o.text({left, a.y - 38}, fitLabel({"logical tile (row-major)", "logical tile", "logical"}, roomA));
        o.text({left, a.y - 20},
               fitLabel({"hue = 16-B chunk, light = row", "hue = chunk, light = row", "hue chunk, light row"},
                        roomA),
               Rgba8{150, 152, 160, 255});
        o.text({right, b.y - 38},
               fitLabel({"physical smem, " + modeName, "physical, " + modeName, "physical"}, roomB));
        o.text({right, b.y - 20}, fitLabel({"128-B lines", "128 B"}, roomB), Rgba8{150, 152, 160, 255});
        return o;
    });
    m_canvas->fitView();
    m_canvas->refreshInspector();
}

std::optional<std::pair<QPoint, QPoint>> SwizzleExplorer::cellsOfElement(uint32_t row, uint32_t col) const {
    if (!m_tile || row >= m_tile->rows || col >= m_tile->cols) return std::nullopt;
    const uint32_t p = m_tile->physAddr(m_info.mode, row, col) / m_tile->elemBytes;
    const uint32_t slotCount = 128u / m_tile->elemBytes;
    return std::make_pair(
        QPoint(static_cast<int>(col), static_cast<int>(row)),
        QPoint(static_cast<int>(m_physX0 + p % slotCount), static_cast<int>(p / slotCount)));
}

std::string SwizzleExplorer::inspect(uint32_t x, uint32_t y) const {
    if (!m_tile) return {};
    const uint32_t eb = m_tile->elemBytes;
    int32_t elem = -1;
    if (x < m_tile->cols && y < m_tile->rows) {
        elem = static_cast<int32_t>(y * m_tile->cols + x);
    } else if (x >= m_physX0 && y < m_tile->physLines) {
        elem = m_tile->physElement[y * (128u / eb) + (x - m_physX0)];
        if (elem < 0)
            return "physical " + hex(y * 128u + (x - m_physX0) * eb) +
                   ": not written (row tail beyond the box)";
    } else {
        return {};
    }
    const uint32_t r = static_cast<uint32_t>(elem) / m_tile->cols,
                   c = static_cast<uint32_t>(elem) % m_tile->cols;
    const uint32_t a = m_tile->base + r * m_tile->pitch + c * eb;
    const uint32_t p = m_tile->physAddr(m_info.mode, r, c);
    const RuleInfo& rule = ruleInfo(swizzleModeRule(m_info.mode));
    std::string s = "element (row " + std::to_string(r) + ", col " + std::to_string(c) + ")\n";
    s += "logical A = " + hex(a) + "  (line " + std::to_string(a / 128) + ", chunk " +
         std::to_string((a % 128) / 16) + ")\n";
    s += "physical P = " + hex(p) + "  (line " + std::to_string(p / 128) + ", chunk " +
         std::to_string((p % 128) / 16) + "), bank " + std::to_string(smemBank(p)) + "\n";
    s += std::string("rule ") + rule.name + " [" + provenanceTag(rule.provenance) + "]";
    if (rule.provenance == Provenance::Assumption) s += " unverified (open question 1)";
    if (m_info.cuteBytes) s += "\nCuTe " + cuteName(*m_info.cuteBytes);
    return s;
}

} // namespace layoutscope::views
