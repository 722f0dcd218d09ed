// Engine benchmark of issue 11 (not a ctest test: speed goals live here, figures in README.md).
//
//   engine_bench            every case, each in a child process (so its peak RSS is its own)
//   engine_bench CASE       one case in this process
//
// Cases:
//   loads10k      10,000 64 KiB fp16 SWIZZLE_128B TMA loads: parse + run, wall time, peak RSS, trace bytes
//                 stored per byte moved; then 1,000 vs 10,000 loads past a 1 MiB trace budget (linear time).
//                 loads10k-full: the same with every before/after byte stored (compactTrace off);
//                 loads10k-budget: the budget part alone
//   st10k         10,000 tcgen05.st .32x32b.x128 (16 KiB each): parse + run. The async checker's clocks and
//                 history are linear, its ranges and value cross-check read run by run since issue 25 item 3;
//                 the rest is the executor, the checker's access history (async::Model::Impl::record) and
//                 parsing
//   scale         3,000 vs 300 small loads: the time ratio (linear time: ~10x)
//   consumers     300 vs 3000 tcgen05.cp checked against their TMA tile: the ratio (linear: ~10x)
//   commits       300 vs 3000 rounds of tcgen05.cp, tcgen05.commit and its wait: the ratio (linear: ~10x;
//   each
//                 commit tracks every earlier tcgen05.cp of the thread, issue 25 item 3)
//   compare100    parse + run + metrics of two ~100-instruction scenarios (compare's goal: < 1 s)
//   kernel        kernel_bench.cpp: the SW128 tile loads (8 and 32 KiB), every tcgen05.ld/st shape with and
//                 without .pack/.unpack, every tcgen05.cp shape, trace on and off, each against glibc memcpy
//                 of its bytes (thread CPU time, interleaved batches, medians): a row per case with its goal,
//                 PASS or FAIL; exits 1 when a row misses its goal or did not run
//   exec          the PTX executor (docs/exec.md) on an ALU-bound loop, 1024 threads: thread-instructions/s
//                 (goal >= 100 M/s on one core)
//   kernel02      issue 22 item 6: NVIDIA's CuTe tutorial 02_mma_tma_sm100, one CTA at its 128x256 tile with
//                 K = 1024, as a kernel scenario: executed, recorded, read back and run with the trace on
//                 (goal < 2 s and < 500 MiB)
//   kernel-PART   some of kernel's rows (bench_kernel.hpp: tma, tma-on, tma-off, tma32, ld, st, cp), for perf
#include "bench_kernel.hpp"

#include "layoutscope/analysis/metrics.hpp"
#include "layoutscope/exec/exec.hpp"
#include "layoutscope/scenario/scenario.hpp"
#include "layoutscope/tma/tma.hpp"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

using namespace layoutscope;
using Clock = std::chrono::steady_clock;

namespace {

double seconds(Clock::time_point a) {
    return std::chrono::duration<double>(Clock::now() - a).count();
}
double peakMiB() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_maxrss) / 1024.0;
}

std::string loadsScenario(int n, int box) {
    std::string s = "tensormap A tiled FLOAT16 dims=[8192,8192] box=[" + std::to_string(box) + "," +
                    std::to_string(box) + "] swizzle=128B\nsmem sA " +
                    std::to_string(box * std::max(box * 2, 128)) /* rows padded to the 128 B span */ +
                    " align=1024\nmbarrier bar\nmbarrier.init.shared::cta.b64 [bar], 1;\n";
    for (int i = 0; i < n; ++i) // march over distinct tiles of the tensor
        s += "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sA], [A, {" +
             std::to_string(box * (i % 128)) + ", " + std::to_string(box * ((i / 128) % 128)) +
             "}], [bar];\n";
    return s;
}

