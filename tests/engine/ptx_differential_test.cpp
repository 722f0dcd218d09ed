// Differential test against the real assembler: random instruction variants (qualifier subsets and
// orders, shapes, nums, operand kinds, targets) are wrapped in golden/ptxas/README.md's kernel and
// assembled by CUDA ptxas; the validator must give the same accept/reject verdict. Then random
// two-instruction kernels (lines 15 and 16 of the wrapper: valid forms with random .cta_group
// values, or a valid form beside a random variant) go through validateKernel the same way.
// Skipped (with a message) when ptxas is not installed. LAYOUTSCOPE_PTX_DIFF_N sets the count of
// single instructions (default 200; N/2 kernels follow), LAYOUTSCOPE_PTX_DIFF_SEED the seed
// (default: time-based, printed in the summary line).
#include "layoutscope/ptx/validate.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <sys/wait.h>

#include "ptxas_path.hpp"

using namespace layoutscope;
namespace fs = std::filesystem;

namespace {

struct Config {
    const char* sm;
    int major, minor;
};
const Config kConfigs[] = {{"sm_90a", 9, 0},  {"sm_100a", 9, 0}, {"sm_100f", 9, 0}, {"sm_103a", 9, 0},
                           {"sm_110a", 9, 0}, {"sm_120a", 9, 0}, {"sm_100a", 8, 6}, {"sm_100a", 8, 8},
                           {"sm_90a", 8, 5},  {"sm_120a", 8, 7}};

/// Random variants in the spirit of golden/ptxas's generator: mostly valid-looking forms with one
/// or two random perturbations (drop, duplicate, swap order, misspell, wrong operand kind).
class Gen {
  public:
    explicit Gen(uint32_t seed) : m_rng(seed) {}
    int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(m_rng); }
    bool coin(double p = 0.5) { return std::uniform_real_distribution<double>(0, 1)(m_rng) < p; }
    template <class T>
    const T& any(const std::vector<T>& v) {
        return v[static_cast<size_t>(pick(static_cast<int>(v.size())))];
    }

    std::string regs(int n, const char* p = "%r", int start = 1) {
        std::string s = "{";
        for (int i = 0; i < n; ++i) s += (i ? ", " : "") + std::string(p) + std::to_string(start + i);
        return s + "}";
    }
    std::string join(std::vector<std::string> quals, bool shuffle) {
        if (shuffle) std::shuffle(quals.begin(), quals.end(), m_rng);
        std::string s;
        for (const auto& q : quals) s += "." + q;
        return s;
    }
    void perturb(std::vector<std::string>& q) {
        if (q.empty() || !coin(0.3)) return;
        const size_t i = static_cast<size_t>(pick(static_cast<int>(q.size())));
        switch (pick(4)) {
        case 0:
            q.erase(q.begin() + static_cast<long>(i));
            break;
        case 1:
            q.push_back(q[i]);
            break;
        case 2:
            q[i] += q[i].back() == 'b' ? "x" : "1";
            break;
        default:
            q.push_back(
                any<std::string>({"sync", "aligned", "b32", "cta_group::1", "cta_group::2", "shared::cta",
                                  "warpx4", "pack::16b", "unpack::16b", "L2::cache_hint", "b8x16"}));
        }
    }

    std::string tma() {
        const int dim = 1 + pick(5);
        const std::vector<std::pair<std::string, std::string>> dirs = {
            {"shared::cluster", "global"}, {"shared::cta", "global"}, {"global", "shared::cta"}};
        const auto& d = any(dirs);
        const bool load = d.first != "global";
        const std::string mode = any<std::string>({"", "tile", "tile::gather4", "tile::scatter4", "im2col",
                                                   "im2col::w", "im2col::w::128", "im2col_no_offs"});
        const bool mbarC = coin(0.85) ? load : !load;
        const bool mc = coin(0.25), hint = coin(0.3);
        const int cg = coin(0.7) ? 0 : 1 + pick(2);
        std::vector<std::string> q = {std::to_string(dim) + "d", d.first, d.second};
        if (!mode.empty()) q.push_back(mode);
        q.push_back(mbarC ? "mbarrier::complete_tx::bytes" : "bulk_group");
        if (mc) q.push_back("multicast::cluster");
        if (cg) q.push_back("cta_group::" + std::to_string(cg));
        if (hint) q.push_back("L2::cache_hint");
        if (coin(0.1)) q.push_back(any<std::string>({"b8x16", "b6x16_p32", "b4x16_p64"}));
        perturb(q);
        // Keep destination before source unless reordering everything.
        std::string quals = coin(0.15) ? join(q, true) : join(q, false);
        const int coords =
            (mode == "tile::gather4" || mode == "tile::scatter4") ? 5 : dim + (coin(0.1) ? 1 : 0);
        const std::string tensor = "[" + std::string(coin(0.08) ? "%r9" : "%rd0") + ", " + regs(coords) + "]";
        std::vector<std::string> ops =
            load ? std::vector<std::string>{"[smem]", tensor} : std::vector<std::string>{tensor, "[smem]"};
        const bool im = mode.rfind("im2col", 0) == 0 && mode != "im2col_no_offs";
        const int nIm = mode == "im2col" ? std::max(dim - 2, 1) : 2;
        if (mbarC != coin(0.08)) ops.push_back("[mbar]");
        if (im != coin(0.08)) ops.push_back(regs(nIm + (coin(0.1) ? 1 : 0), coin(0.9) ? "%h" : "%r"));
        if (mc != coin(0.08)) ops.push_back(coin(0.9) ? "%h1" : "%r1");
        if (hint != coin(0.08)) ops.push_back("%rd1");
        std::string s = "cp.async.bulk.tensor" + quals + " ";
        for (size_t i = 0; i < ops.size(); ++i) s += (i ? ", " : "") + ops[i];
        return s + ";";
    }

