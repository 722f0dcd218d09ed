// Live sample of the front-end families' differential suite (wgmma, cp.async, elect.sync,
// barrier.cluster, fence.proxy / fence.mbarrier_init, the further mbarrier forms, ld/st on shared
// memory, ldmatrix / stmatrix / movmatrix): valid forms and one-token mutations, assembled by the installed
// ptxas in the golden/ptxas wrapper for a few targets (sm_80 and sm_75 too); the validator must agree on
// every one. The committed record of the whole suite is tests/data/ptxas_front/front.jsonl.gz (ctest
// conform.ptxas.front). Skipped when ptxas is absent.
#include "layoutscope/ptx/validate.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "ptxas_live_sample.hpp"
#include "ptxas_path.hpp"

using namespace layoutscope;

namespace {

const std::vector<const char*> kSample = {
    // valid forms (as the CuTe tutorials and CCCL write them)
    "wgmma.mma_async.sync.aligned.m64n64k16.f16.f16.f16 {%r10, %r11, %r12, %r13, %r14, %r15, %r16, %r17, "
    "%r18, %r19, %r20, %r21, %r22, %r23, %r24, %r25}, %rd1, %rd2, %p1, 1, 1, 1, 1;",
    "wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.u8 {%r10, %r11, %r12, %r13}, {%r1, %r2, %r3, %r4}, %rd2, "
    "%p1;",
    "wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.bf16.bf16 {%r10, %r11, %r12, %r13}, %rd1, %rd2, %r5, 0, "
    "%p1, 1, 1, 0, 0;",
    "wgmma.fence.sync.aligned;",
    "wgmma.wait_group.sync.aligned 1;",
    "cp.async.ca.shared.global.L2::128B [smem], [%rd0], 8;",
    "cp.async.cg.shared.global.L2::cache_hint [smem], [%rd0], 16, %r2, %rd1;",
    "cp.async.wait_all;",
    "cp.async.mbarrier.arrive.noinc.shared.b64 [mbar];",
    "elect.sync %r1|%p1, -1;",
    "barrier.cluster.arrive.release.aligned;",
    "fence.proxy.async.shared::cta;",
    "fence.proxy.tensormap::generic.acquire.gpu [%rd0], 128;",
    "fence.mbarrier_init.release.cluster;",
    "mbarrier.arrive.shared::cta.b64 _, [mbar];",
    "mbarrier.arrive_drop.release.cluster.shared::cluster.b64 _, [mbar], %r1;",
    "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [mbar], %r1;",
    "ld.shared.v2.u32 {%r1, %r2}, [smem+8];",
    "st.shared::cluster.u32 [%r3], %r1;",
    "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%r1, %r2, %r3, %r4}, [smem];",
    "ldmatrix.sync.aligned.m16n16.x1.trans.b8x16.b6x16_p32 {%r1, %r2}, [smem];",
    "stmatrix.sync.aligned.m16n8.x2.trans.shared::cta.b8 [smem], {%r1, %r2};",
    "movmatrix.sync.aligned.m8n8.trans.b16 %r1, %r2;",
    "mbarrier.test_wait.parity.shared.b64 %p1, [mbar], %r1;", // sm_80's
    "mbarrier.arrive.noComplete.shared.b64 %rd1, [mbar], 2;",
    "fence.sc.cluster;", // .cluster scope: sm_90
    // one-token mutations
    "wgmma.mma_async.sync.aligned.m64n64k8.f16.f16.f16 {%r10, %r11, %r12, %r13, %r14, %r15, %r16, %r17, "
    "%r18, %r19, %r20, %r21, %r22, %r23, %r24, %r25}, %rd1, %rd2, %p1, 1, 1, 1, 1;",
    "wgmma.fence.aligned;",
    "cp.async.cg.shared.global [smem], [%rd0], 8;",
    "cp.async.ca.global.shared [smem], [%rd0], 8;",
    "elect.sync %r1, -1;",
    "barrier.cluster.wait.release;",
    "fence.proxy.async.shared;",
    "mbarrier.arrive.shared::cluster.b64 %rd1, [mbar];",
    "ld.shared.v4.u64 {%rd1, %rd2, %rd3, %rd4}, [smem];",
    "ldmatrix.sync.aligned.m8n16.x1.trans.b8x16.b6x16_p32 {%r1}, [smem];",
    "stmatrix.sync.aligned.m8n8.x2.shared.b16 [smem], {%r1};",
};

} // namespace

TEST_CASE("front-end families: the validator agrees with the installed ptxas on a live sample (skipped "
          "without ptxas)",
          "[ptx][validate][front][ptxas]") {
    const std::string ptxas = test::findPtxas();
    if (ptxas.empty()) {
        WARN("SKIPPED: ptxas not found on PATH or at /usr/local/cuda/bin/ptxas; live front-end sample not "
             "run");
        return;
    }
    test::checkLiveSample(ptxas, "front", {"sm_90a", "sm_100a", "sm_80", "sm_75"}, kSample);
}
