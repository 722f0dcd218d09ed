// By-value struct and CUtensorMap kernel parameters (docs/exec.md, issue 22 item 2) on nvcc's own PTX
// (tests/data/exec/tma_kernels.cu): the kernel reads the struct's fields at the offsets nvcc chose, and a
// tensor map built from a description or a hex blob holds the bytes the CUDA driver wrote for the same
// encode (golden/tma tensormap_encode case encode_0000, measured on an H100).
#include "exec_test_util.hpp"

using namespace exectest;

namespace {

Launch launchOf(const std::string& entry, std::vector<ExecArg> args, std::vector<ExecTensor> tensors = {}) {
    Launch l;
    l.entry = entry;
    l.block = {128, 1, 1};
    l.args = std::move(args);
    l.tensors = std::move(tensors);
    return l;
}

ExecArg structArg(const std::string& key, const std::string& spec) {
    auto a = parseExecArg(key + "=" + spec);
    REQUIRE(a);
    REQUIRE(a->structSpec == spec);
    return *a;
}

ExecTensor namedTensor(const std::string& text) {
    auto t = parseExecTensor(text);
    if (!t) FAIL(formatDiagnostic(t.error()));
    return *t;
}

// golden/tma/tensormap_encode.jsonl.gz encode_0000: cuTensorMapEncodeTiled FLOAT16 globalDim [64, 32],
// globalStrides [128], boxDim [64, 8], SWIZZLE_128B, at 0x7f9d6fe00000, as the CUDA 13 driver wrote it.
const std::string kGoldenHex =
    "0000e06f9d7f00001063000008000000000000000000000000000000000000003f0000001f000000"
    "0000000000000000000000000000003f0700000000000000000400000000000000040000000000"
    "000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "00000000000000000000";

std::vector<uint8_t> goldenBytes(uint64_t address) {
    std::vector<uint8_t> b(128);
    for (size_t i = 0; i < 128; ++i) b[i] = uint8_t(std::stoul(kGoldenHex.substr(2 * i, 2), nullptr, 16));
    for (int i = 0; i < 8; ++i) b[size_t(i)] = uint8_t(address >> (8 * i)); // bytes [0,8): globalAddress
    return b;
}

std::vector<uint8_t> tmapBytes(const ExecResult& r) {
    const auto w = values<uint64_t>(r, "1");
    std::vector<uint8_t> b(128);
    std::memcpy(b.data(), w.data(), 128);
    return b;
}

std::string errorOf(const Result<ExecResult>& r) {
    REQUIRE_FALSE(r);
    return r.error().message;
}

} // namespace

TEST_CASE("exec struct: a by-value struct's fields land at the offsets nvcc reads", "[exec][exec_struct]") {
    // struct Args { const float* a; int n; float scale; unsigned short tag; }: nvcc reads +0, +8, +12, +16.
    std::vector<float> a(128);
    for (size_t i = 0; i < a.size(); ++i) a[i] = float(i) - 20.0f;
    ExecTensor in = tensorArg("A", "f32", a).tensor;
    in.name = "A";
    auto r = runText(readData("tma_kernels.ptx"),
                     launchOf("struct_arg",
                              {structArg("0", "fields:0=ptr:A,8=s32:100,12=f32:0.5,16=u16:3"),
                               tensorArg("1", "f32", std::vector<float>(128, -1.0f))},
                              {in}));
    if (!r) FAIL(formatDiagnostic(r.error()));
    const auto out = values<float>(*r, "1");
    for (int i = 0; i < 128; ++i) CHECK(out[size_t(i)] == (i < 100 ? a[size_t(i)] * 0.5f + 3.0f : -1.0f));
    SECTION("ptr:NAME+BYTES points inside the tensor") {
        auto r2 = runText(readData("tma_kernels.ptx"),
                          launchOf("struct_arg",
                                   {structArg("0", "fields:0=ptr:A+16,8=s32:4,12=f32:1,16=u16:0"),
                                    tensorArg("1", "f32", std::vector<float>(128, -1.0f))},
                                   {in}));
        REQUIRE(r2);
        const auto o = values<float>(*r2, "1");
        for (int i = 0; i < 4; ++i) CHECK(o[size_t(i)] == a[size_t(i) + 4]);
        CHECK(o[4] == -1.0f);
    }
}

