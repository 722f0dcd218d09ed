#pragma once
// Helpers of the executor tests (tests/engine/exec_*.cpp): run hand-written PTX, read committed nvcc PTX,
// build tensors and read their elements.
#include "layoutscope/exec/exec.hpp"
#include "layoutscope/ptx/module.hpp"

#include <catch2/catch.hpp>

#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace exectest {

using namespace layoutscope;
using namespace layoutscope::exec;

inline std::string readData(const std::string& name) {
    std::string path = LAYOUTSCOPE_TEST_DATA_DIR; // appended piecewise: GCC 12 warns (-Warray-bounds,
    path += "/exec/";                             // falsely) on `string(dir) + "/exec/" + name` inlined
    path += name;
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

template <class T>
ExecArg tensorArg(const std::string& key, const std::string& dtype, const std::vector<T>& v) {
    ExecArg a;
    a.key = key;
    a.isTensor = true;
    a.tensor.dtype = dtype;
    a.tensor.shape = {v.size()};
    a.tensor.bytes.resize(v.size() * sizeof(T));
    std::memcpy(a.tensor.bytes.data(), v.data(), a.tensor.bytes.size());
    return a;
}

inline ExecArg scalarArg(const std::string& key, const std::string& value) {
    ExecArg a;
    a.key = key;
    a.scalar = value;
    return a;
}

template <class T>
std::vector<T> values(const ExecResult& r, const std::string& name) {
    for (const auto& t : r.tensors)
        if (t.name == name) {
            std::vector<T> v(t.bytes.size() / sizeof(T));
            std::memcpy(v.data(), t.bytes.data(), v.size() * sizeof(T));
            return v;
        }
    FAIL("no tensor " << name);
    return {};
}

inline Result<ExecResult> runText(const std::string& ptx, const Launch& l) {
    auto m = readPtxModule(ptx);
    if (!m) return m.diagnostics();
    return runKernel(*m, l);
}

/// Kernel `entry` of tests/data/exec/`file` run by one CTA of `threads` threads with `args`; a failed run's
/// diagnostic goes into the test's output.
inline Result<ExecResult> runDataKernel(const std::string& file, const std::string& entry, uint32_t threads,
                                        std::vector<ExecArg> args) {
    const std::string text = readData(file);
    REQUIRE_FALSE(text.empty());
    Launch l;
    l.entry = entry;
    l.block = {threads, 1, 1};
    l.args = std::move(args);
    auto r = runText(text, l);
    if (!r) UNSCOPED_INFO(formatDiagnostic(r.error()));
    return r;
}

/// One kernel `k(.param .u64 out)` around `body`, run by `threads` threads of one CTA; returns the
/// 64 u64 words of `out` (the body stores its results through %rd0 = out). Registers declared:
/// %r<32> .b32, %rd<32> .b64, %f<16> .f32, %fd<16> .f64, %h<16> .b16, %p<8> .pred.
inline std::vector<uint64_t> runBody(const std::string& body, uint32_t threads = 1,
                                     const std::string& decls = "") {
    const std::string ptx = ".version 8.0\n.target sm_90a\n.address_size 64\n" + decls +
                            ".visible .entry k(.param .u64 out)\n{\n"
                            ".reg .b32 %r<32>;\n.reg .b64 %rd<32>;\n.reg .f32 %f<16>;\n.reg .f64 %fd<16>;\n"
                            ".reg .b16 %h<16>;\n.reg .pred %p<8>;\n"
                            "ld.param.u64 %rd0, [out];\n" +
                            body + "\nret;\n}\n";
    Launch l;
    l.block = {threads, 1, 1};
    l.args.push_back(tensorArg<uint64_t>("out", "u64", std::vector<uint64_t>(64 * threads, 0)));
    auto r = runText(ptx, l);
    if (!r) {
        FAIL(formatDiagnostic(r.error()));
        return {};
    }
    return values<uint64_t>(*r, "out");
}

inline uint32_t f32bits(float f) {
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
}
inline float bitsf32(uint64_t b) {
    const uint32_t x = static_cast<uint32_t>(b);
    float f;
    std::memcpy(&f, &x, 4);
    return f;
}

} // namespace exectest
