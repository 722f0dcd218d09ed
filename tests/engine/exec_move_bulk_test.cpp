// Plain (non-tensor) cp.reduce.async.bulk in the executor (PTX ISA 9.2 §9.7.9.25.4.2): shared::cta -> global
// with .bulk_group and shared::cta -> shared::cluster with .mbarrier::complete_tx::bytes, every .redOp/.type
// pair PTX lists for each. The expected values are computed here per element with C++ arithmetic (integers
// wrap, .inc/.dec as atom's, floating-point sums rounded once to nearest even: float/double addition, and
// f16/bf16 sums of small integers, which are exact, plus one tie that rounds to even).
#include "exec_move_util.hpp"

#include <functional>

using namespace movetest;

namespace {

// io[0, 64): the source (copied to shared memory), io[64, 128): the destination's old values.
std::string globalKernel(const std::string& opType) {
    return header("sm_90a") +
           ".visible .entry k(.param .u64 io)\n{\n.reg .b32 %r<40>;\n.reg .b64 %rd<16>;\n.reg .pred %p<4>;\n"
           ".shared .align 128 .b8 tile[128];\n.shared .align 8 .b64 bar;\n"
           "ld.param.u64 %rd3, [io];\ncvta.to.global.u64 %rd3, %rd3;\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, "
           "tile;\n"
           "mov.u32 %r3, bar;\nshl.b32 %r11, %r1, 2;\nadd.u32 %r12, %r2, %r11;\ncvt.u64.u32 %rd6, %r11;\n"
           "add.u64 %rd7, %rd3, %rd6;\nld.global.u32 %r13, [%rd7];\nst.shared.u32 [%r12], %r13;\n"
           "fence.proxy.async.shared::cta;\nbar.sync 0;\nsetp.ne.u32 %p1, %r1, 0;\n@%p1 bra DONE;\n"
           "add.u64 %rd8, %rd3, 64;\nmov.u32 %r5, 64;\n"
           "cp.reduce.async.bulk.global.shared::cta.bulk_group." +
           opType +
           " [%rd8], [%r2], %r5;\ncp.async.bulk.commit_group;\ncp.async.bulk.wait_group 0;\nDONE:\nret;\n}\n";
}

// The shared::cluster form: tile[0, 64) the source, tile[64, 128) the destination, both from io; the result
// back to io[64, 128) after the mbarrier phase completes.
std::string clusterKernel(const std::string& opType, const std::string& tail = "64, [%r3]") {
    return header("sm_90a") +
           ".visible .entry k(.param .u64 io)\n{\n.reg .b32 %r<40>;\n.reg .b64 %rd<16>;\n.reg .pred %p<4>;\n"
           ".shared .align 128 .b8 tile[128];\n.shared .align 8 .b64 bar;\n"
           "ld.param.u64 %rd3, [io];\ncvta.to.global.u64 %rd3, %rd3;\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, "
           "tile;\n"
           "mov.u32 %r3, bar;\nadd.u32 %r4, %r2, 64;\nshl.b32 %r11, %r1, 2;\nadd.u32 %r12, %r2, %r11;\n"
           "cvt.u64.u32 %rd6, %r11;\nadd.u64 %rd7, %rd3, %rd6;\nld.global.u32 %r13, [%rd7];\n"
           "st.shared.u32 [%r12], %r13;\nfence.proxy.async.shared::cta;\nbar.sync 0;\nsetp.ne.u32 %p1, %r1, "
           "0;\n"
           "@%p1 bra WAIT;\nmbarrier.init.shared::cta.b64 [%r3], 1;\n"
           "mbarrier.arrive.expect_tx.shared::cta.b64 %rd5, [%r3], 64;\n"
           "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes." +
           opType + " [%r4], [%r2], " + tail +
           ";\nWAIT:\nmov.u32 %r9, 0;\nmbarrier.try_wait.parity.shared::cta.b64 %p2, [%r3], %r9;\n@!%p2 bra "
           "WAIT;\n"
           "setp.ge.u32 %p3, %r1, 16;\n@%p3 bra DONE;\nld.shared.u32 %r14, [%r12+64];\n"
           "st.global.u32 [%rd7+64], %r14;\nDONE:\nret;\n}\n";
}

Result<ExecResult> run(const std::string& ptx, const std::vector<uint8_t>& io) {
    Launch l;
    l.block = {32, 1, 1};
    l.args.push_back(tensorArg<uint8_t>("io", "u8", io));
    return runText(ptx, l);
}

uint16_t f16Int(int n) { // an integer |n| < 65536 as f16 bits (exact below 2048; above, truncated)
    if (n == 0) return 0;
    const uint16_t sign = n < 0 ? 0x8000 : 0;
    uint32_t a = uint32_t(n < 0 ? -n : n), e = 0;
    while ((a >> (e + 1)) != 0) ++e;
    const uint32_t frac = e <= 10 ? a << (10 - e) : a >> (e - 10); // no shift by a negative count
    return uint16_t(sign | (e + 15) << 10 | (frac & 0x3FF));
}
uint16_t bf16Int(int n) { // an integer |n| < 256 as bf16 bits (exact): the high half of its f32
    return uint16_t(f32bits(float(n)) >> 16);
}
double f16Value(uint16_t h) {
    const int e = h >> 10 & 31, m = h & 0x3FF;
    const double v = e ? std::ldexp(1.0 + m / 1024.0, e - 15) : std::ldexp(m / 1024.0, -14);
    return h & 0x8000 ? -v : v;
}
double bf16Value(uint16_t b) {
    return bitsf32(uint32_t(b) << 16);
}

struct Case {
    std::string opType;
    uint32_t bytes;                                           // element size
    std::function<uint64_t(uint64_t old, uint64_t v)> expect; // the element operation, on raw bits
    std::function<uint64_t(uint32_t i, bool src)> value;      // element i of the source / destination
};

void check(const Case& c, bool cluster) {
    std::vector<uint8_t> io(128);
    const uint32_t n = 64 / c.bytes;
    for (uint32_t i = 0; i < n; ++i) {
        const uint64_t s = c.value(i, true), d = c.value(i, false);
        std::memcpy(&io[i * c.bytes], &s, c.bytes);
        std::memcpy(&io[64 + i * c.bytes], &d, c.bytes);
    }
    auto r = run(checked(cluster ? clusterKernel(c.opType) : globalKernel(c.opType), "sm_90a"), io);
    if (!r) FAIL(formatDiagnostic(r.error()));
    const auto out = values<uint8_t>(*r, "io");
    for (uint32_t i = 0; i < n; ++i) {
        uint64_t got = 0, want = c.expect(c.value(i, false), c.value(i, true));
        std::memcpy(&got, &out[64 + i * c.bytes], c.bytes);
        if (c.bytes < 8) want &= (uint64_t(1) << (8 * c.bytes)) - 1;
        INFO(c.opType << " element " << i);
        CHECK(got == want);
        CHECK(std::memcmp(&out[i * c.bytes], &io[i * c.bytes], c.bytes) == 0); // the source is unchanged
    }
}

uint64_t ints(uint32_t i, bool src) { // wrap-around and sign cases
    static const uint64_t s[] = {1, 0xFFFFFFFFull, 5, 0x80000000ull, 7, 0xFFFFFFFFFFFFFFF0ull, 3, 0};
    static const uint64_t d[] = {2, 2, 5, 0x7FFFFFFFull, 9, 0x20, 0, 0xFFFFFFFEull};
    return (src ? s : d)[i % 8] + (src ? 0 : i / 8);
}

} // namespace