TEST_CASE("exec struct: malformed fields are refused naming the rule", "[exec][exec_struct]") {
    const std::string ptx = readData("tma_kernels.ptx");
    ExecTensor in = namedTensor("A=tensor:f32[128]:index");
    auto run = [&](const std::string& spec) {
        return runText(ptx, launchOf("struct_arg",
                                     {structArg("0", spec), tensorArg("1", "f32", std::vector<float>(128))},
                                     {in}));
    };
    SECTION("outside the parameter's 24 bytes") {
        CHECK_THAT(errorOf(run("fields:24=u32:1")), Catch::Contains("lies outside the parameter's 24 bytes"));
        CHECK_THAT(errorOf(run("fields:16=u64:1,24=u8:1")),
                   Catch::Contains("lies outside the parameter's 24 bytes"));
    }
    SECTION("overlap") {
        CHECK_THAT(errorOf(run("fields:8=s32:1,8=u16:2")),
                   Catch::Contains("overlaps the field at bytes [8,12)"));
    }
    SECTION("misaligned") {
        CHECK_THAT(errorOf(run("fields:4=u64:1")), Catch::Contains("its offset must be a multiple of 8"));
    }
    SECTION("unknown tensor in ptr") {
        CHECK_THAT(errorOf(run("fields:0=ptr:B")), Catch::Contains("`B` names no tensor (tensors: 1, A)"));
    }
    SECTION("a value that does not fit its type") {
        CHECK_THAT(errorOf(run("fields:16=u16:70000")), Catch::Contains("is not a u16 value"));
    }
    SECTION("unknown field type") {
        CHECK_THAT(errorOf(run("fields:0=int:1")), Catch::Contains("unknown type"));
    }
}

TEST_CASE("exec struct: __grid_constant__ CUtensorMap parameters hold the driver's bytes",
          "[exec][exec_struct]") {
    const std::string ptx = readData("tma_kernels.ptx");
    // The tensor T is the first tensor placed: its address is the executor's first global address.
    ExecTensor t = namedTensor("T=tensor:f16[32,64]:index");
    const uint64_t tAddr = 0x0000700000000000ull + 0x10000 * 2; // after out (1 KiB): 64 KiB apart + a gap
    auto run = [&](const std::string& spec) {
        return runText(ptx, launchOf("tmap_copy",
                                     {structArg("0", spec), tensorArg("1", "u64", std::vector<uint64_t>(16))},
                                     {t}));
    };
    SECTION("from the scenario directive's description") {
        auto r = run("tensormap:tiled FLOAT16 dims=[64,32] strides=[128] box=[64,8] swizzle=128B address=T");
        if (!r) FAIL(formatDiagnostic(r.error()));
        CHECK(tmapBytes(*r) == goldenBytes(tAddr));
    }
    SECTION("from the hex blob, re-pointed at T") {
        auto r = run("tensormap:" + kGoldenHex + "@T");
        if (!r) FAIL(formatDiagnostic(r.error()));
        CHECK(tmapBytes(*r) == goldenBytes(tAddr));
    }
    SECTION("from the hex blob as it is") {
        auto r = run("tensormap:" + kGoldenHex);
        REQUIRE(r);
        CHECK(tmapBytes(*r) == goldenBytes(0x7f9d6fe00000ull));
    }
    SECTION("as a field of a larger struct") {
        auto r = run("fields:0=tensormap:{tiled FLOAT16 dims=[64,32] strides=[128] box=[64,8] swizzle=128B "
                     "address=T}");
        REQUIRE(r);
        CHECK(tmapBytes(*r) == goldenBytes(tAddr));
    }
    SECTION("errors") {
        CHECK_THAT(errorOf(run("tensormap:tiled FLOAT16 dims=[64,32] box=[64,8] address=U")),
                   Catch::Contains("`U` names no tensor"));
        CHECK_THAT(errorOf(run("tensormap:tiled FLOAT16 dims=[64,32] box=[64,8]")),
                   Catch::Contains("needs address=TENSOR"));
        CHECK_THAT(errorOf(run("tensormap:tiled FLOAT16 dims=[64,32] box=[64,300] address=T")),
                   Catch::Contains("boxDim"));
        CHECK_THAT(errorOf(run("tensormap:tiled FLOAT16 dims=[64,64] box=[64,8] address=T")),
                   Catch::Contains("which has 4096"));
        CHECK_THAT(errorOf(run("tensormap:00ff")), Catch::Contains("128 bytes"));
        CHECK_THAT(errorOf(run("fields:8=tensormap:{" + kGoldenHex + "}")),
                   Catch::Contains("64-byte aligned"));
    }
}
