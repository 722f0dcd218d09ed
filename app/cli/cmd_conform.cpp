#include "cli/commands.hpp"
#include "conform/conform.hpp"

#include <filesystem>

namespace layoutscope::cli {
namespace {

/// `conform banks` with no FILE: the golden set installed beside the program (PREFIX/bin/.. ->
/// PREFIX/share/layoutscope/golden/banks), else the source tree's (a program run from its build folder).
std::string defaultBanksGolden() {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const fs::path installed = exe.parent_path().parent_path() / "share/layoutscope/golden/banks";
        if (fs::exists(installed / "banks_public.jsonl.gz", ec)) return installed.string();
    }
    return LAYOUTSCOPE_GOLDEN_DIR_DEFAULT "/banks";
}

} // namespace

int cmdConform(const Args& args, std::ostream& out, std::ostream& err) {
    const bool known = args.size() >= 2 &&
                       (args[1] == "tma" || args[1] == "ptxas" || args[1] == "cute" || args[1] == "banks");
    if (!known || (args.size() < 3 && args[1] != "banks")) {
        err << usageOf("conform");
        return kExitUsage;
    }
    Args files(args.begin() + 2, args.end());
    if (files.empty()) files.push_back(defaultBanksGolden()); // conform banks [FILE]
    std::vector<conform::CaseOutcome> all;
    for (const auto& file : files) {
        auto r = args[1] == "tma"     ? conform::conformTma(file)
                 : args[1] == "ptxas" ? conform::conformPtxas(file)
                 : args[1] == "banks" ? conform::conformBanks(file)
                                      : conform::conformCute(file);
        if (!r) {
            err << file << ": error: " << r.error().message << "\n"; // unreadable input: a diagnostic
            return kExitDiagnostics;
        }
        all.insert(all.end(), r->begin(), r->end());
    }
    return conform::reportOutcomes(all, out) == 0 ? 0 : 1;
}

} // namespace layoutscope::cli