TEST_CASE("exec move: cp.reduce.async.bulk into global memory, every .redOp and .type", "[exec][exec-move]") {
    auto u32 = [](auto f) {
        return [f](uint64_t o, uint64_t v) { return uint64_t(f(uint32_t(o), uint32_t(v))); };
    };
    auto s32 = [](auto f) {
        return [f](uint64_t o, uint64_t v) { return uint64_t(uint32_t(f(int32_t(o), int32_t(v)))); };
    };
    auto s64 = [](auto f) {
        return [f](uint64_t o, uint64_t v) { return uint64_t(f(int64_t(o), int64_t(v))); };
    };
    auto small16 = [](uint16_t (*enc)(int)) {
        return [enc](uint32_t i, bool src) -> uint64_t {
            if (i == 31) return src ? enc(1) : enc(enc == f16Int ? 2048 : 256); // a tie: rounds to even
            return enc(src ? int(i % 17) - 8 : int((i * 5) % 17) - 8);
        };
    };
    const std::vector<Case> cases = {
        {"add.u32", 4, u32([](uint32_t o, uint32_t v) { return o + v; }), ints},
        {"add.s32", 4, s32([](int32_t o, int32_t v) { return int32_t(uint32_t(o) + uint32_t(v)); }), ints},
        {"add.u64", 8, [](uint64_t o, uint64_t v) { return o + v; }, ints},
        {"min.u32", 4, u32([](uint32_t o, uint32_t v) { return std::min(o, v); }), ints},
        {"max.s32", 4, s32([](int32_t o, int32_t v) { return std::max(o, v); }), ints},
        {"min.s64", 8, s64([](int64_t o, int64_t v) { return std::min(o, v); }), ints},
        {"max.u64", 8, [](uint64_t o, uint64_t v) { return std::max(o, v); }, ints},
        {"and.b32", 4, u32([](uint32_t o, uint32_t v) { return o & v; }), ints},
        {"or.b64", 8, [](uint64_t o, uint64_t v) { return o | v; }, ints},
        {"xor.b32", 4, u32([](uint32_t o, uint32_t v) { return o ^ v; }), ints},
        {"inc.u32", 4, u32([](uint32_t o, uint32_t v) { return o >= v ? 0u : o + 1; }), ints},
        {"dec.u32", 4, u32([](uint32_t o, uint32_t v) { return o == 0 || o > v ? v : o - 1; }), ints},
        {"add.f32", 4, [](uint64_t o, uint64_t v) { return uint64_t(f32bits(bitsf32(o) + bitsf32(v))); },
         [](uint32_t i, bool src) {
             return uint64_t(f32bits(src ? float(i) * 0.1f : float(i) * 0.3f + 1e7f));
         }},
        {"add.f64", 8,
         [](uint64_t o, uint64_t v) {
             double a, b;
             std::memcpy(&a, &o, 8), std::memcpy(&b, &v, 8);
             a += b;
             std::memcpy(&o, &a, 8);
             return o;
         },
         [](uint32_t i, bool src) {
             const double d = src ? i * 0.1 : i * 1e16;
             uint64_t b;
             std::memcpy(&b, &d, 8);
             return b;
         }},
        {"add.noftz.f16", 2,
         [](uint64_t o, uint64_t v) {
             const double s = f16Value(uint16_t(o)) + f16Value(uint16_t(v));
             return uint64_t(s == 2049 ? f16Int(2048) : f16Int(int(s)));
         },
         small16(f16Int)},
        {"add.noftz.bf16", 2,
         [](uint64_t o, uint64_t v) {
             const double s = bf16Value(uint16_t(o)) + bf16Value(uint16_t(v));
             return uint64_t(s == 257 ? bf16Int(256) : bf16Int(int(s)));
         },
         small16(bf16Int)},
        {"min.f16", 2,
         [](uint64_t o, uint64_t v) { return f16Value(uint16_t(v)) < f16Value(uint16_t(o)) ? v : o; },
         small16(f16Int)},
        {"max.bf16", 2,
         [](uint64_t o, uint64_t v) { return bf16Value(uint16_t(v)) > bf16Value(uint16_t(o)) ? v : o; },
         small16(bf16Int)},
    };
    for (const Case& c : cases) DYNAMIC_SECTION(c.opType) {
            check(c, false);
        }
}

