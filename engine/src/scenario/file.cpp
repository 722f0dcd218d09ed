// readScenarioFile: a bounded read of a scenario file (kMaxScenarioBytes; docs/scenario-format.md
// "Size limit"). Standard C++ only: the limit is enforced by counting, not by asking the file's size,
// so devices and pipes (whose size is unknown) are bounded too.
#include "core/read_bounded.hpp"
#include "layoutscope/scenario/scenario.hpp"
#include "scenario/parse.hpp"

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
    std::string text;
    switch (core::readBounded(path, kMaxScenarioBytes, text)) {
    case core::ReadStatus::CannotOpen:
        return ioError("cannot open the scenario file for reading");
    case core::ReadStatus::TooLarge:
        return ioError(scn::scenarioTooLargeMessage(text.size()), scn::kSizeLimitRef);
    case core::ReadStatus::ReadError:
        return ioError("cannot read the scenario file (read error; is it a directory?)");
    case core::ReadStatus::Ok:
        break;
    }
    return text;
}

} // namespace layoutscope