    std::string ldst() {
        const bool ld = coin();
        const std::vector<std::pair<std::string, int>> shapes = {
            {"16x64b", 1}, {"16x128b", 2}, {"16x256b", 4}, {"32x32b", 1}, {"16x32bx2", 1}};
        const auto& sh = any(shapes);
        const int num = 1 << pick(8);
        std::vector<std::string> q = {"sync", "aligned", sh.first, "x" + std::to_string(num)};
        if (coin(0.3)) q.push_back(ld ? "pack::16b" : "unpack::16b");
        q.push_back("b32");
        perturb(q);
        int n = std::min(128, num * sh.second);
        if (coin(0.15)) n = std::max(1, coin() ? n / 2 : std::min(128, n * 2));
        const std::string vec = regs(n);
        const std::string taddr = coin(0.9) ? "[%r0]" : any<std::string>({"[%r0+16]", "[%rd1]", "[smem]"});
        const bool imm = (sh.first == "16x32bx2") != coin(0.1);
        const std::string half = coin(0.9) ? std::to_string(pick(64)) : "%r5";
        std::string s = std::string("tcgen05.") + (ld ? "ld" : "st") + join(q, coin(0.2)) + " ";
        if (ld)
            s += vec + ", " + taddr + (imm ? ", " + half : "");
        else
            s += taddr + (imm ? ", " + half : "") + ", " + vec;
        return s + ";";
    }

    std::string cp() {
        std::vector<std::string> q = {
            "cta_group::" + std::to_string(1 + pick(2)),
            any<std::string>({"128x256b", "4x256b", "128x128b", "64x128b", "32x128b"})};
        const std::string mc = any<std::string>({"", "", "warpx2::02_13", "warpx2::01_23", "warpx4"});
        if (!mc.empty()) q.push_back(mc);
        if (coin(0.4)) {
            q.push_back("b8x16");
            q.push_back(coin() ? "b6x16_p32" : "b4x16_p64");
        }
        perturb(q);
        return "tcgen05.cp" + join(q, coin(0.2)) + " " +
               any<std::string>({"[%r0]", "[%r0]", "[%r0+16]", "[%rd1]"}) + ", " +
               any<std::string>({"%rd1", "%rd1", "0", "%r1"}) + ";";
    }

