#pragma once
#include <ostream>
#include <string>
#include <vector>

namespace layoutscope::cli {
void printUsage(std::ostream& out);
/// Runs one subcommand; returns the process exit status.
int dispatch(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
} // namespace layoutscope::cli
