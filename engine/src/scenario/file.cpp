// readScenarioFile: a bounded read of a scenario file (kMaxScenarioBytes; docs/scenario-format.md
// "Size limit"). Standard C++ only: the limit is enforced by counting, not by asking the file's size,
// so devices and pipes (whose size is unknown) are bounded too.
#include "layoutscope/scenario/scenario.hpp"
#include "scenario/parse.hpp"

#include <algorithm>
#include <fstream>

namespace layoutscope {

namespace {

Diagnostic ioError(std::string message, const char* rule = "") {
    return Diagnostic{Severity::Error, DiagCode::Io, {}, std::move(message), rule, Provenance::Assumption};
}

} // namespace

namespace scn {
std::string scenarioTooLargeMessage(uint64_t atLeast) {
    return "the scenario is larger than the " + std::to_string(kMaxScenarioBytes >> 20) + " MiB limit (" +
           std::to_string(kMaxScenarioBytes) + " B): " + std::to_string(atLeast) +
           " B or more; a scenario is a hand-written text file (is this the right file?)";
}
} // namespace scn

Result<std::string> readScenarioFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return ioError("cannot open the scenario file for reading");
    std::string text;
    constexpr size_t kChunk = size_t(1) << 16;
    for (;;) {
        const size_t at = text.size();
        const size_t want = std::min<uint64_t>(kChunk, kMaxScenarioBytes + 1 - at);
        text.resize(at + want);
        in.read(text.data() + at, static_cast<std::streamsize>(want));
        const auto got = static_cast<size_t>(in.gcount());
        text.resize(at + got);
        if (text.size() > kMaxScenarioBytes)
            return ioError(scn::scenarioTooLargeMessage(text.size()), scn::kSizeLimitRef);
        if (got < want) break;
    }
    if (in.bad()) return ioError("cannot read the scenario file (read error; is it a directory?)");
    return text;
}

} // namespace layoutscope
