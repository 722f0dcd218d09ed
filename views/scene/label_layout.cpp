#include "scene/label_layout.hpp"

#include <utility>

namespace layoutscope::views {

size_t dropOverlappingTexts(OverlayList& o, size_t from) {
    std::vector<OverlayList::Text> kept;
    kept.reserve(o.texts.size());
    size_t dropped = 0;
    for (size_t i = 0; i < o.texts.size(); ++i) {
        OverlayList::Text& t = o.texts[i];
        bool drop = false;
        if (i >= from) {
            drop = t.text.empty();
            for (size_t k = 0; k < kept.size() && !drop; ++k) drop = textsOverlap(kept[k], t);
        }
        if (drop)
            ++dropped;
        else
            kept.push_back(std::move(t));
    }
    o.texts = std::move(kept);
    return dropped;
}

std::vector<std::pair<size_t, size_t>> overlappingTexts(const OverlayList& o) {
    std::vector<std::pair<size_t, size_t>> out;
    for (size_t i = 0; i < o.texts.size(); ++i)
        for (size_t j = i + 1; j < o.texts.size(); ++j)
            if (!o.texts[i].text.empty() && !o.texts[j].text.empty() && textsOverlap(o.texts[i], o.texts[j]))
                out.emplace_back(i, j);
    return out;
}

} // namespace layoutscope::views
