// MainWindow: showing a document (main_window.hpp): a new document given to every view (applyDocument),
// the scenes of one step drawn (drawStep), and the status line.
#include "editor_dock.hpp"
#include "event_list.hpp"
#include "global_pane.hpp"
#include "main_window.hpp"
#include "operand_view.hpp"
#include "scene/prepared_views.hpp"

#include <QComboBox>
#include <QLabel>
#include <QThreadPool>

namespace layoutscope::views {

std::unique_ptr<ReplayCache<Replay>> MainWindow::keptReplay(std::unique_ptr<Replay> atEnd) const {
    const uint64_t bytes = replayStateBytes(atEnd->state());
    return std::make_unique<ReplayCache<Replay>>(
        m_doc->trace(), std::move(*atEnd), std::make_unique<Replay>(m_doc->trace(), m_doc->initial()), bytes);
}

void MainWindow::applyDocument(std::unique_ptr<Document> doc, bool keepStep) {
    const uint32_t oldStep = m_playback->step(), oldCta = m_cta;
    const QByteArray layoutBefore =
        m_sized && !keepStep ? saveState(AppSettings::kStateVersion) : QByteArray();
    const bool wasAtEnd = oldStep >= m_playback->stepCount();
    m_playback->pause();
    m_replay.reset();
    // The old document lives until the end of this function: the views still point into it until
    // each is given the new one below, and signals emitted on the way may reach them (ASan, CI stop 18).
    std::unique_ptr<Document> previous = std::move(m_doc);
    m_doc = std::move(doc);
    // The incremental SMEM scene knows its document by address: a later document allocated where a
    // freed one was (after one without a trace, which never reaches the cache) must not look cached.
    m_smemCache = SmemSceneCache();
    // Built on the re-check's worker (prepared_views.hpp), when the editor's re-check made this document.
    std::unique_ptr<PreparedViews> prep = m_doc->hasTrace() ? m_doc->takePrepared() : nullptr;
    resetLinks(prep ? &prep->tiles : nullptr); // a new trace: old selections and tiles mean nothing in it
    if (!keepStep) m_editor->showDocument(*m_doc, false);
    updateTitle();
    const std::string name = m_doc->path().empty() ? std::string("(unsaved)") : m_doc->path();

    std::vector<TimelineWidget::Span> spans;
    // Where the trace stopped recording at its memory budget (issue 25 item 9: said, not silent); the
    // untraced instructions' rows in the event list say why they have no steps.
    m_traceNote.clear();
    if (m_doc->hasTrace())
        if (const Trace& t = m_doc->trace(); t.firstUntraced() < t.instrs.size()) {
            const uint64_t b = t.budgetBytes; // in the largest unit that divides it: 1 GiB, 10 KiB
            QString amount = QString("%1 B").arg(b);
            for (auto [shift, unit] : {std::pair{30, " GiB"}, {20, " MiB"}, {10, " KiB"}})
                if (b != 0 && b % (uint64_t(1) << shift) == 0) {
                    amount = QString::number(b >> shift) + unit;
                    break;
                }
            m_traceNote = QString("trace summarised after step %1: the %2 budget")
                              .arg(t.instrs[t.firstUntraced()].firstStep)
                              .arg(amount);
        }
    if (m_doc->hasTrace()) {
        if (prep) {
            m_frames = std::move(prep->frames);
            m_replay = keptReplay(std::move(prep->replay));
            m_smemCache = std::move(prep->smem);
            m_smemCache.rebindFrames(m_frames);
        } else {
            m_frames = boxFrames(*m_doc);
            // A new file opens at its last step (below): start there; an edit's step is sought from it.
            m_replay = keptReplay(replayAtEnd(*m_doc));
        }
        for (const TraceInstr& in : m_doc->trace().instrs)
            spans.push_back({in.firstStep, in.endStep, in.summary.empty() ? in.text : in.summary});
        m_smem->setMessage({}, {});
        m_global->setMessage({}, {});
    } else {
        m_frames.clear();
        std::string msg;
        for (const Diagnostic& d : m_doc->diagnostics()) msg += formatDiagnostic(d, name) + "\n";
        if (msg.empty()) msg = "Open a scenario (File > Open, or --scenario FILE).";
        const std::string title =
            m_doc->diagnostics().empty() ? "No scenario" : "Scenario failed: nothing to show";
        m_smem->setMessage(title, msg);
        m_global->setMessage(m_doc->diagnostics().empty() ? "No scenario" : "No trace",
                             "See the Diagnostics panel.");
    }
    m_cta = keepStep && oldCta < m_doc->ctaCount() ? oldCta : 0;
    m_ctaBox->clear();
    for (uint32_t c = 0; c < m_doc->ctaCount(); ++c) m_ctaBox->addItem(QString("CTA %1").arg(c));
    m_ctaBox->setCurrentIndex(int(m_cta));
    m_ctaBox->setEnabled(m_doc->ctaCount() > 1);
    // Views first, then the step count: setStepCount emits stepChanged, which they answer.
    m_timeline->setSpans(std::move(spans));
    // Async lanes: spans, barrier phases, race arrows (issue 23); built on the worker when it prepared the
    // views.
    m_timeline->setOrder(m_doc.get(), prep && m_doc->hasTrace() ? &prep->order : nullptr);
    m_globalPane->setDocument(m_doc.get());
    m_events->setTrace(m_doc->hasTrace() ? &m_doc->trace() : nullptr, m_doc->instrFamilies());
    m_operandView->setDocument(m_doc.get()); // hidden without a consumer (wgmma, tcgen05.mma / .cp)
    m_playback->setStepCount(m_doc->hasTrace() ? m_doc->trace().stepCount : 0);
    // A new file opens on the finished copy (Space replays it from step 0); an edit keeps the step.
    const uint32_t step =
        keepStep && !wasAtEnd ? std::min(oldStep, m_playback->stepCount()) : m_playback->stepCount();
    onStep(step);
    m_playback->seek(step);
    if (m_doc->hasTrace() && !m_globalScene.tile) // tcgen05-only scenarios: say why the pane is empty
        m_global->setMessage("No TMA tile copy", "This scenario reads no global tensor.");
    applyPaneVisibility(); // e.g. no global tensor pane for a tcgen05-only scenario
    if (!keepStep) {
        switchLayoutKind(layoutBefore); // TMA / tcgen05 / mixed: each kind keeps its own layout
        m_smem->fitView();
        m_global->fitView();
    }
    showKernelSource(!keepStep); // the Source dock: shown for a recorded kernel
    // Nothing points into the old document any more. Freeing a 10,000-instruction trace takes tens of
    // milliseconds: a pool thread does it, not the event loop (the editor's re-check, issue 11 item 4).
    if (previous) QThreadPool::globalInstance()->start([p = previous.release()] { delete p; });
}

void MainWindow::drawStep(uint32_t step) {
    if (m_replay) m_replay->seek(step);
    if (m_doc && m_doc->hasTrace()) {
        // A short trail behind the arriving chunks (1/8 of a second of playback at most).
        const uint32_t fade =
            m_playback->playing() ? std::clamp<uint32_t>(uint32_t(m_playback->speed() / 8), 2, 64) : 0;
        m_smemScene = m_smemCache.sceneAt(*m_doc, step, m_frames, m_cta, fade); // = smemSceneAt, incremental
        const uint32_t instr = m_globalPane->pinnedInstr().value_or(tileInstrAt(*m_doc, step));
        m_globalPane->showTile(m_doc->tileOf(instr));
        m_globalScene = globalSceneAt(*m_doc, instr, step, m_frames, m_globalPane->slice(), 8, fade);
    } else {
        m_smemScene = SmemScene{};
        m_globalScene = GlobalScene{};
        m_globalPane->showTile(nullptr);
    }
    if (m_replay && m_smemScene.window.cta < m_replay->state().smem.size()) {
        const auto bytes = m_replay->state().smem[m_smemScene.window.cta].bytes();
        const auto win = m_smemScene.window.base + m_smemScene.window.size <= bytes.size()
                             ? bytes.subspan(m_smemScene.window.base, m_smemScene.window.size)
                             : std::span<const uint8_t>();
        recolourSmem(m_smemScene, m_colourBy, win, m_doc->trace());
    }
    if (m_chunks) chunkSmem(m_smemScene);
    applySmemLayers(step); // bank heat texels, swizzle atoms (main_window_links.cpp)
    // The banner (swizzle atoms, bank heat) takes a header strip above the grid, never cells; its
    // height depends on the pane's width (wrapping), so it is asked at each fit (resizes too).
    m_smem->setMarginsFn([this](glm::vec2 vp) {
        const float banner =
            smemBannerHeight(smemBannerLines(m_atoms, m_smemTiles, m_heat ? &*m_heat : nullptr, vp.x).size());
        return smemMargins(vp.x, m_smemScene.observedMarked) + glm::vec4(0.0f, banner, 0.0f, 0.0f);
    });
    // Bank lines every 4 bytes; at chunk granularity a line every 16 bytes.
    m_smem->setCells(m_smemScene.width(), m_smemScene.height(), m_smemScene.texels,
                     ShadeParams{1, m_chunks ? 16 : 4, 0});
    m_global->setCells(m_globalScene.w, m_globalScene.h, m_globalScene.texels, ShadeParams{1, 0, 0});
    m_tmemViews->onStep(m_doc.get(), step, m_smemScene);
    showSelection(step);
    updateStatus();
}

void MainWindow::updateStatus() {
    if (!m_doc || !m_doc->hasTrace()) {
        m_status->setText(QString("%1 diagnostic(s)").arg(m_doc ? m_doc->diagnostics().size() : 0));
        return;
    }
    size_t written = 0;
    for (const Rgba8& t : m_smemScene.texels) written += (t.a & kFlagWritten) ? 1 : 0;
    m_status->setText(QString("step %1 / %2 - %3 of %4 shared bytes written")
                          .arg(m_playback->step())
                          .arg(m_doc->trace().stepCount)
                          .arg(written)
                          .arg(m_smemScene.window.size) +
                      (m_traceNote.isEmpty() ? QString() : " - " + m_traceNote));
}

} // namespace layoutscope::views