// `n` SW128 fp16 tile loads of distinct tiles into one buffer, each awaited (expect_tx, load, try_wait: a
// pipeline the happens-before checker finds ordered), of 64 KiB (box 64 x 256 x 2, issue 25 item 9) or 8 KiB.
std::string orderedLoads(int n, bool big) {
    const int bytes = big ? 65536 : 8192;
    std::string s =
        std::string(big ? "tensormap A tiled FLOAT16 dims=[8192,8192,2] box=[64,256,2] swizzle=128B\n"
                        : "tensormap A tiled FLOAT16 dims=[8192,8192,2] box=[64,64,1] swizzle=128B\n") +
        "smem sA " + std::to_string(bytes) +
        " align=1024\nmbarrier bar\nmbarrier.init.shared::cta.b64 [bar], 1;\n";
    for (int i = 0; i < n; ++i)
        s += "mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], " + std::to_string(bytes) +
             ";\ncp.async.bulk.tensor.3d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sA], [A, {" +
             std::to_string(64 * (i % 128)) + ", " + std::to_string((big ? 256 : 64) * ((i / 128) % 32)) +
             ", 0}], [bar];\nmbarrier.try_wait.parity.shared::cta.b64 p, [bar], " + std::to_string(i % 2) +
             ";\n";
    return s;
}

int loadsPastBudget();

// loads10k: 10,000 64 KiB loads, the trace compact (`full`: every before/after byte stored, as before
// issue 25 item 9): run time, peak RSS (goal < 500 MiB), bytes the trace stores per byte moved (goal <= 1).
// Then linear time past the budget: 1,000 and 10,000 8 KiB loads with a 1 MiB budget (ratio ~10x).
int loads10k(bool compact) {
    const std::string text = orderedLoads(10000, true);
    const auto t0 = Clock::now();
    auto sc = parseScenario(text);
    if (!sc) return std::printf("loads10k: parse failed: %s\n", sc.diagnostics()[0].message.c_str()), 1;
    const double tParse = seconds(t0);
    const auto t1 = Clock::now();
    RunOptions o;
    o.compactTrace = compact;
    auto r = runScenario(*sc, o);
    if (!r) return std::printf("loads10k: run failed: %s\n", r.diagnostics()[0].message.c_str()), 1;
    const double tRun = seconds(t1), mib = peakMiB();
    const Trace& t = r->trace;
    uint64_t moved = 0;
    for (const TraceInstr& in : t.instrs) moved += in.bytesMoved;
    const bool goal = mib < 500 && t.firstUntraced() == t.instrs.size() && t.storedBytes() <= moved;
    std::printf("loads10k%s %zu x 64 KiB loads: parse %.3f s  run %.3f s  peak RSS %.0f MiB (goal < 500)  "
                "trace %.0f MiB, stores %.3f B per byte moved (goal <= 1), untraced from %zu%s\n",
                compact ? "" : "-full", (t.instrs.size() - 1) / 3, tParse, tRun, mib,
                double(t.memoryBytes()) / 1048576.0, double(t.storedBytes()) / double(moved ? moved : 1),
                t.firstUntraced(), goal || !compact ? "" : "  OVER GOAL");
    if (!compact) return 0;
    return loadsPastBudget() == 0 && goal ? 0 : 1;
}

// Linear time past the trace budget: 1,000 and 10,000 8 KiB loads with a 1 MiB budget (ratio ~10x).
int loadsPastBudget() {
    auto budgeted = [](int n) {
        auto s = parseScenario(orderedLoads(n, false));
        const auto a = Clock::now();
        RunOptions ob;
        ob.traceBudgetBytes = 1 << 20;
        ob.compactTrace = false; // compact, these loads keep too little to reach the budget
        auto rr = s ? runScenario(*s, ob) : Result<Run>(s.diagnostics());
        return rr && rr->trace.firstUntraced() < rr->trace.instrs.size() ? seconds(a) : -1.0;
    };
    const double a = budgeted(1000), b = budgeted(10000);
    std::printf(
        "loads10k past a 1 MiB budget: 1000 loads %.3f s, 10000 loads %.3f s, ratio %.1fx (goal <= 12x)%s\n",
        a, b, b / a, a > 0 && b > 0 && b / a <= 12 ? "" : "  OVER GOAL");
    return a > 0 && b > 0 && b / a <= 12 ? 0 : 1;
}

