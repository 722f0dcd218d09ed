#include "scene/prepared_views.hpp"

#include "layoutscope/scenario/order_timeline.hpp"

#include <future>
#include <utility>

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

std::unique_ptr<PreparedViews> prepareViews(const Document& doc, bool twoThreads) {
    if (!doc.hasTrace()) return nullptr;
    auto p = std::make_unique<PreparedViews>();
    // The async lanes (the async model fed the whole run again) and the loaded tiles on a second thread,
    // beside the frames and the scene: the two halves take about as long (~0.1 s each for 10,000 tile loads),
    // so the document comes that much sooner where a core is free (issue 25 item 11). They read `doc` only
    // (the move table's one cached hint is atomic). Where no thread can start, the future runs it at get(),
    // here.
    const auto policy = twoThreads ? std::launch::async | std::launch::deferred : std::launch::deferred;
    auto side = std::async(policy, [&doc] {
        std::pair<std::vector<SmemTile>, async::Timeline> r;
        r.first = smemTiles(doc);
        if (doc.scenario()) r.second = orderTimeline(*doc.scenario(), doc.run());
        return r;
    });
    p->frames = boxFrames(doc);
    p->replay = replayAtEnd(doc);
    (void)p->smem.sceneAt(doc, doc.trace().stepCount, p->frames, 0, 0);
    auto [tiles, order] = side.get(); // its bad_alloc, if any, is thrown here (RT_check catches it)
    p->tiles = std::move(tiles);
    p->order = std::move(order);
    return p;
}

} // namespace layoutscope::views
