#include "tmem_fixture.hpp"

#include "layoutscope/tcgen05/exec.hpp"

namespace layoutscope::views::test {

static std::unique_ptr<Document> stDocument(bool withLoad) {
    Trace trace;
    MachineState ms(1, 0, 16384);
    const MachineState initial = ms;
    TmemState tm(1);
    Tcgen05Executor ex(trace, ms, tm);
    const auto taddr =
        ex.alloc(1, 0, 0, 128, {"tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [0], 128;", 1});
    WarpRegisters regs;
    for (uint32_t t = 0; t < 32; ++t)
        for (uint32_t j = 0; j < 4; ++j) regs[t].push_back(0x3F800000u + t * 0x100u + j);
    const auto f = parseLdSt("tcgen05.st.sync.aligned.32x32b.x4.b32");
    (void)ex.st(*f, 0, 1, *taddr | tmemAddress(32, 0), regs,
                {"tcgen05.st.sync.aligned.32x32b.x4.b32 [taddr], {...};", 2});
    if (withLoad)
        (void)ex.ld(*parseLdSt("tcgen05.ld.sync.aligned.16x64b.x1.b32"), 0, 1, *taddr | tmemAddress(32, 0),
                    {"tcgen05.ld.sync.aligned.16x64b.x1.b32 {r}, [taddr];", 3});
    return Document::fromTrace(std::move(trace), initial, {}, SmemWindow{0, 0, 128});
}

std::unique_ptr<Document> makeTmemStDocument() {
    return stDocument(false);
}
std::unique_ptr<Document> makeTmemStLdDocument() {
    return stDocument(true);
}

std::unique_ptr<Document> makeTmemCpDocument(bool decompress, bool ctaPair) {
    Trace trace;
    MachineState ms(2, 0, 16384);
    for (uint32_t c = 0; c < 2; ++c) {
        auto b = ms.smem[c].bytes();
        for (size_t i = 0; i < 4096; ++i) b[i] = static_cast<uint8_t>(i + 0x80 * c);
    }
    if (decompress) ms.smem[0].bytes()[0] = 0x21;
    const MachineState initial = ms;
    TmemState tm(2);
    Tcgen05Executor ex(trace, ms, tm);
    const uint64_t desc = (uint64_t{1} << 46) | (uint64_t{128 >> 4} << 32) | (uint64_t{16 >> 4} << 16);
    const char* ptx = decompress ? "tcgen05.cp.cta_group::1.32x128b.warpx4.b8x16.b4x16_p64 [taddr], sdesc;"
                      : ctaPair  ? "tcgen05.cp.cta_group::2.64x128b.warpx2::01_23 [taddr], sdesc;"
                                 : "tcgen05.cp.cta_group::1.64x128b.warpx2::02_13 [taddr], sdesc;";
    (void)ex.cp(*parseCp(ptx), 0, decompress ? tmemAddress(0, 8) : 0, desc, {ptx, 1});
    return Document::fromTrace(std::move(trace), initial, {}, SmemWindow{0, 0, 4096});
}

std::unique_ptr<Document> makeTmemBenchDocument(uint32_t steps, uint32_t smemBytes) {
    Trace trace;
    MachineState ms(1, 0, smemBytes);
    const MachineState initial = ms;
    TraceBuilder tb(trace);
    const uint32_t rows = smemBytes / 128;
    std::vector<uint8_t> chunk(128), cell(4);
    for (uint32_t s = 0; s < steps; ++s) {
        tb.beginInstr("synthetic step " + std::to_string(s));
        // The tcgen05.st-like register -> TMEM moves first, as a tcgen05 instruction's are: TmemViews tells
        // the instructions that touch Tensor Memory by their first move (with the shared-memory row first,
        // the bench window showed no Tensor Memory dock and its TMEM canvas never painted: issue 25 item 12).
        const uint32_t warp = s % 4, column = (s / 4) % 512;
        for (uint32_t t = 0; t < 32; ++t) {
            ByteMove r;
            r.src = MemRef{MemSpace::Register, 0, (uint64_t(32 * warp + t) << 16) | 0};
            r.dst = MemRef{MemSpace::TensorMemory, 0, tmemAddress(32 * warp + t, column)};
            r.length = 4;
            r.rule = RuleId::TmemLdStMap;
            r.coord = {static_cast<int32_t>(t), 0, 0, 0, 0};
            cell = {uint8_t(s), uint8_t(t), 0, 0};
            tb.move(ms, r, cell, t == 0);
        }
        const uint32_t row = s % rows;
        for (uint32_t i = 0; i < 128; ++i) chunk[i] = static_cast<uint8_t>(s + i);
        ByteMove m;
        m.src = MemRef{MemSpace::Global, 0, 0x100000ull + uint64_t(row) * 128};
        m.dst = MemRef{MemSpace::SharedCta, 0, uint64_t(row) * 128};
        m.length = 128;
        m.rule = RuleId::None;
        m.coord = {0, static_cast<int32_t>(row), 0, 0, 0};
        tb.move(ms, m, chunk, false);
        tb.endInstr("synthetic TMA row + tcgen05.st");
    }
    return Document::fromTrace(std::move(trace), initial, {}, SmemWindow{0, 0, rows * 128});
}

} // namespace layoutscope::views::test
