// Bulk-copy families beyond cp.async.bulk.tensor: cp.async.bulk, cp.reduce.async.bulk,
// cp.async.bulk.prefetch.L2, commit_group / wait_group, cp.reduce.async.bulk.tensor and
// cp.async.bulk.prefetch.tensor, and the targets ptxas 13.0 knows beyond the first eleven. Every
// verdict below is what CUDA 13.0 ptxas said for the same text in the golden/ptxas wrapper kernel
// (recorded by scripts/ptxas-diff/run_ptxas.py; the full set is tests/data/ptxas_bulk/bulk.jsonl.gz).
#include "ptx_test_util.hpp"

using namespace layoutscope;
using namespace layoutscope::test;

TEST_CASE("cp.async.bulk: the four copy directions and what each may add", "[ptx][validate][bulk]") {
    SECTION("sm_100a, PTX 9.0") {
        runTable({
            {"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [smem], [%rd0], %r1, [mbar];",
             true, "global to cluster"},
            {"cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [smem], [%rd0], %r1, [mbar];",
             true, "global to cta"},
            {"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_"
             "hint "
             "[smem], [%rd0], %r1, [mbar], %h1, %rd1;",
             true, "multicast with cache hint"},
            {"cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [smem], [smem], %r1, "
             "[mbar];",
             true, "cta to cluster"},
            {"cp.async.bulk.global.shared::cta.bulk_group [%rd0], [smem], %r1;", true, "store"},
            {"cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.cp_mask [%rd0], [smem], %r1, %rd1, "
             "%h1;",
             true, "store with hint and byte mask"},
            {"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster.cta_group:"
             ":1 "
             "[smem], [%rd0], %r1, [mbar], %h1;",
             false, "Illegal modifier '.cta_group::1'"},
            {"cp.async.bulk.global.shared::cta.bulk_group [smem], [smem], %r1;", false,
             "State space mismatch (shared symbol as the global destination)"},
            {"cp.async.bulk.global.shared::cta.bulk_group [%rd0], [16], %r1;", false, "Immediate addresses"},
            {"cp.async.bulk.global.shared::cta.bulk_group [%rd0], [smem], %rd1;", false,
             "Arguments mismatch (64-bit size)"},
            {"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [smem], [%rd0], %r1, [%h2];",
             false, "must be register (16-bit mbarrier)"},
            {"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [mbar+8], [%rd0], %r1, "
             "[mbar];",
             true, "symbol+offset destination"},
            {"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [smem], "
             "[%rd0], "
             "%r1, [mbar], %r1;",
             false, "32-bit ctaMask"},
        });
    }
    SECTION("the .cp_mask target gate and the .shared::cta destination version gate") {
        const char* mask = "cp.async.bulk.global.shared::cta.bulk_group.cp_mask [%rd0], [smem], %r1, %h1;";
        CHECK_FALSE(accepted(mask, tgt("sm_90a")));
        CHECK_FALSE(accepted(mask, tgt("sm_90")));
        CHECK(accepted(mask, tgt("sm_120a")));
        CHECK_THAT(firstMessage(mask, tgt("sm_90a")), Catch::Contains("sm_100a"));
        const char* cta =
            "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [smem], [%rd0], %r1, [mbar];";
        CHECK_FALSE(accepted(cta, tgt("sm_90a", 8, 0)));
        CHECK(accepted(cta, tgt("sm_100a", 8, 6)));
    }
}

