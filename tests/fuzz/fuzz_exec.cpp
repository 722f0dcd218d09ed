// libFuzzer target for the PTX executor (docs/exec.md): the launch parsers (parseDim3, parseExecArg,
// parseExecTensor) on every line of the input, then the input as a PTX module whose first kernel runs for
// one 64-thread CTA with a 4 KiB tensor for every 8-byte parameter, the input's `fields:` / `tensormap:`
// lines (in order, then `fields:`) for larger ones and 3 for the others, at most 20000 warp steps, recorded
// (the recording read back and run as a scenario); each line's words through parseLaunchWords too. Nothing
// may crash, hang or grow without bound: every failure is a diagnostic.
#include "layoutscope/exec/exec.hpp"
#include "layoutscope/ptx/module.hpp"
#include "layoutscope/scenario/scenario.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

using namespace layoutscope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    std::vector<std::string> structs;                  // struct specs for the .b8 array parameters
    for (size_t s = 0; s < text.size() && s < 4096;) { // the launch text parsers, line by line
        size_t e = text.find('\n', s);
        if (e == std::string_view::npos) e = text.size();
        const std::string_view line = text.substr(s, std::min<size_t>(e - s, 256));
        (void)exec::parseDim3(line);
        if (line.find(".npy") == std::string_view::npos) { // no file reads
            (void)exec::parseExecArg(line);
            (void)exec::parseExecTensor(line);
            if (line.rfind("fields:", 0) == 0 || line.rfind("tensormap:", 0) == 0) structs.emplace_back(line);
            std::vector<std::string> words; // the whole launch parser (exec's options, the kernel directive)
            for (size_t a = 0; a < line.size();) {
                const size_t b = std::min(line.find(' ', a), line.size());
                if (b > a) words.emplace_back(line.substr(a, b - a));
                a = b + 1;
            }
            (void)exec::parseLaunchWords(words);
        }
        s = e + 1;
    }
    auto m = readPtxModule(text);
    if (!m) return 0;
    const auto entries = m->entries();
    if (entries.empty()) return 0;
    exec::Launch l;
    l.block = {64, 1, 1};
    l.dynamicSmem = 1024;
    if (auto t = exec::parseExecTensor("T=tensor:u8[4096]:index")) l.tensors.push_back(*t);
    size_t nextStruct = 0;
    for (size_t i = 0; i < entries[0]->params.size() && i < 16; ++i) {
        if (entries[0]->params[i].bytes > 8) {
            exec::ExecArg a;
            a.key = std::to_string(i);
            a.structSpec = nextStruct < structs.size() ? structs[nextStruct++] : "fields:";
            l.args.push_back(a);
        } else if (entries[0]->params[i].bytes == 8) {
            auto a = exec::parseExecArg(std::to_string(i) + "=tensor:u8[4096]:index");
            if (a) l.args.push_back(*a);
        } else {
            exec::ExecArg a;
            a.key = std::to_string(i);
            a.scalar = "3";
            l.args.push_back(a);
        }
    }
    exec::ExecOptions o;
    o.maxWarpSteps = 20000;
    o.record = true; // and the recorder: its scenario must read back (kernel scenarios, docs/exec.md)
    if (auto r = exec::runKernel(*m, l, o))
        if (auto sc = parseScenario(r->recording)) (void)runScenario(*sc, RunOptions{uint64_t(1) << 20});
    return 0;
}
