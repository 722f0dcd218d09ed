// readPtxModuleFile: a bounded read of a .ptx file (kMaxPtxModuleBytes), counted as it is read so
// that devices and endless pipes end with the size-limit diagnostic (core/read_bounded.hpp).
#include "core/read_bounded.hpp"
#include "layoutscope/ptx/module.hpp"

namespace layoutscope {

namespace {
Diagnostic ioError(std::string message, const char* rule = "") {
    return Diagnostic{Severity::Error, DiagCode::Io, {}, std::move(message), rule, Provenance::Assumption};
}
} // namespace

Result<std::string> readPtxModuleFile(const std::string& path) {
    std::string text;
    switch (core::readBounded(path, kMaxPtxModuleBytes, text)) {
    case core::ReadStatus::Ok:
        return text;
    case core::ReadStatus::CannotOpen:
        return ioError("cannot open the PTX file for reading");
    case core::ReadStatus::TooLarge:
        return ioError("the PTX file is larger than the " + std::to_string(kMaxPtxModuleBytes >> 20) +
                           " MiB limit (" + std::to_string(kMaxPtxModuleBytes) + " B)",
                       "docs/ptx-modules.md (limits)");
    case core::ReadStatus::ReadError:
        break;
    }
    return ioError("cannot read the PTX file (read error; is it a directory?)");
}

} // namespace layoutscope
