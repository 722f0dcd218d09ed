#include "cli/commands.hpp"

#include "conform/conform.hpp"

namespace layoutscope::cli {

void printUsage(std::ostream& out) {
    out << "usage: layoutscope-cli <command> [args]\n"
           "  conform tma FILE...   replay golden/tma records (.jsonl or .jsonl.gz) against the engine\n";
}

static int conformCmd(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    if (args.size() < 3 || args[1] != "tma") {
        err << "usage: layoutscope-cli conform tma FILE...\n";
        return 2;
    }
    size_t failed = 0;
    for (size_t i = 2; i < args.size(); ++i) {
        auto r = conform::conformTma(args[i]);
        if (!r) {
            err << args[i] << ": error: " << r.error().message << "\n";
            return 2;
        }
        out << "== " << args[i] << "\n";
        failed += conform::reportOutcomes(*r, out);
    }
    return failed == 0 ? 0 : 1;
}

int dispatch(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    if (args[0] == "conform") return conformCmd(args, out, err);
    err << "layoutscope-cli: unknown command '" << args[0] << "'\n";
    printUsage(err);
    return 2;
}

} // namespace layoutscope::cli
