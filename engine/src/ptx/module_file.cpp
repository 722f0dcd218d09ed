// readPtxModuleFile: a bounded read of a regular .ptx file (kMaxPtxModuleBytes) through the engine's one
// file reader (layoutscope/core/file_read.hpp): FIFOs and devices are refused, the size is counted.
#include "layoutscope/core/file_read.hpp"
#include "layoutscope/ptx/module.hpp"

namespace layoutscope {

Result<std::string> readPtxModuleFile(const std::string& path) {
    return readInputFile(path, kMaxPtxModuleBytes, "the PTX file", "docs/ptx-modules.md (limits)");
}

} // namespace layoutscope
