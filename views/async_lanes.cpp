#include "async_lanes.hpp"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QResizeEvent>
#include <QScreen>
#include <QStringList>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace layoutscope::views {

namespace {

constexpr async::Lane kLaneOrder[] = {async::Lane::Tma, async::Lane::Mma, async::Lane::Tcgen05Copy,
                                      async::Lane::Bulk, async::Lane::Wgmma};

QColor laneColour(async::Lane l) {
    switch (l) {
    case async::Lane::Tma:
        return QColor(70, 130, 200);
    case async::Lane::Mma:
        return QColor(205, 140, 60);
    case async::Lane::Tcgen05Copy:
        return QColor(90, 170, 100);
    case async::Lane::Bulk:
        return QColor(165, 105, 175);
    case async::Lane::Wgmma:
        return QColor(60, 165, 165);
    }
    return QColor(150, 150, 150);
}

const QColor kRaceColour(232, 72, 64);   // the diagnostic colour (code_editor.cpp's error underline)
const QColor kTickColour(225, 200, 110); // mbarrier phase completions

QString quoted(const std::string& text) {
    QString t = QString::fromStdString(text);
    if (t.size() > 70) t = t.left(67) + "...";
    return "`" + t + "`";
}

// A kernel's event whose own instruction records nothing (a wait, arrive, ld.shared, fence) stands at the
// next instruction of the recording (async::Site::stepApprox): said, not hidden.
QString near(bool approx) {
    return approx ? QString(" (approximate: that line records no instruction; the next recorded one)")
                  : QString();
}

} // namespace

AsyncLanes::AsyncLanes(QWidget* parent) : QWidget(parent) {
    setObjectName("asyncLanes");
    setMouseTracking(true);
    hide();
}

void AsyncLanes::setOrder(async::Timeline order, std::vector<Diagnostic> diagnostics) {
    m_order = std::move(order);
    m_diags = std::move(diagnostics);
    m_itemsValid = false;
    m_lanes.clear();
    for (const async::Lane l : kLaneOrder)
        if (std::any_of(m_order.ops.begin(), m_order.ops.end(),
                        [l](const async::OpSpan& o) { return async::laneOf(o.kind) == l; }))
            m_lanes.push_back(l);
    // Full rows (a race band, the lanes, a tick row) where the window has the height; compact rows (the
    // arrows over the first lane, the ticks at the bottom of the last) where it has not: at 1280x800 the
    // centre view keeps its grid (gui_layout_test). A drag of the dock's edge gives the full rows back.
    m_fullHeight = (m_order.races.empty() ? 0 : kRaceBand) + int(m_lanes.size()) * kRowHeight +
                   (m_order.phases.empty() ? 0 : kTickRow) + 2;
    setMinimumHeight(int(m_lanes.size()) * kCompactRow + 1);
    setMaximumHeight(m_fullHeight);
    updateGeometry();
    setVisible(!m_order.ops.empty());
    update();
}

void AsyncLanes::setSteps(std::vector<std::pair<uint32_t, uint32_t>> instrSteps) {
    m_instrSteps = std::move(instrSteps);
    m_itemsValid = false;
    update();
}

void AsyncLanes::setStep(uint32_t count, uint32_t step) {
    if (count == m_count && step == m_step) return;
    if (count != m_count) m_itemsValid = false;
    m_count = count;
    m_step = step;
    if (isVisible()) update();
}

// The lanes' own step axis, the widget's width right of the lane names: the slider (and the strip that
// follows it) can be a few dozen pixels wide in the 1280x800 layout, too short for spans and arrows.
double AsyncLanes::axisLeft() const {
    return kLabelWidth + 6;
}
double AsyncLanes::axisRight() const {
    return std::max(axisLeft() + 1, double(width()) - 10);
}

