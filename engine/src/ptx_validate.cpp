// placeholder: the declarative validity tables are being written
#include "layoutscope/ptx_validate.hpp"
namespace layoutscope {
Status validateInstruction(const ParsedInstr&, const PtxTarget&) { return okStatus(); }
Status validateKernel(const std::vector<ParsedInstr>&, const PtxTarget&) { return okStatus(); }
} // namespace layoutscope
