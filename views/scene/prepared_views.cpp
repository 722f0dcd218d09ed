#include "scene/prepared_views.hpp"

#include "layoutscope/scenario/order_timeline.hpp"

namespace layoutscope::views {

std::unique_ptr<PreparedViews> prepareViews(const Document& doc) {
    if (!doc.hasTrace()) return nullptr;
    auto p = std::make_unique<PreparedViews>();
    p->frames = boxFrames(doc);
    const uint32_t last = doc.trace().stepCount;
    p->replay = std::make_unique<Replay>(doc.trace(), doc.initial());
    p->replay->seek(last);
    (void)p->smem.sceneAt(doc, last, p->frames, 0, 0);
    p->tiles = smemTiles(doc);
    if (doc.scenario()) p->order = orderTimeline(*doc.scenario(), doc.run());
    return p;
}

} // namespace layoutscope::views
