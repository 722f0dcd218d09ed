#include "cli/commands.hpp"
#include "layoutscope/result.hpp"

#include <new>

namespace layoutscope::cli {

void printUsage(std::ostream& out) {
    out << "usage: layoutscope-cli <command> [args]\n"
           "  run FILE                 execute a scenario and summarise what moved\n"
           "  dump FILE                print every byte move of a scenario's trace\n"
           "    [--tmem L0:L1,C0:C1 [--tmem-cta N]] [--regs CTA,WARP]   final TMEM cells / a warp's "
           "registers\n"
           "  check FILE...            validate scenarios; diagnostics as file:line:col: error: ...\n"
           "  validate [--target sm_XX] [--ptx X.Y] 'INSTR'   validate one PTX instruction\n"
           "  conform tma FILE...      replay golden/tma records (.jsonl or .jsonl.gz)\n"
           "  conform ptxas FILE       compare the validator with golden/ptxas records\n"
           "  conform cute DIR|FILE    compare tcgen05 maps with golden/cute files\n"
           "  conform banks [DIR|FILE] bank wavefronts vs golden/banks H100 counts\n"
           "  desc encode start=B lbo=B sbo=B swizzle=none|128B|64B|32B|128B_base32B [base=N] [lbo_mode=M]\n"
           "       [version=1]         encode a tcgen05 shared-memory descriptor; print every field\n"
           "  desc decode VALUE        decode a 64-bit shared-memory descriptor into its fields\n"
           "  tensormap decode [--json] HEX... | --file F   a 128-byte CUtensorMap (hex, cuda-gdb x/16xg or\n"
           "                           x/32xw, raw .bin) as a scenario tensormap directive or JSON\n"
           "  compare A.scn B.scn [...] [--format text|md|csv|json]   design-review figures side by side\n"
           "  sweep F.scn --vary NAME=v1,v2 [--vary MAP.option=v1,v2] [--format ...]   every combination, one table\n";
}

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
    if (c == "conform") return cmdConform(args, out, err);
    if (c == "run") return cmdRun(args, out, err);
    if (c == "dump") return cmdDump(args, out, err);
    if (c == "check") return cmdCheck(args, out, err);
    if (c == "validate") return cmdValidate(args, out, err);
    if (c == "desc") return cmdDesc(args, out, err);
    if (c == "tensormap") return cmdTensormap(args, out, err);
    if (c == "compare") return cmdCompare(args, out, err);
    if (c == "sweep") return cmdSweep(args, out, err);
    err << "layoutscope-cli: unknown command '" << c << "'\n";
    printUsage(err);
    return 2;
}

} // namespace layoutscope::cli
