// readPtxModuleFile: a bounded read of a .ptx file (kMaxPtxModuleBytes), counted as it is read so
// that devices and endless pipes end with the size-limit diagnostic (as readScenarioFile does).
#include "layoutscope/ptx/module.hpp"

#include <algorithm>
#include <fstream>

namespace layoutscope {

namespace {
Diagnostic ioError(std::string message, const char* rule = "") {
    return Diagnostic{Severity::Error, DiagCode::Io, {}, std::move(message), rule, Provenance::Assumption};
}
} // namespace

Result<std::string> readPtxModuleFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return ioError("cannot open the PTX file for reading");
    std::string text;
    constexpr size_t kChunk = size_t(1) << 16;
    for (;;) {
        const size_t at = text.size();
        const size_t want = std::min<uint64_t>(kChunk, kMaxPtxModuleBytes + 1 - at);
        text.resize(at + want);
        in.read(text.data() + at, static_cast<std::streamsize>(want));
        const auto got = static_cast<size_t>(in.gcount());
        text.resize(at + got);
        if (text.size() > kMaxPtxModuleBytes)
            return ioError("the PTX file is larger than the " + std::to_string(kMaxPtxModuleBytes >> 20) +
                               " MiB limit (" + std::to_string(kMaxPtxModuleBytes) + " B)",
                           "docs/ptx-modules.md (limits)");
        if (got < want) break;
    }
    if (in.bad()) return ioError("cannot read the PTX file (read error; is it a directory?)");
    return text;
}

} // namespace layoutscope
