// Live sample of the bulk-copy differential suite: forms LLVM's NVPTX backend emits
// (llvm/test/CodeGen/NVPTX/cp-async-bulk*.ll CHECK lines, registers renamed to the golden/ptxas
// wrapper's) and one-token mutations of them, assembled by the installed ptxas for a few targets;
// the validator must agree on every one. The committed record of the whole suite is
// tests/data/ptxas_bulk/bulk.jsonl.gz (ctest conform.ptxas.bulk). Skipped when ptxas is absent.
#include "layoutscope/ptx/validate.hpp"

#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "ptxas_live_sample.hpp"
#include "ptxas_path.hpp"

using namespace layoutscope;

namespace {

const std::vector<const char*> kSample = {
    "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r2], [%rd0], %r1, [%r3];",
    "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint "
    "[%r2], "
    "[%rd0], %r1, [%r3], %h1, %rd1;",
    "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes.L2::cache_hint [%r2], [%rd0], %r1, [%r3], "
    "%rd1;",
    "cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.cp_mask [%rd0], [%r2], %r1, %rd1, %h1;",
    "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%r2], [%r3], %r1, [%r4];",
    "cp.async.bulk.prefetch.L2.global.L2::cache_hint [%rd0], %r1, %rd1;",
    "cp.reduce.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.add.noftz.bf16 [%rd0], [%r2], %r1, "
    "%rd1;",
    "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32 [%r2], [%r3], "
    "%r1, [%r4];",
    "cp.reduce.async.bulk.tensor.3d.global.shared::cta.max.im2col_no_offs.bulk_group.L2::cache_hint [%rd0, "
    "{%r1, "
    "%r2, %r3}], [%r4], %rd1;",
    "cp.async.bulk.prefetch.tensor.4d.L2.global.im2col::w::128.L2::cache_hint [%rd0, {%r1, %r2, %r3, %r4}], "
    "{%h1, "
    "%h2}, %rd1;",
    "cp.async.bulk.prefetch.tensor.2d.L2.global.tile::gather4 [%rd0, {%r1, %r2, %r3, %r4, %r5}];",
    // one-token mutations
    "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%r2], [%rd0], "
    "%r1, [%r3];",
    "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes.multicast::cluster [%r2], [%rd0], %r1, "
    "[%r3], %h1;",
    "cp.async.bulk.global.shared::cta.mbarrier::complete_tx::bytes [%rd0], [%r2], %r1;",
    "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f16 [%rd0], [%r2], %r1;",
    "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.and.b64 [%r2], [%r3], "
    "%r1, [%r4];",
    "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile::gather4.bulk_group [%rd0, {%r1, %r2, %r3, "
    "%r4, "
    "%r5}], [%r4];",
    "cp.async.bulk.prefetch.tensor.3d.L2.global.im2col [%rd0, {%r1, %r2, %r3}];",
    "cp.async.bulk.prefetch.L2.shared::cta [%r2], %r1;",
    "cp.async.bulk.wait_group %r1;",
};

} // namespace

TEST_CASE(
    "bulk copies: the validator agrees with the installed ptxas on a live sample (skipped without ptxas)",
    "[ptx][validate][bulk][ptxas]") {
    const std::string ptxas = test::findPtxas();
    if (ptxas.empty()) {
        WARN("SKIPPED: ptxas not found on PATH or at /usr/local/cuda/bin/ptxas; live bulk sample not run");
        return;
    }
    test::checkLiveSample(ptxas, "bulk", {"sm_90a", "sm_100a", "sm_120f"}, kSample);
}
