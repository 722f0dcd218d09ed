// placeholder: owned by the scenario work
#include "cli/commands.hpp"
namespace layoutscope::cli {
int cmdRun(const Args&, std::ostream&, std::ostream& err) { err << "run: not implemented yet\n"; return 2; }
int cmdDump(const Args&, std::ostream&, std::ostream& err) { err << "dump: not implemented yet\n"; return 2; }
int cmdCheck(const Args&, std::ostream&, std::ostream& err) { err << "check: not implemented yet\n"; return 2; }
} // namespace layoutscope::cli
