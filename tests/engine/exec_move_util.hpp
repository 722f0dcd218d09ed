#pragma once
// Helpers of the [exec-move] tests (exec_move_*_test.cpp): small hand-written kernels around one TMA / bulk /
// ldmatrix instruction, run through runKernel, and a check that ptxas accepts each kernel they run.
#include "exec_test_util.hpp"
#include "ptxas_path.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <unistd.h>

namespace movetest {

using namespace exectest;

inline std::string header(const std::string& target) {
    return ".version 8.8\n.target " + target + "\n.address_size 64\n";
}

/// Kernel `k(.param .align 64 .b8 tmap[128], .param .u64 io)` run by one warp: lane 0 initialises the
/// mbarrier, expects `tx` bytes and runs `copy` (registers: %r2 = the tile's shared::cta address, %r3 = the
/// barrier's, %rd4 = the tensor map's generic address, %r20.. free, %rs1..%rs7 16-bit); every lane waits on
/// parity 0, then the warp copies `words` 32-bit words of the tile to `io`.
inline std::string loadKernel(const std::string& target, const std::string& setup, const std::string& copy,
                              uint32_t tx, uint32_t words) {
    return header(target) +
           ".visible .entry k(.param .align 64 .b8 tmap[128], .param .u64 io)\n{\n"
           ".reg .b32 %r<40>;\n.reg .b64 %rd<16>;\n.reg .b16 %rs<8>;\n.reg .pred %p<4>;\n"
           ".shared .align 1024 .b8 tile[4096];\n.shared .align 8 .b64 bar;\n"
           "mov.b64 %rd2, tmap;\ncvta.param.u64 %rd4, %rd2;\nld.param.u64 %rd3, [io];\n"
           "cvta.to.global.u64 %rd3, %rd3;\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, tile;\nmov.u32 %r3, bar;\n"
           "setp.ne.u32 %p1, %r1, 0;\n@%p1 bra WAIT;\n"
           "mbarrier.init.shared::cta.b64 [%r3], 1;\n"
           "mbarrier.arrive.expect_tx.shared::cta.b64 %rd5, [%r3], " +
           std::to_string(tx) + ";\n" + setup + copy +
           "\nWAIT:\nmov.u32 %r9, 0;\nmbarrier.try_wait.parity.shared::cta.b64 %p2, [%r3], %r9;\n@!%p2 bra "
           "WAIT;\n"
           "mov.u32 %r10, %r1;\nLOOP:\nsetp.ge.u32 %p3, %r10, " +
           std::to_string(words) +
           ";\n@%p3 bra DONE;\nshl.b32 %r11, %r10, 2;\nadd.u32 %r12, %r2, %r11;\nld.shared.u32 %r13, "
           "[%r12];\n"
           "cvt.u64.u32 %rd6, %r11;\nadd.u64 %rd7, %rd3, %rd6;\nst.global.u32 [%rd7], %r13;\n"
           "add.u32 %r10, %r10, 32;\nbra LOOP;\nDONE:\nret;\n}\n";
}

/// Kernel `k(.param .align 64 .b8 tmap[128], .param .u64 io)` run by one warp: the warp copies `words` words
/// of `io` into the tile, fences the generic proxy against the async one, and lane 0 runs `copy` (registers
/// as loadKernel's), commits and waits for the bulk async-group.
inline std::string storeKernel(const std::string& target, const std::string& setup, const std::string& copy,
                               uint32_t words) {
    return header(target) +
           ".visible .entry k(.param .align 64 .b8 tmap[128], .param .u64 io)\n{\n"
           ".reg .b32 %r<40>;\n.reg .b64 %rd<16>;\n.reg .b16 %rs<8>;\n.reg .pred %p<4>;\n"
           ".shared .align 1024 .b8 tile[4096];\n.shared .align 8 .b64 bar;\n"
           "mov.b64 %rd2, tmap;\ncvta.param.u64 %rd4, %rd2;\nld.param.u64 %rd3, [io];\n"
           "cvta.to.global.u64 %rd3, %rd3;\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, tile;\nmov.u32 %r3, bar;\n"
           "mov.u32 %r10, %r1;\nLOOP:\nsetp.ge.u32 %p3, %r10, " +
           std::to_string(words) +
           ";\n@%p3 bra FILLED;\nshl.b32 %r11, %r10, 2;\nadd.u32 %r12, %r2, %r11;\n"
           "cvt.u64.u32 %rd6, %r11;\nadd.u64 %rd7, %rd3, %rd6;\nld.global.u32 %r13, [%rd7];\n"
           "st.shared.u32 [%r12], %r13;\nadd.u32 %r10, %r10, 32;\nbra LOOP;\nFILLED:\n"
           "fence.proxy.async.shared::cta;\nbar.sync 0;\nsetp.ne.u32 %p1, %r1, 0;\n@%p1 bra DONE;\n" +
           setup + copy + "\ncp.async.bulk.commit_group;\ncp.async.bulk.wait_group 0;\nDONE:\nret;\n}\n";
}

/// The launch of loadKernel / storeKernel: one warp, tensor T, the map `mapDesc` (tensormap: syntax) at
/// argument 0 and `io` at argument 1.
inline Launch moveLaunch(const std::string& tensorSpec, const std::string& mapDesc, std::vector<uint8_t> io) {
    Launch l;
    l.block = {32, 1, 1};
    auto t = parseExecTensor(tensorSpec);
    REQUIRE(t);
    l.tensors.push_back(*t);
    auto map = parseExecArg("0=tensormap:" + mapDesc);
    if (!map) FAIL(formatDiagnostic(map.error()));
    l.args.push_back(*map);
    l.args.push_back(tensorArg<uint8_t>("1", "u8", io));
    return l;
}

inline std::vector<uint8_t> tensorBytes(const ExecResult& r, const std::string& name) {
    for (const auto& t : r.tensors)
        if (t.name == name) return t.bytes;
    FAIL("no tensor " << name);
    return {};
}

/// Whether ptxas accepts `ptx` for `arch` ("" when it does, else its output); nullopt without ptxas.
inline std::optional<std::string> ptxasVerdict(const std::string& ptx, const std::string& arch) {
    const std::string ptxas = layoutscope::test::findPtxas();
    if (ptxas.empty()) return std::nullopt;
    namespace fs = std::filesystem;
    static int n = 0;
    const fs::path dir = fs::temp_directory_path();
    const fs::path in =
        dir / ("layoutscope_move_" + std::to_string(::getpid()) + "_" + std::to_string(++n) + ".ptx");
    const fs::path out = fs::path(in).replace_extension(".cubin"),
                   log = fs::path(in).replace_extension(".log");
    std::ofstream(in) << ptx;
    const std::string cmd = "'" + ptxas + "' -arch=" + arch + " '" + in.string() + "' -o '" + out.string() +
                            "' > '" + log.string() + "' 2>&1";
    const int rc = std::system(cmd.c_str());
    std::stringstream ss;
    ss << std::ifstream(log).rdbuf();
    fs::remove(in), fs::remove(out), fs::remove(log);
    return rc == 0 ? std::string() : ss.str() + "(rc " + std::to_string(rc) + ")";
}

/// `mov.u32 %r20.., value;` for each coordinate, and the operand `{%r20, ...}` naming them.
inline std::string coords(const std::vector<int>& c) {
    std::string s;
    for (size_t i = 0; i < c.size(); ++i)
        s += "mov.u32 %r" + std::to_string(20 + i) + ", " + std::to_string(c[i]) + ";\n";
    return s;
}
inline std::string coordList(size_t n) {
    std::string s = "{";
    for (size_t i = 0; i < n; ++i) s += (i ? ", %r" : "%r") + std::to_string(20 + i);
    return s + "}";
}

/// `ptx` after checking that ptxas accepts it for `arch` (the kernels' independent validity check; said once
/// and skipped when ptxas is absent).
inline std::string checked(std::string ptx, const std::string& arch) {
    const auto verdict = ptxasVerdict(ptx, arch);
    static bool warned = false;
    if (!verdict && !warned) {
        warned = true;
        WARN("SKIPPED: ptxas not found on PATH or at /usr/local/cuda/bin/ptxas; the kernels' validity not "
             "checked");
    }
    if (verdict) {
        INFO("ptxas -arch=" << arch << " on:\n" << ptx);
        CHECK(*verdict == "");
    }
    return ptx;
}

} // namespace movetest
