// Executor: recursive `.func` calls (PTX ISA 9.2 §9.7.12.4 call, §5.1.5: function-scope .local variables are
// per activation) on nvcc's own PTX (tests/data/exec/recursion/, README there). The expected values are the
// same math done here in plain C++ (recursion on the host), independent of the executor.
#include "exec_test_util.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

using namespace exectest;

namespace {

int recFib(int n) {
    return n < 2 ? n : recFib(n - 1) + recFib(n - 2);
}

void recWalk(int n, int* parent) {
    int a[4];
    for (int i = 0; i < 4; ++i) a[i] = parent[i] * 2 + n + i;
    if (n > 0) recWalk(n - 1, a);
    for (int i = 0; i < 4; ++i) parent[i] += a[i] ^ n;
}

int recIsOdd(int n, int* acc);
int recIsEven(int n, int* acc) {
    int a[4];
    for (int i = 0; i < 4; ++i) a[i] = acc[i] + n * (i + 1);
    const int r = n == 0 ? 1 : recIsOdd(n - 1, a);
    for (int i = 0; i < 4; ++i) acc[i] = a[i] + r;
    return r;
}
int recIsOdd(int n, int* acc) {
    int a[4];
    for (int i = 0; i < 4; ++i) a[i] = acc[i] - n;
    const int r = n == 0 ? 0 : recIsEven(n - 1, a);
    for (int i = 0; i < 4; ++i) acc[i] = a[i] * 2 + r;
    return r;
}

Result<ExecResult> recRun(const std::string& entry, uint32_t threads, int n, const ExecOptions& opt = {}) {
    const std::string text = readData("recursion/recursion.ptx");
    REQUIRE_FALSE(text.empty());
    auto m = readPtxModule(text);
    REQUIRE(m);
    Launch l;
    l.entry = entry;
    l.block = {threads, 1, 1};
    l.args = {tensorArg("0", "s32", std::vector<int32_t>(threads * 8, 0)), scalarArg("1", std::to_string(n))};
    return runKernel(*m, l, opt);
}

// The 1-based line of the first `call` statement after `after` in the committed PTX.
int recCallLine(const std::string& after) {
    const std::string text = readData("recursion/recursion.ptx");
    const size_t at = text.find("call.uni", text.find(after));
    REQUIRE(at != std::string::npos);
    return 1 + int(std::count(text.begin(), text.begin() + std::ptrdiff_t(at), '\n'));
}

} // namespace

TEST_CASE("exec: recursive .func calls, direct and mutual, with a .local frame per call",
          "[exec][recursion]") {
    // The committed PTX keeps the recursion: fib, walk and runaway call themselves, isEven and isOdd each
    // other.
    const std::string text = readData("recursion/recursion.ptx");
    CHECK(text.find("call.uni (retval0), \n\t_Z3fibi") != std::string::npos);
    CHECK(text.find("call.uni \n\t_Z4walkiPi") != std::string::npos);
    CHECK(text.find("call.uni (retval0), \n\t_Z5isOddiPi") != std::string::npos);
    for (const int n : {0, 3}) {
        SECTION("n = " + std::to_string(n)) {
            auto r = recRun("recur", 64, n);
            if (!r) FAIL(formatDiagnostic(r.error()));
            const auto out = values<int32_t>(*r, "0");
            for (int t = 0; t < 64; ++t) {
                INFO("thread " << t);
                CHECK(out[size_t(t) * 8 + 0] == recFib(t % 16));
                int w[4] = {t, 1, 2, 3};
                recWalk(t % 9 + n, w);
                CHECK(out[size_t(t) * 8 + 1] == (w[0] ^ w[1] ^ w[2] ^ w[3]));
                int acc[4] = {t, 1, 2, 3};
                CHECK(out[size_t(t) * 8 + 2] == recIsEven(t % 7 + n, acc));
                for (int i = 0; i < 4; ++i) CHECK(out[size_t(t) * 8 + 3 + size_t(i)] == acc[i]);
            }
        }
    }
}

TEST_CASE("exec: a call deeper than maxCallDepth stops the run naming the call and the depth",
          "[exec][recursion]") {
    SECTION("fib(15) needs 15 calls in progress: a limit of 15 runs it, 14 stops it") {
        // fib(t % 16) for t < 16: the kernel's call of fib(15) is depth 1, fib(1) reached through
        // fib(14), fib(13) ... is depth 15.
        ExecOptions opt;
        opt.maxCallDepth = 15;
        auto ok = recRun("recur", 16, 0, opt);
        if (!ok) FAIL(formatDiagnostic(ok.error()));
        CHECK(values<int32_t>(*ok, "0")[15 * 8] == 610);
        opt.maxCallDepth = 14;
        auto r = recRun("recur", 16, 0, opt);
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message, Catch::Contains("call of `_Z3fibi` by thread (15,0,0)") &&
                                          Catch::Contains("would be call depth 15") &&
                                          Catch::Contains("ExecOptions::maxCallDepth = 14"));
        CHECK(r.error().span.line == recCallLine(".func  (.param .b32 func_retval0) _Z3fibi("));
    }
    SECTION("a runaway recursion stops at the default limit, 1024") {
        auto r = recRun("runaway_kernel", 32, 0);
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message, Catch::Contains("call of `_Z7runawayi` by thread (0,0,0)") &&
                                          Catch::Contains("would be call depth 1025") &&
                                          Catch::Contains("`_Z7runawayi` -> `_Z7runawayi`") &&
                                          Catch::Contains("a runaway recursion?"));
        CHECK(r.error().span.line == recCallLine(".func  (.param .b32 func_retval0) _Z7runawayi("));
    }
    SECTION("without a depth limit, the activations' memory stops it (ExecOptions::maxRecursionBytes)") {
        ExecOptions opt;
        opt.maxCallDepth = UINT32_MAX;
        opt.maxRecursionBytes = 1 << 20;
        auto r = recRun("runaway_kernel", 32, 0, opt);
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message,
                   Catch::Contains("call of `_Z7runawayi`") &&
                       Catch::Contains("more than 1048576 bytes of frames and saved registers"));
        CHECK(r.error().span.line == recCallLine(".func  (.param .b32 func_retval0) _Z7runawayi("));
    }
}
