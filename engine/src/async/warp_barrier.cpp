// Model::warpBarrier (async.hpp): bar.warp.sync / __syncwarp. PTX ISA 9.2 §9.7.13.2 (bar.warp.sync):
// "guarantees memory ordering among threads participating in barrier", so every member's accesses before it
// happen before every member's accesses after it, as a CTA barrier does for its threads
// (Model::clusterBarrier).
#include "async/model_impl.hpp"

namespace layoutscope::async {

void Model::warpBarrier(const std::vector<Site>& members) {
    Clock joined;
    std::vector<ThreadRec*> live;
    for (const Site& s : members) (void)m->thread(s.thread); // every member known (may grow the vector)
    for (const Site& s : members) {
        ThreadRec& t = m->thread(s.thread);
        if (!t.hung) live.push_back(&t);
    }
    for (ThreadRec* t : live) join(joined, t->clock);
    for (ThreadRec* t : live) {
        t->clock = joined;
        m->tick(*t);
    }
}

} // namespace layoutscope::async
