#include "timeline_widget.hpp"

#include "async_lanes.hpp"
#include "playback_keys.hpp"
#include "scene/document.hpp"

#include "layoutscope/scenario/order_timeline.hpp"

#include <QComboBox>
#include <QDockWidget>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QMainWindow>
#include <QPainter>
#include <QResizeEvent>
#include <QSlider>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

namespace layoutscope::views {

/// A strip under the slider: one segment per instruction that moved bytes, placed like the
/// slider's steps, labelled with the start of its summary; a line marks the current step.
class InstrStrip : public QWidget {
  public:
    InstrStrip(QSlider* slider, QWidget* parent) : QWidget(parent), m_slider(slider) { setFixedHeight(18); }
    void setSpans(const std::vector<TimelineWidget::Span>* spans, const std::vector<bool>* shown,
                  uint32_t count, uint32_t step) {
        m_spans = spans;
        m_shown = shown;
        m_count = count;
        m_step = step;
        update();
    }

  protected:
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        p.fillRect(rect(), QColor(40, 41, 46));
        if (!m_spans || m_count == 0) return;
        // Map steps to x like the slider groove (the handle's half width on each side).
        const QRect sr = m_slider->geometry().translated(-pos()); // both are children of the timeline
        const double x0 = sr.left() + 8, x1 = sr.right() - 8;
        auto xOf = [&](uint32_t s) { return x0 + (x1 - x0) * double(s) / double(m_count); };
        static const QColor colours[] = {QColor(70, 110, 170), QColor(150, 100, 60), QColor(90, 140, 90),
                                         QColor(140, 80, 140)};
        int k = 0;
        double lastX = -1; // gui-tmem (views_bench): spans thinner than a pixel are merged and labels
                           // need 24 px, so a 10,000-instruction trace costs pixels, not 10,000 texts
        for (size_t i = 0; i < m_spans->size(); ++i) {
            const TimelineWidget::Span& sp = (*m_spans)[i];
            if (sp.end <= sp.first) continue;
            const QRectF r(QPointF(xOf(sp.first), 2), QPointF(xOf(sp.end), height() - 2));
            // Filtered out (the event list's filter bar): grey, unlabelled, still in place.
            const bool shown = !m_shown || m_shown->empty() || (i < m_shown->size() && (*m_shown)[i]);
            if (r.right() < lastX + 1.0) continue;
            lastX = r.right();
            p.fillRect(r, shown ? colours[k++ % 4] : QColor(62, 63, 68));
            if (!shown || r.width() < 24) continue;
            p.setPen(QColor(235, 235, 240));
            p.drawText(r.adjusted(4, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft,
                       p.fontMetrics().elidedText(QString::fromStdString(sp.text), Qt::ElideRight,
                                                  int(r.width()) - 6));
        }
        p.setPen(QPen(QColor(255, 255, 255), 2));
        p.drawLine(QPointF(xOf(m_step), 0), QPointF(xOf(m_step), height()));
    }

