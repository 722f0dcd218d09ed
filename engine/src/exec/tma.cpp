// TMA and bulk copies (PTX ISA 9.2 §9.7.9.25): cp.async.bulk.tensor, cp.reduce.async.bulk.tensor,
// cp.async.bulk.prefetch.tensor, cp.async.bulk, the bulk async-groups. Decoded (decode_async.cpp); not
// executed yet: the run stops at the first one with its line.
#include "exec/args_struct.hpp"
#include "exec/decode_async.hpp"
#include "exec/mbarrier.hpp"

namespace layoutscope::exec {

bool execCopy(Machine& m, Warp& w, const Op& op, uint32_t exec) {
    (void)w;
    (void)exec;
    return m.fail(op, DiagCode::Unsupported, "TMA and bulk copies are not executed yet; the run stops here");
}

} // namespace layoutscope::exec
