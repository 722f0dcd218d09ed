#include "cli/commands.hpp"
#include "conform/conform.hpp"

namespace layoutscope::cli {

int cmdConform(const Args& args, std::ostream& out, std::ostream& err) {
    if (args.size() < 3 || (args[1] != "tma" && args[1] != "ptxas" && args[1] != "cute")) {
        err << "usage: layoutscope-cli conform {tma|ptxas|cute} FILE...\n";
        return 2;
    }
    std::vector<conform::CaseOutcome> all;
    for (size_t i = 2; i < args.size(); ++i) {
        auto r = args[1] == "tma"     ? conform::conformTma(args[i])
                 : args[1] == "ptxas" ? conform::conformPtxas(args[i])
                                      : conform::conformCute(args[i]);
        if (!r) {
            err << args[i] << ": error: " << r.error().message << "\n";
            return 2;
        }
        all.insert(all.end(), r->begin(), r->end());
    }
    return conform::reportOutcomes(all, out) == 0 ? 0 : 1;
}

} // namespace layoutscope::cli
