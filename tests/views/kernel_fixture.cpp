#include "kernel_fixture.hpp"

#include <array>
#include <filesystem>
#include <fstream>

namespace layoutscope::views::test {

std::unique_ptr<Document> makeRecordedDocument(const std::string& ptxPath, bool cudaLines) {
    const std::string cu = cudaLines ? "src/kernel.cu" : "";
    auto cuLine = [&](int line) { return cudaLines ? line : 0; };
    MachineState state(1);
    const MachineState initial = state;
    Trace trace;
    TraceBuilder b(trace);
    auto smemMove = [&](uint32_t dst, uint32_t len, MemSpace src, uint64_t srcAddr) {
        ByteMove m;
        m.dst = MemRef{MemSpace::SharedCta, 0, dst};
        m.src = MemRef{src, 0, srcAddr};
        m.length = len;
        std::array<uint8_t, 16> bytes{};
        for (uint32_t i = 0; i < len; ++i) bytes[i] = uint8_t(dst + i);
        b.move(state, m, std::span<const uint8_t>(bytes.data(), len));
    };
    b.beginInstr(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], [%rd1, "
        "{%r2, %r3}], [%r4];",
        0, SourceOrigin{12, cu, cuLine(7), 0, 0, 0});
    for (uint32_t k = 0; k < 4; ++k) smemMove(0x400 + 16 * k, 16, MemSpace::Global, 0x10000 + 16 * k);
    b.endInstr("TMA tile load");
    b.beginInstr("mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r4], %r5;", 0,
                 SourceOrigin{15, cu, cuLine(9), 0, 1, 32});
    b.endInstr();
    b.beginInstr("st.shared.v4.u32 [%r6], {%r7, %r8, %r9, %r10};", 0,
                 SourceOrigin{20, cu, cuLine(11), 0, 1, 32});
    smemMove(0x500, 16, MemSpace::Register, 0);
    b.endInstr();
    b.beginInstr("st.shared.u32 [%r12], %r13;", 0, SourceOrigin{24, "", 0, 0, 2, 64});
    smemMove(0x600, 4, MemSpace::Register, 0);
    b.endInstr();
    std::vector<InstrTile> tiles(trace.instrs.size());
    auto doc = Document::fromTrace(std::move(trace), initial, std::move(tiles), SmemWindow{0, 0x400, 0x280});
    doc->setKernelPtxPath(ptxPath);
    return doc;
}

std::string writeRecordedSources(const std::string& dir, bool withCuda) {
    namespace fs = std::filesystem;
    const std::string ptx = dir + "/kernel.ptx";
    std::ofstream p(ptx);
    for (int i = 1; i <= 30; ++i) p << "// line " << i << "\n";
    if (withCuda) {
        fs::create_directories(dir + "/src");
        std::ofstream c(dir + "/src/kernel.cu");
        for (int i = 1; i <= 20; ++i) c << "// cu line " << i << "\n";
    }
    return ptx;
}

} // namespace layoutscope::views::test
