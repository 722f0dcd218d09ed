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

int dispatch(const Args& args, std::ostream& out, std::ostream& err) {
    // No exception leaves the CLI: out of memory anywhere in a command is a diagnostic, exit status 1.
    try {
        return dispatchCommand(args, out, err);
    } catch (const std::bad_alloc&) {
        out.flush();
        err << outOfMemory("layoutscope-cli " + args[0]) << "\n";
        return 1;
    }
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
