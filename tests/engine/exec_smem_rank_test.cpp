// The executor's shared-memory address map in a cluster (PTX ISA 9.2 §5.1.5 shared state space, §9.7.9.16
// mapa, §9.7.9.25 cp.async.bulk.tensor .cta_group::2). Rule under test: the CTA of %cluster_ctarank r has
// its shared memory at r << 24 | offset in .shared::cta as in .shared::cluster, so clearing bit 24 of a
// CTA's own shared::cta address (CUTLASS Sm100MmaPeerBitMask, 0xFEFFFFFF) names the same variable in the
// even CTA of its pair. Expectations are derived by hand from that rule and the tensor's contents.
#include "exec_test_util.hpp"

using namespace exectest;

namespace {

const std::string kHeader = ".version 8.6\n.target sm_100a\n.address_size 64\n";

Launch clusterLaunch(uint32_t ctas, uint32_t threads) {
    Launch l;
    l.block = {threads, 1, 1};
    l.grid = {ctas, 1, 1};
    l.cluster = {ctas, 1, 1};
    return l;
}

} // namespace

TEST_CASE("exec shared addresses carry the CTA's rank at bit 24; mapa and the peer mask follow it",
          "[exec][exec_smem_rank]") {
    // Each CTA of a 4-CTA cluster stores: its shared::cta address of `data`, mapa of it to ranks 0..3,
    // the address with bit 24 cleared, and cvta.to.shared(cvta.shared(address)).
    const std::string ptx = kHeader + R"(
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<32>;
    .reg .b64 %rd<32>;
    .shared .align 8 .b8 pad[40];
    .shared .align 8 .b8 data[64];
    ld.param.u64 %rd0, [out];
    mov.u32 %r1, %cluster_ctarank;
    mul.wide.u32 %rd1, %r1, 64;
    add.s64 %rd0, %rd0, %rd1;
    mov.u32 %r2, data;
    st.global.u32 [%rd0], %r2;
    mapa.shared::cluster.u32 %r3, %r2, 0;
    st.global.u32 [%rd0+4], %r3;
    mapa.shared::cluster.u32 %r3, %r2, 1;
    st.global.u32 [%rd0+8], %r3;
    mapa.shared::cluster.u32 %r3, %r2, 2;
    st.global.u32 [%rd0+12], %r3;
    mapa.shared::cluster.u32 %r3, %r2, 3;
    st.global.u32 [%rd0+16], %r3;
    and.b32 %r4, %r2, -16777217;
    st.global.u32 [%rd0+20], %r4;
    cvt.u64.u32 %rd2, %r2;
    cvta.shared.u64 %rd3, %rd2;
    cvta.to.shared.u64 %rd4, %rd3;
    cvt.u32.u64 %r5, %rd4;
    st.global.u32 [%rd0+24], %r5;
    ret;
}
)";
    Launch l = clusterLaunch(4, 1);
    l.args.push_back(tensorArg<uint32_t>("out", "u32", std::vector<uint32_t>(64, 0)));
    auto r = runText(ptx, l);
    if (!r) FAIL(formatDiagnostic(r.error()));
    const auto out = values<uint32_t>(*r, "out");
    const uint32_t off = out[0] & 0xFFFFFF; // the offset of `data` (the layout of statics is the decoder's)
    REQUIRE(off >= 40);
    for (uint32_t rank = 0; rank < 4; ++rank) {
        const uint32_t* o = &out[rank * 16];
        INFO("CTA rank " << rank);
        CHECK(o[0] == (rank << 24 | off)); // its own shared::cta address carries its rank
        for (uint32_t q = 0; q < 4; ++q) CHECK(o[1 + q] == (q << 24 | off)); // mapa to rank q
        CHECK(o[5] == ((rank & ~1u) << 24 | off)); // bit 24 cleared: the even CTA of the pair
        CHECK(o[6] == o[0]);                       // the generic window round-trips
    }
}