  private:
    QSlider* m_slider;
    const std::vector<TimelineWidget::Span>* m_spans = nullptr;
    const std::vector<bool>* m_shown = nullptr;
    uint32_t m_count = 0, m_step = 0;
};

enum class Media { Start, InstrBack, Back, Play, Pause, Forward, InstrForward, End };

/// Transport icons drawn in the palette's text colour (the style's media icons are dark grey, lost on
/// the dark theme).
static QIcon mediaIcon(Media m, const QColor& c) {
    QPixmap pm(32, 32);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(Qt::NoPen);
    p.setBrush(c);
    const auto tri = [&](qreal x0, qreal x1) { // pointing right when x1 > x0
        p.drawPolygon(QPolygonF({QPointF(x0, 7), QPointF(x1, 16), QPointF(x0, 25)}));
    };
    switch (m) {
    case Media::Start:
        p.drawRect(QRectF(6, 7, 3, 18)), tri(25, 10);
        break;
    case Media::InstrBack: // a bar and a double arrow: back to the instruction boundary
        p.drawRect(QRectF(3, 7, 3, 18)), tri(17, 7), tri(29, 19);
        break;
    case Media::Back:
        tri(16, 5), tri(27, 16);
        break;
    case Media::Play:
        tri(9, 25);
        break;
    case Media::Pause:
        p.drawRect(QRectF(9, 7, 5, 18)), p.drawRect(QRectF(18, 7, 5, 18));
        break;
    case Media::Forward:
        tri(5, 16), tri(16, 27);
        break;
    case Media::InstrForward:
        tri(3, 15), tri(15, 25), p.drawRect(QRectF(26, 7, 3, 18));
        break;
    case Media::End:
        tri(7, 22), p.drawRect(QRectF(23, 7, 3, 18));
        break;
    }
    return QIcon(pm);
}

static QToolButton* button(QWidget* parent, Media icon, const QString& tip) {
    auto* b = new QToolButton(parent);
    b->setIcon(mediaIcon(icon, parent->palette().color(QPalette::ButtonText)));
    b->setToolTip(tip);
    b->setAutoRaise(true);
    return b;
}

TimelineWidget::TimelineWidget(Playback* pb, QWidget* parent) : QWidget(parent), m_pb(pb) {
    // Tooltips name the keys from playback_keys.hpp (the table MainWindow's keys use).
    auto* start = button(this, Media::Start, playbackTip("To the first step", &Playback::toStart));
    auto* instrBack =
        button(this, Media::InstrBack, playbackTip("Step back one instruction", &Playback::instrBack));
    auto* back = button(this, Media::Back, playbackTip("Step back one byte move", &Playback::stepBack));
    m_play = button(this, Media::Play, playbackTip("Play / pause", &Playback::togglePlay));
    auto* fwd =
        button(this, Media::Forward, playbackTip("Step forward one byte move", &Playback::stepForward));
    auto* instrFwd = button(this, Media::InstrForward,
                            playbackTip("Step forward one instruction", &Playback::instrForward));
    auto* end = button(this, Media::End, playbackTip("To the last step", &Playback::toEnd));
    start->setObjectName("tlStart"), instrBack->setObjectName("tlInstrBack"), back->setObjectName("tlBack");
    fwd->setObjectName("tlForward"), instrFwd->setObjectName("tlInstrForward"), end->setObjectName("tlEnd");
    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setToolTip("Scrub: step N shows memory after every move of steps 0..N-1");
    m_slider->setFocusPolicy(Qt::NoFocus);
    // The timeline spans the centre column only (MainWindow::applyDockCorners): its minimum width is part of
    // what must fit 1280 px beside the left and right columns, so the label and the speed box are no wider
    // than they need (issue 24 item 7).
    m_stepLabel = new QLabel(this);
    m_stepLabel->setMinimumWidth(m_stepLabel->fontMetrics().horizontalAdvance("step 0000 / 0000"));
    m_instrLabel = new QLabel(this);
    m_instrLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A long summary (tcgen05.mma's) must not widen the window: the line is elided to the space there is.
    m_instrLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_instrLabel->setMinimumWidth(0);
    m_speed = new QComboBox(this);
    m_speed->setToolTip("Playback speed in steps (chunks) per second");
    for (int s : {1, 4, 16, 64, 256, 1024, 4096}) m_speed->addItem(QString("%1 steps/s").arg(s), s);
    m_speed->setCurrentIndex(3);
    m_speed->setFocusPolicy(Qt::NoFocus);
    m_speed->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_speed->setMinimumContentsLength(9); // "64 steps/" : the popup still shows the whole names
    m_transport = {start, instrBack, back, m_play, fwd, instrFwd, end};
    for (QToolButton* b : m_transport) b->setFocusPolicy(Qt::NoFocus);

    auto* row = new QHBoxLayout;
    for (QWidget* w : m_transport) row->addWidget(w);
    row->addWidget(m_slider, 1);
    row->addWidget(m_stepLabel);
    row->addWidget(m_speed);
    auto* col = new QVBoxLayout(this);
    col->setContentsMargins(6, 2, 6, 2);
    col->setSpacing(1); // the async lanes' rows come out of the gaps (1280x800: the centre keeps its grid)
    col->addLayout(row);
    m_strip = new InstrStrip(m_slider, this);
    col->addWidget(m_strip);
    m_lanes = new AsyncLanes(this);
    col->addWidget(m_lanes);
    connect(m_lanes, &AsyncLanes::instrActivated, this, [this](uint32_t instr) {
        if (instr < m_spans.size()) m_pb->seek(m_spans[instr].end); // the state after the instruction
    });
    col->addWidget(m_instrLabel);

    connect(start, &QToolButton::clicked, pb, &Playback::toStart);
    connect(back, &QToolButton::clicked, pb, &Playback::stepBack);
    connect(instrBack, &QToolButton::clicked, pb, &Playback::instrBack);
    connect(instrFwd, &QToolButton::clicked, pb, &Playback::instrForward);
    connect(m_play, &QToolButton::clicked, pb, &Playback::togglePlay);
    connect(fwd, &QToolButton::clicked, pb, &Playback::stepForward);
    connect(end, &QToolButton::clicked, pb, &Playback::toEnd);
    connect(m_slider, &QSlider::valueChanged, this, [this](int v) { m_pb->seek(static_cast<uint32_t>(v)); });
    connect(m_speed, &QComboBox::currentIndexChanged, this,
            [this](int) { m_pb->setSpeed(m_speed->currentData().toDouble()); });
    connect(pb, &Playback::stepChanged, this, &TimelineWidget::onStep);
    connect(pb, &Playback::playingChanged, this, [this](bool) { updateIcons(); });
    pb->setSpeed(m_speed->currentData().toDouble());
    onStep(pb->step());
}

void TimelineWidget::setSpans(std::vector<Span> spans) {
    m_spans = std::move(spans);
    m_shown.clear();
    std::vector<std::pair<uint32_t, uint32_t>> steps;
    steps.reserve(m_spans.size());
    for (const Span& sp : m_spans) steps.emplace_back(sp.first, sp.end);
    m_lanes->setSteps(std::move(steps));
    onStep(m_pb->step());
}

void TimelineWidget::setOrder(const Document* doc, async::Timeline* prepared) {
    async::Timeline t;
    if (prepared)
        t = std::move(*prepared);
    else if (doc && doc->hasTrace() && doc->scenario())
        t = orderTimeline(*doc->scenario(), doc->run());
    m_lanes->setOrder(std::move(t), doc && doc->hasTrace() ? doc->run().warnings : std::vector<Diagnostic>{});
    // A dock keeps the height it was first given: in a tall window, grow it so the lanes get full rows.
    auto* dock = qobject_cast<QDockWidget*>(parentWidget());
    auto* main = qobject_cast<QMainWindow*>(window());
    if (m_lanes->isVisibleTo(this) && dock && main && m_lanes->height() < m_lanes->sizeHint().height())
        main->resizeDocks({dock}, {dock->height() + m_lanes->sizeHint().height() - m_lanes->height()},
                          Qt::Vertical);
}

void TimelineWidget::setShown(std::vector<bool> shown) {
    m_shown = std::move(shown);
    m_strip->update();
}

void TimelineWidget::onStep(uint32_t step) {
    const QSignalBlocker block(m_slider);
    m_slider->setRange(0, static_cast<int>(m_pb->stepCount()));
    m_slider->setValue(static_cast<int>(step));
    m_stepLabel->setText(QString("step %1 / %2").arg(step).arg(m_pb->stepCount()));
    m_strip->setSpans(&m_spans, &m_shown, m_pb->stepCount(), step);
    m_lanes->setStep(m_pb->stepCount(), step);
    // The instruction of the last applied step (step - 1), or the first one at step 0.
    const uint32_t s = step > 0 ? step - 1 : 0;
    QString text = m_spans.empty() ? QString("no trace") : QString();
    for (const Span& sp : m_spans)
        if (s >= sp.first && s < sp.end)
            text = QString("instruction steps [%1, %2): %3")
                       .arg(sp.first)
                       .arg(sp.end)
                       .arg(QString::fromStdString(sp.text));
    m_instrText = text;
    showInstrText();
}

void TimelineWidget::showInstrText() {
    const QString shown = m_instrLabel->fontMetrics().elidedText(m_instrText, Qt::ElideRight,
                                                                 std::max(40, m_instrLabel->width()));
    m_instrLabel->setText(shown);
    m_instrLabel->setToolTip(shown == m_instrText ? QString() : m_instrText);
}

void TimelineWidget::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    showInstrText();
}

void TimelineWidget::updateIcons() {
    const QColor c = palette().color(QPalette::ButtonText);
    const Media kinds[] = {
        Media::Start,   Media::InstrBack,    Media::Back, m_pb->playing() ? Media::Pause : Media::Play,
        Media::Forward, Media::InstrForward, Media::End};
    for (size_t i = 0; i < m_transport.size(); ++i) m_transport[i]->setIcon(mediaIcon(kinds[i], c));
}

void TimelineWidget::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::PaletteChange && !m_transport.empty()) updateIcons();
}

} // namespace layoutscope::views
