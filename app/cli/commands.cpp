#include "cli/commands.hpp"
#include "layoutscope/core/result.hpp"

#include <new>

namespace layoutscope::cli {

std::string outOfMemory(const std::string& where) {
    return formatDiagnostic(Diagnostic{Severity::Error,
                                       DiagCode::Io,
                                       {},
                                       "out of memory (std::bad_alloc) while reading, parsing or running the "
                                       "scenario: it needs more memory than this machine has",
                                       "docs/scenario-format.md (limits)",
                                       Provenance::Assumption},
                            where);
}

std::optional<uint64_t> parseUnsigned(const std::string& text, uint64_t max) {
    const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    const size_t from = hex ? 2 : 0;
    if (text.size() == from) return std::nullopt;
    uint64_t v = 0;
    for (size_t i = from; i < text.size(); ++i) {
        const char c = text[i];
        unsigned d = 0;
        if (c >= '0' && c <= '9')
            d = unsigned(c - '0');
        else if (hex && (c | 0x20) >= 'a' && (c | 0x20) <= 'f')
            d = unsigned((c | 0x20) - 'a' + 10);
        else
            return std::nullopt;
        const uint64_t base = hex ? 16 : 10;
        if (v > (max - d) / base) return std::nullopt; // v * base + d > max
        v = v * base + d;
    }
    return v;
}

int dispatch(const Args& args, std::ostream& out, std::ostream& err) {
    // No exception leaves the CLI: out of memory anywhere in a command is a diagnostic, exit status 1.
    int status = kExitOk;
    try {
        status = dispatchCommand(args, out, err);
    } catch (const std::bad_alloc&) {
        out.flush();
        err << outOfMemory("layoutscope-cli " + args[0]) << "\n";
        status = kExitDiagnostics;
    }
    // Output errors are errors (issue 25 item 7): a result that did not reach stdout (`> /dev/full`, a
    // closed descriptor) is reported once here for every command, after the last flush.
    out.flush();
    if (!out) {
        err << "layoutscope-cli " << args[0]
            << ": error: cannot write the output (standard output refused it: disk full or closed?) [io]\n";
        if (status == kExitOk) status = kExitDiagnostics;
    }
    return status;
}

int dispatchCommand(const Args& args, std::ostream& out, std::ostream& err) {
    const std::string& c = args[0];
    if (c == "--help" || c == "-h" || c == "help") { // help [COMMAND]
        if (c == "help" && args.size() >= 2 && (args[1] == "--help" || args[1] == "-h")) {
            out << usageOf("help");
        } else if (c == "help" && args.size() >= 2) {
            if (!isCommand(args[1])) {
                err << "layoutscope-cli: unknown command '" << args[1] << "'\n";
                printUsage(err);
                return kExitUsage;
            }
            out << usageOf(args[1]);
        } else {
            printUsage(out);
        }
        return kExitOk;
    }
    if (c == "--version") {
        printVersion(out);
        return kExitOk;
    }
    if (!isCommand(c)) {
        err << "layoutscope-cli: unknown " << (c.rfind('-', 0) == 0 ? "option" : "command") << " '" << c
            << "'\n";
        printUsage(err);
        return kExitUsage;
    }
    // --help / -h / --version anywhere after the command: never taken as a file name or an argument.
    for (size_t i = 1; i < args.size(); ++i) {
        if (args[i] == "--help" || args[i] == "-h") {
            out << usageOf(c);
            return kExitOk;
        }
        if (args[i] == "--version") {
            printVersion(out);
            return kExitOk;
        }
    }
    if (c == "conform") return cmdConform(args, out, err);
    if (c == "run") return cmdRun(args, out, err);
    if (c == "dump") return cmdDump(args, out, err);
    if (c == "check") return cmdCheck(args, out, err);
    if (c == "scaffold") return cmdScaffold(args, out, err);
    if (c == "validate") return cmdValidate(args, out, err);
    if (c == "desc") return cmdDesc(args, out, err);
    if (c == "tensormap") return cmdTensormap(args, out, err);
    if (c == "compare") return cmdCompare(args, out, err);
    if (c == "export-cuda") return cmdExportCuda(args, out, err);
    if (c == "diff") return cmdDiff(args, out, err);
    if (c == "infer") return cmdInfer(args, out, err);
    if (c == "lesson") return cmdLesson(args, out, err);
    if (c == "exec") return cmdExec(args, out, err);
    return cmdSweep(args, out, err);
}

} // namespace layoutscope::cli
