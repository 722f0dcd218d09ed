// The event list's filter (issue 22 item 4): instruction families told from PTX opcodes (a table from
// the PTX ISA's instruction names, §9.7), and the warp filter over recorded origins.
#include "kernel_fixture.hpp"
#include "scene/instr_filter.hpp"

#include <catch2/catch.hpp>

using namespace layoutscope;
using namespace layoutscope::views;

TEST_CASE("Instruction families come from the PTX opcode", "[views][filter]") {
    const std::pair<const char*, InstrFamily> table[] = {
        {"cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [a], [m, {0, 0}], "
         "[b];",
         InstrFamily::Tma},
        {"@p cp.async.bulk.tensor.1d.global.shared::cta.bulk_group [m, {0}], [a];", InstrFamily::Tma},
        {"@!%p3 cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [m, {0, 0}], [a];",
         InstrFamily::Tma},
        {"cp.async.bulk.prefetch.tensor.2d.L2.global [m, {0, 0}];", InstrFamily::Tma},
        {"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [a], [g], 256, [b];",
         InstrFamily::BulkCopy},
        {"cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [g], [a], 64;", InstrFamily::BulkCopy},
        {"cp.async.ca.shared.global [a], [g], 16;", InstrFamily::CpAsync},
        {"cp.async.commit_group;", InstrFamily::CpAsync},
        {"mbarrier.try_wait.parity.shared::cta.b64 %p1, [b], 0;", InstrFamily::Mbarrier},
        {"  mbarrier.init.shared::cta.b64 [b], 1;", InstrFamily::Mbarrier},
        {"tcgen05.mma.cta_group::1.kind::f16 [%r1], %rd1, %rd2, %r2, p;", InstrFamily::Tcgen05Mma},
        {"tcgen05.ld.sync.aligned.32x32b.x4.b32 {%r1, %r2, %r3, %r4}, [%r5];", InstrFamily::Tcgen05},
        {"tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [a], 128;", InstrFamily::Tcgen05},
        {"wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%f1}, %rd1, %rd2, p, 1, 1, 0, 0;",
         InstrFamily::Wgmma},
        {"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1}, {%r1}, {%r2}, {%f2};",
         InstrFamily::MmaSync},
        {"ld.shared.v4.u32 {%r1, %r2, %r3, %r4}, [%r5];", InstrFamily::LdSt},
        {"st.global.u16 [%rd367], %rs678;", InstrFamily::LdSt},
        {"ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1, %r2, %r3, %r4}, [%r5];", InstrFamily::LdSt},
        {"atom.shared.add.u32 %r1, [%r2], 1;", InstrFamily::LdSt},
        {"fence.proxy.async.shared::cta;", InstrFamily::Other},
        {"bar.sync 0;", InstrFamily::Other},
    };
    for (const auto& [ptx, family] : table) {
        INFO(ptx);
        CHECK(instrFamilyOf(ptx) == family);
    }
    CHECK(std::string(instrFamilyName(InstrFamily::Tcgen05Mma)) == "tcgen05.mma");
}

TEST_CASE("The filter passes instructions by issuing warp and by family", "[views][filter]") {
    const auto doc = test::makeRecordedDocument();
    const Trace& t = doc->trace();
    auto passing = [&t](const InstrFilter& f) {
        std::vector<int> out;
        for (size_t i = 0; i < t.instrs.size(); ++i)
            if (f.passes(t.instrs[i])) out.push_back(int(i));
        return out;
    };
    SECTION("the default filter passes everything") {
        CHECK(InstrFilter{}.all());
        CHECK(passing({}) == std::vector<int>{0, 1, 2, 3});
    }
    SECTION("by warp (the fixture: warp 0 issued instr 0, warp 1 instrs 1 and 2, warp 2 instr 3)") {
        InstrFilter f;
        f.cta = 0;
        f.warp = 1;
        CHECK(passing(f) == std::vector<int>{1, 2});
        f.cta = 1; // no such CTA issued anything
        CHECK(passing(f).empty());
    }
    SECTION("by family") {
        InstrFilter f;
        f.families = 1u << uint32_t(InstrFamily::LdSt);
        CHECK(passing(f) == std::vector<int>{2, 3});
        f.families = 1u << uint32_t(InstrFamily::Tma);
        CHECK(passing(f) == std::vector<int>{0});
    }
    SECTION("a hand-written scenario's instruction (issuer unknown) fails a warp filter") {
        TraceInstr in;
        in.text = "st.shared.u32 [a], %r1;";
        InstrFilter f;
        CHECK(f.passes(in));
        f.warp = 0;
        CHECK_FALSE(f.passes(in));
    }
    SECTION("issuing warps and family counts") {
        const auto w = issuingWarps(t);
        REQUIRE(w.size() == 3);
        CHECK((w[0].cta == 0 && w[0].warp == 0 && w[0].instrs == 1));
        CHECK((w[1].cta == 0 && w[1].warp == 1 && w[1].instrs == 2));
        CHECK((w[2].cta == 0 && w[2].warp == 2 && w[2].instrs == 1));
        const auto n = familyCounts(instrFamilies(t, {}));
        CHECK(n[size_t(InstrFamily::Tma)] == 1);
        CHECK(n[size_t(InstrFamily::Mbarrier)] == 1);
        CHECK(n[size_t(InstrFamily::LdSt)] == 2);
    }
}

TEST_CASE("A recorded kernel's pokes take the family of their PTX line", "[views][filter]") {
    // The recorder writes thread stores as `poke` (docs/exec.md); the module's line says which store.
    Trace t;
    auto poke = [&t](int ptxLine) {
        TraceInstr in;
        in.text = "poke smem cta=0 addr=0x400 bytes=00ff";
        in.origin.ptxLine = ptxLine;
        t.instrs.push_back(in);
    };
    poke(3);  // cp.async
    poke(4);  // atom
    poke(2);  // a line that is no store: the recorded poke stays ld/st
    poke(0);  // no origin
    poke(99); // past the module's end
    const std::string ptx = "// 1\n// 2\n\t@%p1 cp.async.ca.shared.global [%r1], [%rd1], 16;\n"
                            "    atom.shared.add.u32 %r2, [%r3], 1;\n";
    CHECK(instrFamilies(t, ptx) == std::vector<InstrFamily>{InstrFamily::CpAsync, InstrFamily::LdSt,
                                                            InstrFamily::LdSt, InstrFamily::LdSt,
                                                            InstrFamily::LdSt});
    CHECK(instrFamilies(t, {}) == std::vector<InstrFamily>(5, InstrFamily::LdSt));
    InstrFilter f;
    f.families = 1u << uint32_t(InstrFamily::CpAsync);
    CHECK(f.passes(t.instrs[0], InstrFamily::CpAsync));
    CHECK_FALSE(f.passes(t.instrs[0])); // from its text alone: a poke is ld/st
}