std::string storesScenario(int n) {
    std::string s = "target sm_100a\nsmem buf 16\nwarp 0\nregs pattern=index\n"
                    "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [buf], 128;\nlet tmem = 0\n";
    std::string regs;
    for (int i = 0; i < 128; ++i) regs += (i ? ", %r" : "%r") + std::to_string(i);
    for (int i = 0; i < n; ++i) s += "tcgen05.st.sync.aligned.32x32b.x128.b32 [tmem], {" + regs + "};\n";
    return s;
}

int runText(const char* name, const std::string& text) {
    const auto t0 = Clock::now();
    auto sc = parseScenario(text);
    if (!sc) {
        std::printf("%s: parse failed: %s\n", name, sc.diagnostics()[0].message.c_str());
        return 1;
    }
    const double tParse = seconds(t0);
    const auto t1 = Clock::now();
    auto r = runScenario(*sc);
    if (!r) {
        std::printf("%s: run failed: %s\n", name, r.diagnostics()[0].message.c_str());
        return 1;
    }
    const double tRun = seconds(t1);
    const Trace& t = r->trace;
    std::printf(
        "%-8s %6zu instrs  parse %.3f s  run %.3f s  total %.3f s  peak RSS %.0f MiB  moves %zu in %zu runs, "
        "trace %.0f MiB, untraced from %zu\n",
        name, t.instrs.size(), tParse, tRun, tParse + tRun, peakMiB(), t.moves.size(), t.moves.runCount(),
        double(t.memoryBytes()) / 1048576.0, t.firstUntraced());
    return 0;
}

double scaleTime(int n) {
    const std::string text = loadsScenario(n, 32);
    const auto t0 = Clock::now();
    auto sc = parseScenario(text);
    auto r = sc ? runScenario(*sc) : Result<Run>(sc.diagnostics());
    if (!r) return -1;
    return seconds(t0);
}

// compare of two scenarios of 100 instructions each (issue 14 goal: under 1 s): parse, run and metrics.
int compare100() {
    const auto t0 = Clock::now();
    for (int box : {64, 32}) {
        auto sc =
            parseScenario(loadsScenario(97, box)); // + init = 98 instructions; with the header, 100 lines
        auto r = sc ? runScenario(*sc) : Result<Run>(sc.diagnostics());
        if (!r) return 1;
        (void)scenarioMetrics(*sc, *r);
    }
    std::printf("compare  2 scenarios x ~100 instructions: %.3f s (goal < 1 s)\n", seconds(t0));
    return 0;
}

// Consumer checks stay linear: n tcgen05.cp reading one TMA tile through a descriptor (each is checked
// against the tile); the ratio of 3000 to 300 should be ~10x (it was ~100x before ProducerIndex).
double cpsTime(int n) {
    std::string s = "target sm_100a\ntensormap A tiled UINT8 dims=[128,128] box=[128,128] swizzle=128B\n"
                    "smem sA 16384 align=1024\nsmem taddrBuf 16\nmbarrier bar\n"
                    "desc sd start=sA lbo=16 sbo=1024 swizzle=128B\nlet tmem = 0\n"
                    "mbarrier.init.shared::cta.b64 [bar], 1;\n"
                    "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sA], [A, "
                    "{0, 0}], [bar];\n"
                    "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [taddrBuf], 32;\n";
    for (int i = 0; i < n; ++i) s += "tcgen05.cp.cta_group::1.128x256b [tmem], sd;\n";
    const auto t0 = Clock::now();
    auto sc = parseScenario(s);
    auto r = sc ? runScenario(*sc) : Result<Run>(sc.diagnostics());
    return r ? seconds(t0) : -1;
}

