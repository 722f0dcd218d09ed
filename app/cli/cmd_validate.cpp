// placeholder: owned by the PTX front-end work
#include "cli/commands.hpp"
namespace layoutscope::cli {
int cmdValidate(const Args&, std::ostream&, std::ostream& err) { err << "validate: not implemented yet\n"; return 2; }
} // namespace layoutscope::cli
