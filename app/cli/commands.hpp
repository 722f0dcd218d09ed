#pragma once
#include "layoutscope/analysis/metrics_table.hpp"

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace layoutscope::cli {
using Args = std::vector<std::string>;

/// Exit status of every command (README "Command line"): results on stdout, diagnostics on stderr.
constexpr int kExitOk = 0;          ///< the command did what was asked; the input is valid
constexpr int kExitDiagnostics = 1; ///< the input is wrong, a check failed, or a conformance case failed
constexpr int kExitUsage = 2;       ///< unknown command or option, missing or malformed argument

void printUsage(std::ostream& out);                            ///< usage.cpp: every command, one line each
[[nodiscard]] std::string usageOf(const std::string& command); ///< one command's usage ("" if unknown)
[[nodiscard]] bool isCommand(const std::string& name);
void printVersion(std::ostream& out); ///< "layoutscope-cli <version>" (project(VERSION) in CMakeLists.txt)
/// Runs one subcommand; returns the process exit status. Out of memory becomes a diagnostic (status 1).
int dispatch(const Args& args, std::ostream& out, std::ostream& err);
int dispatchCommand(const Args& args, std::ostream& out, std::ostream& err); ///< dispatch without the catch
/// `where: error: out of memory ...` (a diagnostic line without its newline).
std::string outOfMemory(const std::string& where);

/// A whole argument as a number in [0, max]: decimal or 0x-hex digits only, so "-1", "4294967296" for a
/// 32-bit value, "12abc" and "" are refused instead of wrapping or stopping early (commands.cpp).
[[nodiscard]] std::optional<uint64_t> parseUnsigned(const std::string& text, uint64_t max);

/// `file:line:col: error: ...` lines on `err` (load_scenario.cpp).
void printDiagnostics(std::ostream& err, const std::vector<Diagnostic>& ds, const std::string& file);
/// A scenario file read, parsed and (with `run`) run without a trace; on failure its diagnostics are printed
/// on `err` and nullopt returned (load_scenario.cpp).
struct LoadedScenario {
    std::string text;
    Scenario scenario;
    std::optional<Run> run;
};
std::optional<LoadedScenario> loadScenarioForCommand(const std::string& file, std::ostream& err,
                                                     bool run = true, bool traced = false);

/// The scenario's `observe` files that cannot be read as dumps (missing, a directory, a FIFO or device, too
/// large, malformed), one error each at its directive; paths relative to `file`'s folder (load_scenario.cpp).
[[nodiscard]] std::vector<Diagnostic> observeFileErrors(const Scenario& sc, const std::string& file);

// Subcommands, each in its own file. args[0] is the subcommand name.
int cmdConform(const Args& args, std::ostream& out, std::ostream& err); ///< cmd_conform.cpp
int cmdRun(const Args& args, std::ostream& out,
           std::ostream& err); ///< cmd_scenario.cpp: run a scenario, summary
int cmdDump(const Args& args, std::ostream& out, std::ostream& err); ///< cmd_scenario.cpp: dump the trace
int cmdCheck(const Args& args, std::ostream& out,
             std::ostream& err); ///< cmd_scenario.cpp: file:line:col diagnostics
/// cmd_ptx.cpp: PTX modules (docs/ptx-modules.md). A `.ptx` path, or text whose first directive is
/// `.version`, is checked as a module; scaffold writes a scenario from one of its kernels.
[[nodiscard]] bool isPtxModulePath(const std::string& path);
int checkModule(const std::string& file, const std::string& text, std::ostream& out, std::ostream& err);
int checkModuleFile(const std::string& file, std::ostream& out, std::ostream& err);
int cmdScaffold(const Args& args, std::ostream& out, std::ostream& err);
int cmdValidate(const Args& args, std::ostream& out,
                std::ostream& err); ///< cmd_validate.cpp: one PTX instruction for a target
int cmdDesc(const Args& args, std::ostream& out,
            std::ostream& err); ///< cmd_desc.cpp: smem descriptor encode/decode
int cmdTensormap(const Args& args, std::ostream& out,
                 std::ostream& err); ///< cmd_tensormap.cpp: 128-byte CUtensorMap -> directive / JSON
/// The comparison table (formatMetricsTable, metrics_table.hpp) in `format` (text, md, csv, json), the better
/// value of each row marked.
int printMetricsTable(const std::vector<MetricColumn>& cols, const std::string& format, std::ostream& out);
int cmdSweep(const Args& args, std::ostream& out, std::ostream& err); ///< cmd_sweep.cpp
int cmdCompare(const Args& args, std::ostream& out,
               std::ostream& err); ///< cmd_compare.cpp: metrics of several scenarios side by side
int cmdExportCuda(const Args& args, std::ostream& out,
                  std::ostream& err); ///< cmd_export_cuda.cpp: a CUDA program that replays a scenario
int cmdDiff(const Args& args, std::ostream& out,
            std::ostream& err); ///< cmd_diff.cpp: dumped bytes vs the engine's prediction
int cmdInfer(const Args& args, std::ostream& out,
             std::ostream& err); ///< cmd_infer.cpp: tile-load parameters that reproduce a dump
int cmdLesson(const Args& args, std::ostream& out,
              std::ostream& err); ///< cmd_lesson.cpp: a lesson's narrated walk, or --check
int cmdExec(const Args& args, std::ostream& out,
            std::ostream& err); ///< cmd_exec.cpp: run one CTA / cluster of a PTX kernel (docs/exec.md)
} // namespace layoutscope::cli
