// layoutscope-cli: the engine without a GUI — run, dump, check, conform.
#include "cli/commands.hpp"

#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) { // a missing command is a usage error: usage on stderr, status 2
        layoutscope::cli::printUsage(std::cerr);
        return layoutscope::cli::kExitUsage;
    }
    return layoutscope::cli::dispatch(args, std::cout, std::cerr);
}