TEST_CASE("exec TMA .cta_group::2: both CTAs of a pair complete_tx on the leader's barrier",
          "[exec][exec_smem_rank][exec_tma]") {
    // A 2-CTA cluster. CTA 0 (the leader) inits its barrier (count 1) and expects 2 x 2048 bytes; each CTA r
    // loads a 64 x 16 u16 box (rows 16r..16r+15) into its own `tile`, naming the barrier as its own address
    // with bit 24 cleared (as CUTLASS's SM100_TMA_2SM_LOAD does). The leader's phase 0 completes only if
    // both loads signal it; CTA 1's barrier is never initialised (a signal there would fail the run).
    const std::string ptx = kHeader + R"(
.visible .entry k(.param .align 64 .b8 map[128], .param .u64 out, .param .u64 flag)
{
    .reg .b32 %r<32>;
    .reg .b64 %rd<32>;
    .reg .pred %p<8>;
    .shared .align 128 .b8 tile[2048];
    .shared .align 8 .b8 bar[8];
    ld.param.u64 %rd0, [out];
    mov.u32 %r0, %tid.x;
    mov.u32 %r1, %cluster_ctarank;
    mov.u32 %r2, bar;
    mov.u32 %r3, tile;
    setp.eq.u32 %p1, %r0, 0;
    setp.eq.u32 %p2, %r1, 0;
    and.pred %p3, %p1, %p2;
    @%p3 mbarrier.init.shared::cta.b64 [%r2], 1;
    fence.mbarrier_init.release.cluster;
    barrier.cluster.arrive.release.aligned;
    barrier.cluster.wait.acquire.aligned;
    @%p3 mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 4096;
    and.b32 %r4, %r2, -16777217;
    mul.lo.u32 %r5, %r1, 16;
    mov.u32 %r6, 0;
    @%p1 cp.async.bulk.tensor.2d.cta_group::2.shared::cluster.global.mbarrier::complete_tx::bytes [%r3], [map, {%r6, %r5}], [%r4];
    @!%p2 bra SYNC;
WAIT:
    mbarrier.try_wait.parity.shared::cta.b64 %p4, [%r2], 0;
    @!%p4 bra WAIT;
    @!%p1 bra SYNC;
    ld.param.u64 %rd5, [flag];
    mov.u32 %r7, 1;
    st.global.u32 [%rd5], %r7;
SYNC:
    barrier.cluster.arrive.release.aligned;
    barrier.cluster.wait.acquire.aligned;
    mul.wide.u32 %rd1, %r1, 2048;
    add.s64 %rd0, %rd0, %rd1;
    mul.lo.u32 %r8, %r0, 64;
    add.u32 %r9, %r3, %r8;
    cvt.u64.u32 %rd2, %r8;
    add.s64 %rd3, %rd0, %rd2;
    mov.u32 %r10, 0;
COPY:
    ld.shared.u32 %r11, [%r9];
    st.global.u32 [%rd3], %r11;
    add.u32 %r9, %r9, 4;
    add.s64 %rd3, %rd3, 4;
    add.u32 %r10, %r10, 1;
    setp.lt.u32 %p5, %r10, 16;
    @%p5 bra COPY;
    ret;
}
)";
    Launch l = clusterLaunch(2, 32);
    auto t = parseExecTensor("T=tensor:u16[128,128]:index"); // element (y, x) holds y * 128 + x
    REQUIRE(t);
    l.tensors.push_back(*t);
    auto map = parseExecArg("0=tensormap:tiled UINT16 dims=[128,128] strides=[256] box=[64,16] address=T");
    REQUIRE(map);
    l.args.push_back(*map);
    l.args.push_back(tensorArg<uint8_t>("1", "u8", std::vector<uint8_t>(2 * 2048, 0xEE)));
    l.args.push_back(tensorArg<uint32_t>("2", "u32", std::vector<uint32_t>(1, 0)));
    auto r = runText(ptx, l);
    if (!r) FAIL(formatDiagnostic(r.error()));
    CHECK(values<uint32_t>(*r, "2")[0] == 1); // the leader's phase 0 completed
    const auto out = values<uint16_t>(*r, "1");
    REQUIRE(out.size() == 2 * 1024);
    for (uint32_t rank = 0; rank < 2; ++rank)
        for (uint32_t i = 0; i < 16; ++i)
            for (uint32_t c = 0; c < 64; ++c) {
                INFO("CTA " << rank << " row " << i << " col " << c);
                REQUIRE(out[rank * 1024 + i * 64 + c] == uint16_t((16 * rank + i) * 128 + c));
            }
}
