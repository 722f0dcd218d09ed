// Live sample of the bulk-copy differential suite: forms LLVM's NVPTX backend emits
// (llvm/test/CodeGen/NVPTX/cp-async-bulk*.ll CHECK lines, registers renamed to the golden/ptxas
// wrapper's) and one-token mutations of them, assembled by the installed ptxas for a few targets;
// the validator must agree on every one. The committed record of the whole suite is
// tests/data/ptxas_bulk/bulk.jsonl.gz (ctest conform.ptxas.bulk). Skipped when ptxas is absent.
#include "layoutscope/ptx/validate.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include "ptxas_path.hpp"

using namespace layoutscope;
namespace fs = std::filesystem;

namespace {

std::string wrapped(const std::string& sm, const std::string& version, const std::string& instr) {
    // golden/ptxas/README.md "Kernel wrapper": the instruction on line 15.
    return ".version " + version + "\n.target " + sm +
           "\n.address_size 64\n.visible .entry k(.param .u64 p0, .param .align 64 .b8 tmap[128])\n{\n"
           "  .reg .pred %p<4>;\n  .reg .b16 %h<8>;\n  .reg .b32 %r<300>;\n  .reg .b64 %rd<8>;\n"
           "  .shared .align 128 .b8 smem[4096];\n  .shared .align 8 .b64 mbar;\n  .reg .b32 %tmp<2>;\n"
           "  ld.param.u64 %rd0, [p0];\n  mov.u32 %r0, 0;\n  " +
           instr + "\n  ret;\n}\n";
}

const char* kSample[] = {
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
    const fs::path dir = fs::temp_directory_path() / ("layoutscope_bulk_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const PtxEnvironment env = ptxasWrapperEnvironment();
    int checked = 0;
    for (const char* sm : {"sm_90a", "sm_100a", "sm_120f"}) {
        for (const char* instr : kSample) {
            const fs::path file = dir / "k.ptx";
            std::ofstream(file) << wrapped(sm, "9.0", instr);
            const std::string cmd = "(ulimit -v 4194304; exec timeout 60 " + ptxas + " -arch=" + sm + " " +
                                    file.string() + " -o /dev/null) > /dev/null 2>&1";
            const int rc = std::system(cmd.c_str());
            const bool ptxasOk = rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 0;
            auto p = parseInstruction(instr, 15, 3);
            const bool ours = p && validateInstruction(*p, PtxTarget{sm, 9, 0}, env).ok();
            INFO(sm << ": " << instr << " (ptxas " << (ptxasOk ? "accepts" : "rejects") << ")");
            CHECK(ours == ptxasOk);
            ++checked;
        }
    }
    fs::remove_all(dir);
    CHECK(checked == 3 * static_cast<int>(std::size(kSample)));
}
