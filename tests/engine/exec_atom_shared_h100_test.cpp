// Executor: atom.shared.add on f16 / bf16 / f16x2 / bf16x2 (.noftz) and f32 against the bits an H100 wrote
// for the same cases (tests/data/exec/atom_shared_h100.jsonl, recorded by scripts/probes/atom_shared/run.sh;
// PTX ISA 9.2 §9.7.13.5 atom). Skipped while the record is absent.
#include "exec_test_util.hpp"

using namespace exectest;

namespace {

std::string jsonField(const std::string& line, const std::string& key) {
    const std::string k = "\"" + key + "\": \"";
    const size_t a = line.find(k);
    if (a == std::string::npos) return {};
    return line.substr(a + k.size(), line.find('"', a + k.size()) - a - k.size());
}

/// One thread: store `init` in shared memory, atom.shared.add it with `b`, write the old and the new value.
std::string atomKernel(const std::string& type, const std::string& init, const std::string& b) {
    const bool half = type == "f16" || type == "bf16";
    const std::string q = type == "f32" ? "f32" : "noftz." + type;
    const std::string r = half ? "%h" : "%r";
    std::string k = ".version 8.0\n.target sm_90a\n.address_size 64\n"
                    ".visible .entry k(.param .u64 out)\n{\n"
                    ".reg .b16 %h<4>; .reg .b32 %r<8>; .reg .b64 %rd<2>;\n"
                    ".shared .align 4 .b8 buf[4];\n"
                    "ld.param.u64 %rd0, [out];\n";
    k += "mov.b" + std::string(half ? "16 " : "32 ") + r + "1, " + init + ";\n";
    k += "st.shared.b" + std::string(half ? "16" : "32") + " [buf], " + r + "1;\n";
    k += "mov.b" + std::string(half ? "16 " : "32 ") + r + "2, " + b + ";\n";
    k += "atom.shared.add." + q + " " + r + "3, [buf], " + r + "2;\n";
    k += "ld.shared.b" + std::string(half ? "16 " : "32 ") + r + "0, [buf];\n";
    if (half) k += "cvt.u32.u16 %r3, %h3;\ncvt.u32.u16 %r0, %h0;\n";
    k += "st.global.v2.u32 [%rd0], {%r3, %r0};\nret;\n}\n";
    return k;
}

} // namespace

TEST_CASE("exec: atom.shared.add f16/bf16/f32 bits equal the H100's", "[exec][atom]") {
    const std::string text = readData("atom_shared_h100.jsonl");
    if (text.empty()) {
        WARN("SKIPPED: tests/data/exec/atom_shared_h100.jsonl not recorded yet "
             "(scripts/probes/atom_shared/run.sh "
             "on an H100)");
        return;
    }
    std::stringstream lines(text);
    std::string line;
    int ran = 0;
    while (std::getline(lines, line)) {
        const std::string type = jsonField(line, "type");
        if (type.empty()) continue;
        const std::string init = jsonField(line, "init"), b = jsonField(line, "b");
        DYNAMIC_SECTION(type << " " << init << " + " << b) {
            Launch l;
            l.block = {1, 1, 1};
            l.args.push_back(tensorArg<uint32_t>("out", "u32", std::vector<uint32_t>(2, 0)));
            auto r = runText(atomKernel(type, init, b), l);
            if (!r) FAIL(formatDiagnostic(r.error()));
            const auto v = values<uint32_t>(*r, "out");
            CHECK(v[0] == std::stoul(jsonField(line, "old"), nullptr, 16));
            CHECK(v[1] == std::stoul(jsonField(line, "new"), nullptr, 16));
        }
        ++ran;
    }
    CHECK(ran > 0);
}