double AsyncLanes::xOfStep(uint32_t s) const {
    const double x0 = axisLeft(), x1 = axisRight();
    return m_count == 0 ? x0 : x0 + (x1 - x0) * double(std::min(s, m_count)) / double(m_count);
}

// An instruction's first step (`end` false) or the step after its last move (`end` true).
double AsyncLanes::instrX(uint32_t instr, bool end) const {
    if (instr >= m_instrSteps.size()) return end ? axisRight() : axisLeft();
    return xOfStep(end ? m_instrSteps[instr].second : m_instrSteps[instr].first);
}

QSize AsyncLanes::sizeHint() const {
    // Full rows in a window of 900 px or more; in a shorter one (1280x800) the centre view needs the height
    // more: the minimum, which a drag of the dock's edge enlarges up to full rows.
    // Before the window shows, its height is not yet its own: the screen's decides.
    const QWidget* top = window();
    const QScreen* sc = screen();
    const int h = top && top->isVisible() ? top->height() : sc ? sc->availableGeometry().height() : 1080;
    return {400, h >= 900 ? m_fullHeight : minimumHeight()};
}

AsyncLanes::Bands AsyncLanes::bands() const {
    Bands b;
    const double lanes = double(std::max<size_t>(1, m_lanes.size()));
    if (height() >= m_fullHeight) {
        b.race = m_order.races.empty() ? 0 : kRaceBand;
        b.tick = m_order.phases.empty() ? 0 : kTickRow;
        b.row = kRowHeight;
        b.ticksY = b.race + b.row * lanes;
        b.arrowY = b.race / 2.0;
        return b;
    }
    // Compact: the lanes share the height; arrows run along the top of the first lane, ticks stand in the
    // bottom 5 px of the last one.
    b.compact = true;
    b.row = std::max(double(kCompactRow), std::min(double(kRowHeight), (height() - 1) / lanes));
    b.tick = m_order.phases.empty() ? 0 : 5;
    b.ticksY = b.row * lanes - b.tick;
    b.arrowY = 2.5;
    return b;
}

double AsyncLanes::laneTop(async::Lane l) const {
    const Bands b = bands();
    const auto it = std::find(m_lanes.begin(), m_lanes.end(), l);
    return b.race + double(it - m_lanes.begin()) * b.row;
}

const std::vector<AsyncLanes::Item>& AsyncLanes::items() const {
    if (!m_itemsValid) buildItems();
    return m_items;
}

void AsyncLanes::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    m_itemsValid = false;
}

