#include "scene/prepared_views.hpp"

#include "layoutscope/scenario/order_timeline.hpp"

namespace layoutscope::views {

std::unique_ptr<Replay> replayAtEnd(const Document& doc) {
    const Trace& t = doc.trace();
    const Run& run = doc.run();
    if (doc.scenario() && t.firstUntraced() == t.instrs.size() &&
        run.final.smem.size() == run.initial.smem.size()) {
        MachineState end = run.initial; // what Replay keeps of the initial state (its mbarriers), then
        end.smem = run.final.smem;      // the memory the moves change: shared::cta and global
        end.global = run.final.global;
        return std::make_unique<Replay>(t, std::move(end), t.stepCount);
    }
    auto r = std::make_unique<Replay>(t, doc.initial());
    r->seek(t.stepCount);
    return r;
}

std::unique_ptr<PreparedViews> prepareViews(const Document& doc) {
    if (!doc.hasTrace()) return nullptr;
    auto p = std::make_unique<PreparedViews>();
    p->frames = boxFrames(doc);
    const uint32_t last = doc.trace().stepCount;
    p->replay = replayAtEnd(doc);
    (void)p->smem.sceneAt(doc, last, p->frames, 0, 0);
    p->tiles = smemTiles(doc);
    if (doc.scenario()) p->order = orderTimeline(*doc.scenario(), doc.run());
    return p;
}

} // namespace layoutscope::views