TEST_CASE("cp.reduce.async.bulk: the types each reduction takes, per destination", "[ptx][validate][bulk]") {
    // ptxas 13.0 on sm_100a@9.0 and sm_90a@8.0 (identical), every op x type x .noftz.
    struct Cell {
        const char* op;
        const char* toCluster;
        const char* toGlobal;
    };
    const Cell cells[] = {
        {"add", "u32 s32 u64", "u32 s32 u64 f32 f64"},
        {"min", "u32 s32", "u32 s32 u64 s64 f16 bf16"},
        {"max", "u32 s32", "u32 s32 u64 s64 f16 bf16"},
        {"inc", "u32", "u32"},
        {"dec", "u32", "u32"},
        {"and", "b32", "b32 b64"},
        {"or", "b32", "b32 b64"},
        {"xor", "b32", "b32 b64"},
    };
    const char* types[] = {"b32", "u32", "s32", "b64", "u64", "s64", "f16", "bf16", "f32", "f64"};
    auto listed = [](const char* list, const std::string& t) {
        return (" " + std::string(list) + " ").find(" " + t + " ") != std::string::npos;
    };
    for (const Cell& c : cells)
        for (const char* t : types) {
            SECTION(std::string(c.op) + "." + t) {
                const std::string g = std::string("cp.reduce.async.bulk.global.shared::cta.bulk_group.") +
                                      c.op + "." + t + " [%rd0], [smem], %r1;";
                const std::string s =
                    std::string("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::"
                                "complete_tx::bytes.") +
                    c.op + "." + t + " [smem], [smem], %r1, [mbar];";
                INFO(g);
                CHECK(accepted(g) == listed(c.toGlobal, t));
                INFO(s);
                CHECK(accepted(s) == listed(c.toCluster, t));
            }
        }
    SECTION(".noftz: only .add.noftz.f16 / .bf16 into global") {
        CHECK(accepted(
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.f16 [%rd0], [smem], %r1;"));
        CHECK(accepted(
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.bf16 [%rd0], [smem], %r1;"));
        CHECK_FALSE(accepted(
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.f32 [%rd0], [smem], %r1;"));
        CHECK_FALSE(accepted(
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.min.noftz.f16 [%rd0], [smem], %r1;"));
        CHECK_THAT(
            firstMessage("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f16 [%rd0], [smem], %r1;"),
            Catch::Contains(".add.noftz.f16"));
    }
}

TEST_CASE("cp.async.bulk.prefetch.L2, commit_group and wait_group", "[ptx][validate][bulk]") {
    runTable({
        {"cp.async.bulk.prefetch.L2.global [%rd0], %r1;", true, "plain"},
        {"cp.async.bulk.prefetch.L2.global.L2::cache_hint [%rd0], %r1, %rd1;", true, "hint"},
        {"cp.async.bulk.prefetch.L2.global [smem], %r1;", false, "State space mismatch"},
        {"cp.async.bulk.prefetch.L2.global [%rd0], %rd1;", false, "64-bit size"},
        {"cp.async.bulk.commit_group;", true, "commit"},
        {"cp.async.bulk.commit_group 0;", false, "Arguments mismatch"},
        {"cp.async.bulk.wait_group.read 0;", true, "read"},
        {"cp.async.bulk.wait_group 64;", true, "no range check"},
        {"cp.async.bulk.wait_group %r1;", false, "register"},
        {"cp.async.bulk.wait_group.read.read 0;", false, "Multiple .read modifiers"},
    });
}

TEST_CASE("cp.reduce.async.bulk.tensor and cp.async.bulk.prefetch.tensor", "[ptx][validate][bulk]") {
    SECTION("sm_100a") {
        runTable({
            {"cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile.bulk_group [%rd0, {%r1}], [smem];",
             true, "tile"},
            {"cp.reduce.async.bulk.tensor.1d.global.shared::cta.bulk_group.add [%rd0, {%r1}], [smem];", true,
             "mode omitted, op after completion"},
            {"cp.reduce.async.bulk.tensor.3d.global.shared::cta.xor.im2col_no_offs.bulk_group [%rd0, {%r1, "
             "%r2, "
             "%r3}], [smem];",
             true, "im2col_no_offs"},
            {"cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile::scatter4.bulk_group [%rd0, {%r1, "
             "%r2, %r3, "
             "%r4, %r5}], [smem];",
             true, "scatter4"},
            {"cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.f32.tile.bulk_group [%rd0, {%r1}], "
             "[smem];",
             false, "Unexpected instruction types"},
            {"cp.async.bulk.prefetch.tensor.2d.L2.global [%rd0, {%r1, %r2}];", true, "mode omitted"},
            {"cp.async.bulk.prefetch.tensor.3d.L2.global.im2col [%rd0, {%r1, %r2, %r3}], {%h1};", true,
             "im2col"},
            {"cp.async.bulk.prefetch.tensor.2d.L2.global.tile::gather4 [%rd0, {%r1, %r2, %r3, %r4, %r5}];",
             true, "gather4"},
            {"cp.async.bulk.prefetch.tensor.2d.L2.global.tile.L2::cache_hint [%rd0, {%r1, %r2}], %rd1;", true,
             "hint"},
        });
    }
    SECTION("sm_90a and sm_120a lack scatter4, gather4 and im2col::w") {
        for (const char* sm : {"sm_90a", "sm_120a", "sm_90"}) {
            INFO(sm);
            CHECK_FALSE(
                accepted("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile::scatter4.bulk_group "
                         "[%rd0, {%r1, %r2, %r3, %r4, %r5}], [smem];",
                         tgt(sm)));
            CHECK_FALSE(accepted(
                "cp.async.bulk.prefetch.tensor.3d.L2.global.im2col::w [%rd0, {%r1, %r2, %r3}], {%h1, %h2};",
                tgt(sm)));
            CHECK(accepted("cp.async.bulk.prefetch.tensor.1d.L2.global.tile [%rd0, {%r1}];", tgt(sm)));
        }
    }
    SECTION("no advice that turns the instruction into a broken cp.async.bulk.tensor") {
        const std::string m = firstMessage("cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.f32.tile."
                                           "bulk_group [%rd0, {%r1}], [smem];");
        CHECK_THAT(m, !Catch::Contains("did you mean `cp.async.bulk.tensor`"));
        CHECK_THAT(m, Catch::Contains("element type"));
    }
}

TEST_CASE("targets ptxas 13.0 knows beyond the first eleven", "[ptx][validate][bulk][targets]") {
    // `ptxas --help` -arch values; each target's lowest .version and its verdicts over the public
    // golden texts (sm_103f/sm_110f as sm_100f, sm_120f/sm_121a/sm_121f/sm_121 as sm_120a), ptxas 13.0.
    SECTION("the lowest .version") {
        CHECK(validateTargetVersion(tgt("sm_103f", 8, 8)).ok());
        CHECK_FALSE(validateTargetVersion(tgt("sm_103f", 8, 7)).ok());
        CHECK(validateTargetVersion(tgt("sm_110f", 9, 0)).ok());
        CHECK_FALSE(validateTargetVersion(tgt("sm_110f", 8, 8)).ok());
        for (const char* sm : {"sm_120f", "sm_121", "sm_121a", "sm_121f"}) {
            INFO(sm);
            CHECK(validateTargetVersion(tgt(sm, 8, 8)).ok());
            CHECK_FALSE(validateTargetVersion(tgt(sm, 8, 7)).ok());
        }
    }
    SECTION("tcgen05 on the family targets; not tcgen05.shift (as sm_100f)") {
        const char* ld = "tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r1}, [%r0];";
        for (const char* sm : {"sm_103f", "sm_110f"}) {
            INFO(sm);
            CHECK(accepted(ld, tgt(sm)));
            CHECK_FALSE(accepted("tcgen05.shift.cta_group::1.down [%r0];", tgt(sm)));
        }
        for (const char* sm : {"sm_120f", "sm_121a", "sm_121f", "sm_121"}) {
            INFO(sm);
            CHECK_FALSE(accepted(ld, tgt(sm)));
            CHECK(accepted(
                "cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [smem], "
                "[%rd0, {%r1}], [mbar];",
                tgt(sm)));
        }
    }
}
