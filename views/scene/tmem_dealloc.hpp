#pragma once
/// Allocation frames end at tcgen05.dealloc (issue 24 item 6: the frame stayed after dealloc). Plain C++.
#include "scene/tmem_scene.hpp"

#include <vector>

namespace layoutscope::views {

/// Remove from `allocs` (recorded by tcgen05.alloc moves before `step`) every allocation a tcgen05.dealloc
/// of the trace has freed by `step`. A dealloc moves no data; its trace instruction's summary says what it
/// freed ("tcgen05.dealloc N columns at column C"). The summary names no CTA: the first allocation of those
/// columns made before the dealloc is the one freed.
void dropDeallocated(const Trace& t, uint32_t step, std::vector<TmemAllocBox>& allocs);

} // namespace layoutscope::views