    std::string misc() {
        switch (pick(6)) {
        case 0: {
            std::vector<std::string> q = {"cta_group::" + std::to_string(1 + pick(2)), "sync", "aligned",
                                          "shared::cta", "b32"};
            perturb(q);
            return "tcgen05.alloc" + join(q, coin(0.2)) + " " +
                   any<std::string>({"[smem]", "[%r1]", "[%rd1]"}) + ", " +
                   any<std::string>({"32", "64", "48", "512", "1024", "16", "%r1", "%rd1", "0x80"}) + ";";
        }
        case 1: {
            std::vector<std::string> q = {"cta_group::" + std::to_string(1 + pick(2)), "sync", "aligned",
                                          "b32"};
            perturb(q);
            return "tcgen05.dealloc" + join(q, coin(0.2)) + " " +
                   any<std::string>({"%r0", "0", "[%r0]", "%rd0"}) + ", " +
                   any<std::string>({"32", "96", "48", "-32", "2048", "%r1"}) + ";";
        }
        case 2: {
            std::vector<std::string> q = {"cta_group::" + std::to_string(1 + pick(2)), "down"};
            perturb(q);
            return "tcgen05.shift" + join(q, coin(0.5)) + " " +
                   any<std::string>({"[%r0]", "[%r0+32]", "[%rd1]"}) + ";";
        }
        case 3: {
            std::vector<std::string> q = {"cta_group::" + std::to_string(1 + pick(2)), "sync", "aligned"};
            perturb(q);
            return "tcgen05.relinquish_alloc_permit" + join(q, coin(0.2)) + ";";
        }
        case 4: {
            return ordering();
        }
        default: {
            std::vector<std::string> q = {"cta_group::" + std::to_string(1 + pick(2)),
                                          "mbarrier::arrive::one"};
            if (coin()) q.push_back("shared::cluster");
            const bool mc = coin(0.3);
            if (mc) q.push_back("multicast::cluster");
            q.push_back("b64");
            perturb(q);
            return "tcgen05.commit" + join(q, coin(0.2)) + " [mbar]" + (mc != coin(0.1) ? ", %h1" : "") + ";";
        }
        }
    }

    /// tcgen05.wait::ld/st.sync.aligned and tcgen05.fence::before/after_thread_sync, perturbed.
    std::string ordering() {
        const std::vector<std::string> extra = {"wait::st", "fence::after_thread_sync", "cta_group::1",
                                                "b32"};
        std::vector<std::string> q =
            coin() ? std::vector<std::string>{any<std::string>({"wait::ld", "wait::st"}), "sync", "aligned"}
                   : std::vector<std::string>{
                         any<std::string>({"fence::before_thread_sync", "fence::after_thread_sync"})};
        if (coin(0.15)) q.push_back(any(extra));
        perturb(q);
        return "tcgen05" + join(q, coin(0.1)) + (coin(0.08) ? " %r0;" : ";");
    }

    std::string instruction() {
        const int k = pick(10);
        return k < 4 ? tma() : k < 7 ? ldst() : k < 8 ? cp() : misc();
    }

    /// A valid form (checked with ptxas 13.0 on sm_100a); `cg` is its .cta_group where it has one.
    std::string valid(int cg) {
        const std::string g = ".cta_group::" + std::to_string(cg);
        return any<std::string>({
            "tcgen05.alloc" + g + ".sync.aligned.shared::cta.b32 [smem], 64;",
            "tcgen05.dealloc" + g + ".sync.aligned.b32 %r0, 64;",
            "tcgen05.relinquish_alloc_permit" + g + ".sync.aligned;",
            "tcgen05.cp" + g + ".128x256b [%r0], %rd1;",
            "tcgen05.cp" + g + ".32x128b.warpx4.b8x16.b4x16_p64 [%r0], %rd1;",
            "tcgen05.shift" + g + ".down [%r0];",
            "tcgen05.commit" + g + ".mbarrier::arrive::one.shared::cluster.b64 [mbar];",
            "tcgen05.commit" + g +
                ".mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [mbar], %h1;",
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" + g +
                " [smem], [%rd0, {%r1, %r2}], [mbar];",
            "tcgen05.ld.sync.aligned.32x32b.x2.b32 {%r1, %r2}, [%r0];",
            "tcgen05.st.sync.aligned.16x64b.x1.b32 [%r0], {%r1};",
            "tcgen05.wait::ld.sync.aligned;",
            "tcgen05.wait::st.sync.aligned;",
            "tcgen05.fence::before_thread_sync;",
            "tcgen05.fence::after_thread_sync;",
            "mbarrier.init.shared::cta.b64 [mbar], 1;",
        });
    }

    /// Two instructions of one kernel: mostly two valid forms with independent .cta_group values
    /// (the kernel-wide rule), otherwise a valid form and a random variant in either order.
    std::vector<std::string> kernel() {
        if (coin(0.7)) return {valid(1 + pick(2)), valid(1 + pick(2))};
        std::vector<std::string> v = {valid(1 + pick(2)), instruction()};
        if (coin()) std::swap(v[0], v[1]);
        return v;
    }

  private:
    std::mt19937 m_rng;
};