void AsyncLanes::buildItems() const {
    std::vector<Item>& out = m_items;
    out.clear();
    m_itemsValid = true;
    const Bands b = bands();
    const double pad = b.row >= 9 ? 2 : 1;
    const QString lineWord = m_order.kernel ? "PTX " : ""; // a kernel's lines are its PTX lines
    for (const async::OpSpan& o : m_order.ops) {
        const async::Lane l = async::laneOf(o.kind);
        Item it;
        it.kind = Item::Span;
        it.instr = o.issueStep;
        it.colour = laneColour(l);
        it.open = o.doneStep == async::kNever;
        const double x0 = instrX(o.issueStep, false);
        double x1 = it.open ? axisRight() + 6 : instrX(o.doneStep, true);
        x1 = std::max(x1, x0 + 3);
        it.rect = QRectF(QPointF(x0, laneTop(l) + pad), QPointF(x1, laneTop(l) + b.row - pad));
        it.tip = QString("%1 %2 (%3line %4, CTA %5 thread %6): issued at instruction %7%8; ")
                     .arg(async::opKindName(o.kind), quoted(o.text), lineWord)
                     .arg(o.line)
                     .arg(o.thread.cta)
                     .arg(o.thread.thread)
                     .arg(o.issueStep)
                     .arg(near(o.issueApprox));
        it.tip += it.open ? QString("its completion is never observed (no wait, wait_group or tcgen05.wait "
                                    "makes it visible)")
                          : QString("completion visible at instruction %1 (%2line %3)%4")
                                .arg(o.doneStep)
                                .arg(lineWord)
                                .arg(o.doneLine)
                                .arg(near(o.doneApprox));
        out.push_back(std::move(it));
    }
    for (const async::PhaseChange& p : m_order.phases) {
        Item it;
        it.kind = Item::Tick;
        it.instr = p.step;
        it.colour = kTickColour;
        const double x = instrX(p.step, true);
        it.rect = QRectF(x - 3, b.ticksY, 6, b.tick);
        it.tip = QString("mbarrier %1 (CTA %2): phase %3 completes at instruction %4%5")
                     .arg(QString::fromStdString(p.barrier.name))
                     .arg(p.barrier.cta)
                     .arg(p.phase)
                     .arg(p.step)
                     .arg(near(p.approx));
        out.push_back(std::move(it));
    }
    for (const async::RaceLink& r : m_order.races) {
        Item it;
        it.kind = Item::Race;
        it.instr = r.secondStep;
        it.colour = kRaceColour;
        const double xa = (instrX(r.firstStep, false) + instrX(r.firstStep, true)) / 2;
        const double xb = (instrX(r.secondStep, false) + instrX(r.secondStep, true)) / 2;
        const double y = b.arrowY;
        it.line = QLineF(xa, y, xb, y);
        it.rect = QRectF(QPointF(std::min(xa, xb) - 3, 0), QPointF(std::max(xa, xb) + 3, y + 3));
        it.tip = QString("race between instruction %1 (%2line %3) %4%5 and instruction %6 (%2line %7) %8%9")
                     .arg(r.firstStep)
                     .arg(lineWord)
                     .arg(r.firstLine)
                     .arg(quoted(r.firstText))
                     .arg(near(r.firstApprox))
                     .arg(r.secondStep)
                     .arg(r.secondLine)
                     .arg(quoted(r.secondText))
                     .arg(near(r.secondApprox));
        if (r.finding < m_diags.size()) {
            QString msg = QString::fromStdString(m_diags[r.finding].message);
            if (msg.size() > 240) msg = msg.left(237) + "...";
            it.tip += "\n" + msg;
        }
        out.push_back(std::move(it));
    }
}

