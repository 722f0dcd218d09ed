// readScenarioFile: a bounded read of a scenario file (kMaxScenarioBytes; docs/scenario-format.md
// "Size limit") of a regular file only (layoutscope/core/file_read.hpp): FIFOs and devices are refused.
#include "layoutscope/core/file_read.hpp"
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
    switch (const FileReadStatus s = readRegularFile(path, kMaxScenarioBytes, text)) {
    case FileReadStatus::CannotOpen:
        return ioError("cannot open the scenario file for reading");
    case FileReadStatus::TooLarge:
        return ioError(scn::scenarioTooLargeMessage(std::max<uint64_t>(text.size(), kMaxScenarioBytes + 1)),
                       scn::kSizeLimitRef);
    case FileReadStatus::NotRegular:
    case FileReadStatus::ReadError:
        return ioError(fileReadMessage(s, "the scenario file", kMaxScenarioBytes), kFileInputRule);
    case FileReadStatus::Ok:
        break;
    }
    return text;
}

} // namespace layoutscope