TEST_CASE("exec move: cp.reduce.async.bulk into shared::cluster completes its bytes on the mbarrier",
          "[exec][exec-move]") {
    auto u32 = [](auto f) {
        return [f](uint64_t o, uint64_t v) { return uint64_t(f(uint32_t(o), uint32_t(v))); };
    };
    const std::vector<Case> cases = {
        {"add.u32", 4, u32([](uint32_t o, uint32_t v) { return o + v; }), ints},
        {"add.u64", 8, [](uint64_t o, uint64_t v) { return o + v; }, ints},
        {"min.s32", 4, u32([](uint32_t o, uint32_t v) { return uint32_t(std::min(int32_t(o), int32_t(v))); }),
         ints},
        {"max.u32", 4, u32([](uint32_t o, uint32_t v) { return std::max(o, v); }), ints},
        {"inc.u32", 4, u32([](uint32_t o, uint32_t v) { return o >= v ? 0u : o + 1; }), ints},
        {"xor.b32", 4, u32([](uint32_t o, uint32_t v) { return o ^ v; }), ints},
    };
    for (const Case& c : cases) DYNAMIC_SECTION(c.opType) {
            check(c, true);
        }
}

TEST_CASE("exec move: malformed plain bulk reduces get a diagnostic naming the rule", "[exec][exec-move]") {
    const std::vector<uint8_t> io(128, 1);
    SECTION("a .type the .redOp does not take") {
        const std::string ptx = globalKernel("and.u32");
        CHECK(ptxasVerdict(ptx, "sm_90a").value_or("refused") != "");
        auto r = run(ptx, io);
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message, Catch::Contains("this .redOp does not take this .type into .global"));
        CHECK_THAT(r.error().message, Catch::Contains("§9.7.9.25.4.2"));
    }
    SECTION("f32 into shared::cluster") {
        const std::string ptx = clusterKernel("add.f32");
        CHECK(ptxasVerdict(ptx, "sm_90a").value_or("refused") != "");
        auto r = run(ptx, io);
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message, Catch::Contains("into .shared::cluster (.and/.or/.xor: .b32"));
    }
    SECTION("a source other than shared::cta") {
        std::string ptx = globalKernel("add.u32");
        const std::string from = ".global.shared::cta.bulk_group";
        ptx.replace(ptx.find(from), from.size(), ".global.global.bulk_group");
        CHECK(ptxasVerdict(ptx, "sm_90a").value_or("refused") != "");
        auto r = run(ptx, io);
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message,
                   Catch::Contains("cp.reduce.async.bulk into .global reads .shared::cta"));
    }
    SECTION("shared::cluster without its [mbar]") {
        const std::string ptx = clusterKernel("add.u32", "64");
        CHECK(ptxasVerdict(ptx, "sm_90a").value_or("refused") != "");
        auto r = run(ptx, io);
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message,
                   Catch::Contains("needs [dstMem], [srcMem], size, [mbar] (3 operands given"));
    }
}