void AsyncLanes::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), QColor(34, 35, 40));
    const Bands b = bands();
    QFont f = font();
    f.setPixelSize(std::max(6, std::min(10, int(b.row) - 1)));
    p.setFont(f);
    p.fillRect(QRectF(axisLeft() - 2, 0, axisRight() - axisLeft() + 4, height()), QColor(40, 41, 46));
    for (const async::Lane l : m_lanes) { // names in the space under the transport buttons
        const QRectF r(2, laneTop(l), kLabelWidth - 2, b.row);
        p.setPen(laneColour(l).lighter(130));
        p.drawText(r, Qt::AlignVCenter | Qt::AlignRight,
                   p.fontMetrics().elidedText(async::laneName(l), Qt::ElideRight, int(r.width())));
    }
    if (!m_order.phases.empty() && !b.compact) {
        p.setPen(kTickColour);
        p.drawText(QRectF(2, b.ticksY, kLabelWidth - 2, b.tick), Qt::AlignVCenter | Qt::AlignRight,
                   "mbarrier phases");
    }
    if (!m_order.races.empty() && !b.compact) {
        p.setPen(kRaceColour);
        p.drawText(QRectF(2, 0, kLabelWidth - 2, b.race), Qt::AlignVCenter | Qt::AlignRight, "races");
    }
    p.setRenderHint(QPainter::Antialiasing);
    const std::vector<Item>& all = items();
    for (const Item& it : all) {
        if (it.kind == Item::Span) {
            QColor c = it.colour;
            c.setAlpha(200);
            if (it.open) { // never observed: fading out past the axis
                QLinearGradient g(it.rect.topLeft(), it.rect.topRight());
                g.setColorAt(0, c);
                g.setColorAt(0.8, c);
                c.setAlpha(30);
                g.setColorAt(1, c);
                p.fillRect(it.rect, g);
            } else {
                p.fillRect(it.rect, c);
            }
            p.setPen(QPen(it.colour.lighter(140), 1));
            p.drawLine(QPointF(it.rect.left(), it.rect.top()), QPointF(it.rect.left(), it.rect.bottom()));
        } else if (it.kind == Item::Tick) {
            p.setPen(QPen(it.colour, 2));
            const double x = it.rect.center().x();
            p.drawLine(QPointF(x, it.rect.top() + 1), QPointF(x, it.rect.bottom() - 1));
        }
    }
    for (const Item& it : all) { // races on top: dashed marks down through the lanes, then the arrow
        if (it.kind != Item::Race) continue;
        QColor faint = it.colour;
        faint.setAlpha(150);
        p.setPen(QPen(faint, 1, Qt::DashLine));
        for (const double x : {it.line.x1(), it.line.x2()})
            p.drawLine(QPointF(x, b.arrowY), QPointF(x, height()));
        p.setPen(QPen(it.colour, 2));
        p.drawLine(it.line);
        const double dir = it.line.x2() >= it.line.x1() ? 1 : -1, y = it.line.y2(), x = it.line.x2();
        QPainterPath head;
        head.moveTo(x, y);
        head.lineTo(x - dir * 6, y - 3.5);
        head.lineTo(x - dir * 6, y + 3.5);
        head.closeSubpath();
        p.fillPath(head, it.colour);
        p.setBrush(it.colour);
        p.drawEllipse(QPointF(it.line.x1(), y), 2.0, 2.0);
        p.setBrush(Qt::NoBrush);
    }
    if (const QString more = leftOutNote(); !more.isEmpty()) { // a big kernel: the cap, said
        p.setPen(QColor(200, 200, 200));
        p.drawText(QRectF(axisLeft(), 0, axisRight() - axisLeft(), height()),
                   Qt::AlignRight | Qt::AlignBottom,
                   p.fontMetrics().elidedText(more, Qt::ElideLeft, int(axisRight() - axisLeft())));
    }
    if (m_count > 0) {
        p.setPen(QPen(QColor(255, 255, 255, 160), 1));
        p.drawLine(QPointF(xOfStep(m_step), 0), QPointF(xOfStep(m_step), height()));
    }
}

QString AsyncLanes::leftOutNote() const {
    QStringList parts;
    if (m_order.opsLeftOut) parts << QString("%1 more operations").arg(m_order.opsLeftOut);
    if (m_order.phasesLeftOut) parts << QString("%1 more phase changes").arg(m_order.phasesLeftOut);
    if (m_order.racesLeftOut) parts << QString("%1 more races").arg(m_order.racesLeftOut);
    if (parts.isEmpty()) return {};
    return parts.join(", ") + QString(" not drawn (the first %1 of each are)").arg(async::kMaxTimelineItems);
}

const AsyncLanes::Item* AsyncLanes::hit(const QPointF& pt) const {
    const std::vector<Item>& all = items();
    for (auto it = all.rbegin(); it != all.rend(); ++it) // races, then ticks, then spans (topmost first)
        if (it->rect.adjusted(-1, -1, 1, 1).contains(pt)) return &*it;
    return nullptr;
}

bool AsyncLanes::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* he = static_cast<QHelpEvent*>(e);
        if (const Item* it = hit(he->pos()))
            QToolTip::showText(he->globalPos(), it->tip, this);
        else if (const QString more = leftOutNote(); !more.isEmpty())
            QToolTip::showText(he->globalPos(), more, this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(e);
}

void AsyncLanes::mousePressEvent(QMouseEvent* e) {
    if (const Item* it = hit(e->position())) emit instrActivated(it->instr);
    QWidget::mousePressEvent(e);
}

} // namespace layoutscope::views