// n rounds of a tcgen05.cp, a tcgen05.commit and the wait for it, by one thread: the happens-before checker's
// clocks and commit tracking stay linear (a commit joined every earlier cp's dense clock: O(n^2) and more).
double commitsTime(int n) {
    std::string s = "target sm_100a\ntensormap A tiled UINT8 dims=[128,128] box=[128,128] swizzle=128B\n"
                    "smem sA 16384 align=1024\nsmem taddrBuf 16\nmbarrier bar\nmbarrier done\n"
                    "desc sd start=sA lbo=16 sbo=1024 swizzle=128B\nlet tmem = 0\n"
                    "mbarrier.init.shared::cta.b64 [bar], 1;\n"
                    "mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 16384;\n"
                    "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sA], [A, "
                    "{0, 0}], [bar];\n"
                    "mbarrier.try_wait.parity.shared::cta.b64 p, [bar], 0;\n"
                    "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [taddrBuf], 32;\n"
                    "mbarrier.init.shared::cta.b64 [done], 1;\n";
    for (int i = 0; i < n; ++i)
        s += "tcgen05.cp.cta_group::1.128x256b [tmem], sd;\n"
             "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [done];\n"
             "mbarrier.try_wait.parity.shared::cta.b64 p, [done], " +
             std::to_string(i & 1) + ";\n";
    const auto t0 = Clock::now();
    auto sc = parseScenario(s);
    auto r = sc ? runScenario(*sc) : Result<Run>(sc.diagnostics());
    if (r)
        for (const Diagnostic& d : r->warnings)
            if (d.severity == Severity::Error) return -1; // every round is ordered: a finding is a bug
    return r ? seconds(t0) : -1;
}

// The executor on integer and f32 arithmetic in a loop (no memory in the loop): 1024 threads x 4000
// iterations x 8 instructions.
int execAlu() {
    const std::string ptx = R"(.version 8.0
.target sm_90a
.address_size 64
.visible .entry alu(.param .u64 out, .param .u32 n)
{
.reg .b32 %r<8>; .reg .f32 %f<4>; .reg .b64 %rd<4>; .reg .pred %p<2>;
ld.param.u64 %rd1, [out];
ld.param.u32 %r1, [n];
mov.u32 %r2, %tid.x;
mov.u32 %r3, 0;
cvt.rn.f32.u32 %f1, %r2;
L:
mad.lo.s32 %r2, %r2, 1664525, 1013904223;
xor.b32 %r4, %r2, %r3;
shr.u32 %r5, %r4, 7;
add.s32 %r3, %r3, %r5;
fma.rn.f32 %f1, %f1, 0f3F000000, 0f3F800000;
add.s32 %r1, %r1, -1;
setp.ne.s32 %p1, %r1, 0;
@%p1 bra L;
mov.u32 %r6, %tid.x;
mul.wide.u32 %rd2, %r6, 4;
add.s64 %rd3, %rd1, %rd2;
st.global.u32 [%rd3], %r3;
ret;
})";
    auto m = readPtxModule(ptx);
    exec::Launch l;
    l.block = {1024, 1, 1};
    auto out = exec::parseExecArg("0=tensor:u32[1024]:zeros");
    auto n = exec::parseExecArg("1=4000");
    if (!m || !out || !n) return 1;
    l.args = {*out, *n};
    const auto t0 = Clock::now();
    const std::clock_t c0 = std::clock();
    auto r = exec::runKernel(*m, l);
    const double s = seconds(t0), cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
    if (!r) return std::printf("exec     failed: %s\n", formatDiagnostic(r.error()).c_str()), 1;
    // Per CPU second as well as per wall second: on a shared machine the wall figure undersells one core.
    std::printf(
        "exec     %llu thread-instructions in %.3f s wall (%.3f s CPU): %.1f M/s wall, %.1f M/s per CPU "
        "second (goal >= 100 M/s on one core), peak %.0f MiB\n",
        static_cast<unsigned long long>(r->threadInstructions), s, cpu,
        double(r->threadInstructions) / s / 1e6, double(r->threadInstructions) / cpu / 1e6, peakMiB());
    return 0;
}

