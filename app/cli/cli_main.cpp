// layoutscope-cli: the engine without a GUI — run, dump, check, conform.
#include "cli/commands.hpp"

#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "-h" || args[0] == "--help") {
        layoutscope::cli::printUsage(std::cout);
        return args.empty() ? 2 : 0;
    }
    return layoutscope::cli::dispatch(args, std::cout, std::cerr);
}