std::string wrapper(const Config& c, const std::vector<std::string>& instrs) {
    std::string body;
    for (size_t i = 0; i < instrs.size(); ++i) body += (i ? "\n  " : "") + instrs[i]; // lines 15, 16, ...
    const std::string& instr = body;
    std::ostringstream k;
    k << ".version " << c.major << "." << c.minor << "\n.target " << c.sm << "\n.address_size 64\n"
      << ".visible .entry k(.param .u64 p0, .param .align 64 .b8 tmap[128])\n{\n"
      << "  .reg .pred %p<4>;\n  .reg .b16 %h<8>;\n  .reg .b32 %r<300>;\n  .reg .b64 %rd<8>;\n"
      << "  .shared .align 128 .b8 smem[4096];\n  .shared .align 8 .b64 mbar;\n  .reg .b32 %tmp<2>;\n"
      << "  ld.param.u64 %rd0, [p0];\n  mov.u32 %r0, 0;\n  " << instr << "\n  ret;\n}\n";
    return k.str();
}

} // namespace

TEST_CASE("validator agrees with ptxas on random variants (skipped when ptxas is absent)",
          "[ptx][validate][ptxas]") {
    const std::string ptxas = test::findPtxas();
    if (ptxas.empty()) {
        WARN("SKIPPED: ptxas not found on PATH or at /usr/local/cuda/bin/ptxas; differential check not run");
        return;
    }
    const int n =
        std::getenv("LAYOUTSCOPE_PTX_DIFF_N") ? std::atoi(std::getenv("LAYOUTSCOPE_PTX_DIFF_N")) : 200;
    const uint32_t seed =
        std::getenv("LAYOUTSCOPE_PTX_DIFF_SEED")
            ? static_cast<uint32_t>(std::atoll(std::getenv("LAYOUTSCOPE_PTX_DIFF_SEED")))
            : static_cast<uint32_t>(std::chrono::system_clock::now().time_since_epoch().count());
    const fs::path dir = fs::temp_directory_path() / ("layoutscope_ptxdiff_" + std::to_string(seed));
    fs::create_directories(dir);
    Gen gen(seed);
    const PtxEnvironment env = ptxasWrapperEnvironment();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    int checked = 0, agreed = 0, singles = 0, kernels = 0;
    std::vector<std::string> disagreements;
    // One kernel: the instructions on lines 15, 16, ... of the wrapper, assembled by ptxas and
    // validated together (validateKernel: per-instruction rules and the kernel-wide .cta_group rule).
    auto compare = [&](const std::vector<std::string>& instrs) {
        const Config& cfg = kConfigs[gen.pick(static_cast<int>(std::size(kConfigs)))];
        const fs::path file = dir / "k.ptx";
        std::ofstream(file) << wrapper(cfg, instrs);
        // Bounded: some inputs make ptxas grow without limit (a bare predicate as the mbarrier took
        // 12 GB); 4 GiB and 60 s end such a run, which never assembles (a reject either way).
        const std::string cmd = "(ulimit -v 4194304; exec timeout 60 " + ptxas + " -arch=" + cfg.sm + " " +
                                file.string() + " -o /dev/null) > " + (dir / "log.txt").string() + " 2>&1";
        const int rc = std::system(cmd.c_str());
        const bool ptxasOk = rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 0;
        std::vector<ParsedInstr> parsed;
        bool parsedAll = true;
        for (size_t i = 0; i < instrs.size(); ++i) {
            auto p = parseInstruction(instrs[i], 15 + static_cast<int>(i), 3);
            parsedAll = parsedAll && p;
            if (p) parsed.push_back(std::move(p.value()));
        }
        const PtxTarget target{cfg.sm, cfg.major, cfg.minor};
        const bool ours = parsedAll && validateKernel(parsed, target, env).ok();
        ++checked;
        std::string text;
        for (size_t i = 0; i < instrs.size(); ++i) text += (i ? " | " : "") + instrs[i];
        agreed += ours == ptxasOk ? 1 : 0;
        const std::string where =
            std::string(cfg.sm) + "@" + std::to_string(cfg.major) + "." + std::to_string(cfg.minor);
        if (ours != ptxasOk)
            disagreements.push_back(where + ": " + text +
                                    (ptxasOk ? " (ptxas accepts)" : " (ptxas rejects)"));
    };
    for (int i = 0; i < n && std::chrono::steady_clock::now() < deadline; ++i, ++singles)
        compare({gen.instruction()});
    for (int i = 0; i < n / 2 && std::chrono::steady_clock::now() < deadline; ++i, ++kernels)
        compare(gen.kernel());
    fs::remove_all(dir);
    WARN("differential vs ptxas: " << agreed << "/" << checked << " agree (" << singles
                                   << " single instructions, " << kernels << " two-instruction kernels; seed "
                                   << seed << ")");
    for (const auto& d : disagreements) UNSCOPED_INFO(d);
    CHECK(checked > 0);
    CHECK(disagreements.empty());
}