TEST_CASE("exec move: the recorder writes a bulk reduce as a poke of the bytes it left",
          "[exec][exec-move]") {
    std::vector<uint8_t> io(128);
    for (size_t i = 0; i < io.size(); ++i) io[i] = uint8_t(i < 64 ? 1 : 0x10); // 0x10101010 + 0x01010101
    Launch l;
    l.block = {32, 1, 1};
    l.args.push_back(tensorArg<uint8_t>("io", "u8", io));
    auto m = readPtxModule(globalKernel("add.u32"));
    REQUIRE(m);
    ExecOptions opt;
    opt.record = true;
    auto r = runKernel(*m, l, opt);
    if (!r) FAIL(formatDiagnostic(r.error()));
    CHECK_THAT(r->recording, Catch::Contains("poke global 0x"));
    CHECK_THAT(r->recording, Catch::Contains("=" + std::string(128, '1') + "\n")); // 64 bytes of 0x11
}

TEST_CASE("exec move: plain bulk reduces leave the bytes the H100 left", "[exec][exec-move]") {
    // tests/data/exec/bulk_reduce_h100.jsonl: scripts/probes/bulk_reduce (run.sh on the H100; README.md
    // there).
    const std::string text = readData("bulk_reduce_h100.jsonl");
    if (text.empty()) {
        WARN("SKIPPED: tests/data/exec/bulk_reduce_h100.jsonl not recorded yet "
             "(scripts/probes/bulk_reduce/run.sh "
             "on an H100)");
        return;
    }
    auto field = [](const std::string& line, const std::string& key) {
        const std::string k = "\"" + key + "\": \"";
        const size_t a = line.find(k);
        return a == std::string::npos
                   ? std::string()
                   : line.substr(a + k.size(), line.find('"', a + k.size()) - a - k.size());
    };
    auto unhex = [](const std::string& h) {
        std::vector<uint8_t> b(h.size() / 2);
        for (size_t i = 0; i < b.size(); ++i) b[i] = uint8_t(std::stoul(h.substr(2 * i, 2), nullptr, 16));
        return b;
    };
    std::stringstream lines(text);
    std::string line;
    int ran = 0;
    while (std::getline(lines, line)) {
        const std::string form = field(line, "form");
        if (form.empty() || line.find("\"error\"") != std::string::npos) continue;
        DYNAMIC_SECTION(form) {
            const bool cluster = form.rfind("cluster.", 0) == 0;
            const std::string opType = form.substr(form.find('.') + 1);
            std::vector<uint8_t> io = unhex(field(line, "src"));
            const auto before = unhex(field(line, "before")), after = unhex(field(line, "after"));
            REQUIRE(io.size() == 64);
            io.insert(io.end(), before.begin(), before.end());
            auto r = run(cluster ? clusterKernel(opType) : globalKernel(opType), io);
            if (!r) FAIL(formatDiagnostic(r.error()));
            const auto out = values<uint8_t>(*r, "io");
            CHECK(std::vector<uint8_t>(out.begin() + 64, out.end()) == after);
        }
        ++ran;
    }
    CHECK(ran > 0);
}
