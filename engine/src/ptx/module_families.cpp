// Which instructions of a module are data movement (or its consumers) that `check` must name when it
// does not validate them (docs/ptx-modules.md "What checkPtxModule reports"): the families of issue
// 21 item 1, by their PTX ISA names. Anything else (arithmetic, control flow, mov, ld.param, ...) is
// counted as "not checked" without being named.
#include "ptx/module_internal.hpp"

#include <algorithm>
#include <array>

namespace layoutscope::ptxmod {

namespace {

bool startsWith(std::string_view s, std::string_view p) {
    return s.size() >= p.size() && s.substr(0, p.size()) == p;
}

/// `p` followed by the end or by a `.` qualifier: "cp.async" matches "cp.async.ca.shared" but not
/// "cp.asyncx".
bool namePrefix(std::string_view opcode, std::string_view p) {
    return startsWith(opcode, p) && (opcode.size() == p.size() || opcode[p.size()] == '.');
}

} // namespace

std::string dataMovementFamily(std::string_view opcode) {
    // Longest names first: the family is the most specific PTX ISA instruction name that matches.
    static constexpr std::array<std::string_view, 36> kNames = {
        "cp.reduce.async.bulk.tensor", // §9.7.9.27.1.3
        "cp.reduce.async.bulk",        // §9.7.9.27.1.2 (bulk copy and reduce)
        "cp.async.bulk.prefetch.tensor",
        "cp.async.bulk.prefetch",
        "cp.async.bulk.tensor",
        "cp.async.bulk.commit_group",
        "cp.async.bulk.wait_group",
        "cp.async.bulk",
        "cp.async.mbarrier.arrive",
        "cp.async.commit_group",
        "cp.async.wait_group",
        "cp.async.wait_all",
        "cp.async", // sm_80 non-bulk copies, §9.7.9.25
        "wgmma.mma_async.sp",
        "wgmma.mma_async",
        "wgmma.fence",
        "wgmma.commit_group",
        "wgmma.wait_group",
        "ldmatrix",
        "stmatrix",
        "movmatrix",
        "mma.sp",
        "mma",
        "fence.proxy",
        "fence.mbarrier_init",
        "barrier.cluster",
        "elect.sync",
        "prefetchu",
        "prefetch",
        "multimem",
        "st.async",
        "red.async",
        "st.bulk",
        "tensormap.replace",
        "tensormap.cp_fenceproxy",
        "applypriority",
    };
    // `mma.sp::ordered_metadata` (§9.7.14.6) is mma.sp with its metadata order, not a dense mma.sync.
    if (startsWith(opcode, "mma.sp::")) return "mma.sp";
    for (std::string_view n : kNames)
        if (namePrefix(opcode, n)) {
            if (n == "mma" && opcode.find(".sync") == std::string_view::npos) return "mma";
            return std::string(n == "mma" ? "mma.sync" : n);
        }
    // Every tcgen05.* and mbarrier.* instruction: the family is the name with its first qualifier.
    for (std::string_view head : {"tcgen05", "mbarrier"})
        if (namePrefix(opcode, head)) {
            const size_t end = opcode.find('.', head.size() + 1);
            return std::string(opcode.substr(0, end));
        }
    // ld/st/atom/red on shared memory (§9.7.9.8 ld, §9.7.9.10 st): a `.shared` state space among the
    // qualifiers.
    for (std::string_view head : {"ld", "ldu", "st", "atom", "red"})
        if (namePrefix(opcode, head)) {
            const size_t sh = opcode.find(".shared");
            if (sh == std::string_view::npos) return "";
            size_t end = opcode.find('.', sh + 1);
            return std::string(head) +
                   std::string(opcode.substr(sh, end == std::string_view::npos ? end : end - sh));
        }
    return "";
}

} // namespace layoutscope::ptxmod
