#pragma once
/// KernelLaunch: what File > Open asks for a `.ptx` (issue 22 item 4), and the `kernel` directive it
/// composes (docs/exec.md: `kernel FILE.ptx <layoutscope-cli exec options>`, a trailing `\` continues a
/// line, double quotes group a word). Plain C++ so the text it writes is tested without Qt.
#include "layoutscope/core/result.hpp"
#include "layoutscope/ptx/module.hpp"

#include <string>
#include <vector>

namespace layoutscope::views {

struct KernelLaunch {
    std::string ptxPath;     ///< the module, as the directive names it (absolute from the dialog)
    std::string entry;       ///< `--entry`: a kernel's 0-based index or name; empty: not given
    std::string entryLabel;  ///< the kernel's demangled name, for the scenario's comment (may be empty)
    std::string grid = "1";  ///< `--grid X[,Y[,Z]]`
    std::string block = "1"; ///< `--block X[,Y[,Z]]`
    std::string cluster;     ///< `--cluster X[,Y[,Z]]`; empty: not given
    std::string cta;         ///< `--cta X,Y,Z`; empty: not given (CTA 0,0,0)
    std::string dynamicSmem; ///< `--dynamic-smem BYTES`; empty: not given
    /// One exec option per line as typed: `--arg KEY=VALUE`, `--tensor NAME=SPEC`, `--out ...`; a value
    /// with spaces may be typed bare or in double quotes; `#` starts a comment outside quotes.
    std::vector<std::string> argLines;
};

/// `--arg NAME=` for each parameter of `f`, in order, with its type in a comment (`# .u64`, `# .b8[128]
/// align 64`): the lines the launch dialog starts from.
[[nodiscard]] std::vector<std::string> defaultArgLines(const PtxFunction& f);

/// The words of one option line (quotes removed, comments dropped): `--arg "3=tensormap:tiled FLOAT16
/// dims=[8,8]"` and `--arg 3=tensormap:tiled FLOAT16 dims=[8,8]` both give {"--arg", "3=tensormap:..."}:
/// everything after the option name is its one value. Errors: an unclosed quote, a quote inside a
/// value, a line that does not start with `--`, an option without a value, `KEY=` with nothing after.
[[nodiscard]] Result<std::vector<std::string>> launchLineWords(const std::string& line);

/// `word` as the directive writes it: in double quotes when it holds a space, tab, `#` or `\`.
[[nodiscard]] std::string quoteLaunchWord(const std::string& word);

/// The scenario text of a launch: a comment naming the kernel and module, then the `kernel` directive,
/// one option per line joined by ` \`. Errors name the field or the line (`argument line 3: ...`):
/// a grid, block, cluster or CTA that is not 1 to 3 positive integers (CTA: non-negative), a dynamic
/// shared memory size that is not a non-negative integer, or a bad option line (`--out` / `--expect`
/// belong to the CLI's exec, `--grid` ... have their own fields; only --arg, --tensor and --order).
[[nodiscard]] Result<std::string> composeKernelScenario(const KernelLaunch& l);

} // namespace layoutscope::views