// Tutorial 02 at K = 1024 through loadScenario + runScenario (trace on): the launch of ctest
// exec.cute.02_mma_tma_sm100 with A, B and the maps widened along K.
int kernel02() {
    const std::string dir = LAYOUTSCOPE_BENCH_DATA_DIR "/cute_tutorials/";
    const std::string text =
        "kernel 02_mma_tma_sm100.ptx --entry 0 --grid 1,1 --block 128 --dynamic-smem 49280 "
        "--tensor A=tensor:f16[128,1024]:int:1 --tensor B=tensor:f16[256,1024]:int:2 "
        "--tensor C=tensor:f32[128,256]:zeros --tensor D=tensor:f32[128,256]:zeros "
        "--arg 0=fields:0=s32:128,4=s32:1024 --arg 1=fields:0=s32:256,4=s32:1024 "
        "--arg 2=fields:0=s32:128,4=s32:256,8=s32:256,16=ptr:C --arg "
        "3=fields:0=s32:128,4=s32:256,8=s32:256,16=ptr:D "
        "--arg 4=fields: --arg 5=fields:0=u32:138412048,4=u8:1 --arg 6=fields: "
        "--arg \"7=tensormap:tiled FLOAT16 dims=[1024,128] strides=[2048] box=[64,128] swizzle=128B "
        "address=A\" "
        "--arg \"8=tensormap:tiled FLOAT16 dims=[1024,256] strides=[2048] box=[64,256] swizzle=128B "
        "address=B\" "
        "--arg 9=1.0 --arg 10=0.0\n";
    const auto t0 = Clock::now();
    auto sc = loadScenario(text, dir + "k.scn");
    if (!sc) return std::printf("kernel02 failed: %s\n", formatDiagnostic(sc.error()).c_str()), 1;
    const double load = seconds(t0);
    auto r = runScenario(*sc);
    const double s = seconds(t0);
    if (!r) return std::printf("kernel02 failed: %s\n", formatDiagnostic(r.error()).c_str()), 1;
    const double mib = peakMiB();
    std::printf("kernel02 tutorial 02 at K=1024 (%zu instructions, %llu moves, trace %.1f MiB): %.3f s "
                "(%.3f s executing and recording) (goal < 2 s), peak %.0f MiB (goal < 500 MiB)%s\n",
                r->trace.instrs.size(), static_cast<unsigned long long>(r->trace.moves.size()),
                double(r->trace.memoryBytes()) / (1 << 20), s, load, mib,
                s < 2 && mib < 500 ? "" : "  OVER GOAL");
    return s < 2 && mib < 500 ? 0 : 1;
}

int runCase(const std::string& c) {
    if (c == "exec") return execAlu();
    if (c == "kernel02") return kernel02();
    if (c == "consumers") {
        const double a = cpsTime(300), b = cpsTime(3000);
        std::printf("consumers 300 checked tcgen05.cp %.3f s, 3000 %.3f s, ratio %.1fx (goal <= 12x)\n", a, b,
                    b / a);
        return 0;
    }
    if (c == "commits") {
        const double a = commitsTime(300), b = commitsTime(3000);
        const bool ok = a > 0 && b > 0 && b / a <= 12;
        std::printf(
            "commits  300 rounds of tcgen05.cp + commit + wait %.3f s, 3000 %.3f s, ratio %.1fx (goal <= "
            "12x)%s\n",
            a, b, b / a, ok ? "" : "  OVER GOAL");
        return ok ? 0 : 1;
    }
    if (c == "compare100") return compare100();
    if (c == "loads10k") return loads10k(true);
    if (c == "loads10k-full") return loads10k(false);
    if (c == "loads10k-budget") return loadsPastBudget();
    if (c == "st10k") return runText("st10k", storesScenario(10000));
    if (c == "scale") {
        const double a = scaleTime(300), b = scaleTime(3000);
        std::printf("scale    300 loads %.3f s, 3000 loads %.3f s, ratio %.1fx (goal <= 12x)\n", a, b, b / a);
        return 0;
    }
    if (c == "kernel") return bench::kernelBench("");
    if (c.rfind("kernel-", 0) == 0) return bench::kernelBench(c.substr(7)); // kernel-tma, kernel-ld, ...
    std::printf("unknown case %s\n", c.c_str());
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    if (argc > 1) return runCase(argv[1]);
    int rc = 0;
    for (const char* c :
         {"loads10k", "st10k", "scale", "kernel", "compare100", "consumers", "commits", "exec", "kernel02"}) {
        std::fflush(stdout);
        const pid_t pid = fork();
        if (pid == 0) {
            const int r = runCase(c);
            std::fflush(stdout); // _exit does not flush stdio
            _exit(r);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        rc |= WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    }
    return rc;
}
