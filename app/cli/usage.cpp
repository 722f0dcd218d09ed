// Usage texts of layoutscope-cli and its commands, and the version line (issue 15 item 3).
// `CMD --help` / `-h` prints usageOf(CMD) on stdout with exit status 0; a usage error prints it on
// stderr with exit status 2 (kExitUsage).
#include "cli/commands.hpp"
#include "layoutscope/ptx/validate.hpp"

#include <map>

namespace layoutscope::cli {
namespace {

const std::map<std::string, std::string>& usages() {
    static const std::map<std::string, std::string> all = [] {
        std::string targets;
        for (const auto& t : knownPtxTargets()) targets += (targets.empty() ? "" : " ") + t;
        return std::map<std::string, std::string>{
            {"run",
             "usage: layoutscope-cli run FILE\n"
             "  execute a scenario and summarise what moved (results on stdout, diagnostics on stderr)\n"},
            {"dump", "usage: layoutscope-cli dump FILE [--step N] [--tmem L0:L1,C0:C1 [--tmem-cta N]] "
                     "[--regs CTA,WARP]\n"
                     "  print every byte move of a scenario's trace, or the final TMEM cells / a warp's "
                     "registers\n"},
            {"check",
             "usage: layoutscope-cli check [--run] FILE...\n"
             "  validate scenarios (with --run also execute them); 'FILE: ok' on stdout,\n"
             "  diagnostics as file:line:col: error: ... on stderr\n"
             "  a PTX module (FILE.ptx, or text starting with .version) from nvcc -ptx: every\n"
             "  cp.async.bulk.tensor / tcgen05 / mbarrier instruction validated for its .target and\n"
             "  .version, other instructions tolerated (docs/ptx-modules.md); --run does not apply\n"},
            {"scaffold",
             "usage: layoutscope-cli scaffold FILE.ptx [--entry NAME] [-o OUT.scn]\n"
             "  a scenario with one kernel's data-movement instructions in program order; registers\n"
             "  become tensormap/smem/mbarrier/desc/let declarations to fill in (docs/ptx-modules.md)\n"},
            {"validate", "usage: layoutscope-cli validate [--target SM] [--ptx MAJOR.MINOR] 'INSTRUCTION;' "
                         "['INSTRUCTION;' ...]\n"
                         "  defaults: --target sm_100a --ptx 9.0; targets: " +
                             targets + "\n"},
            {"conform", "usage: layoutscope-cli conform {tma|ptxas|cute|banks} FILE...\n"
                        "  conform tma FILE...      replay golden/tma records (.jsonl or .jsonl.gz)\n"
                        "  conform ptxas FILE       compare the validator with golden/ptxas records\n"
                        "  conform cute DIR|FILE    compare tcgen05 maps with golden/cute files\n"
                        "  conform banks [DIR|FILE] bank wavefronts vs golden/banks H100 counts\n"},
            {"desc",
             "usage: layoutscope-cli desc encode start=BYTES lbo=BYTES sbo=BYTES "
             "swizzle=none|128B|64B|32B|128B_base32B\n"
             "                                   [base=0..7] [lbo_mode=relative|absolute] [version=1]\n"
             "       layoutscope-cli desc decode VALUE          (64-bit descriptor, e.g. "
             "0x4000404000010040)\n"},
            {"tensormap",
             "usage: layoutscope-cli tensormap decode [--json] [--name NAME] HEX...\n"
             "       layoutscope-cli tensormap decode [--json] [--name NAME] --file FILE   (128 raw bytes, "
             "or "
             "hex text)\n"
             "       layoutscope-cli tensormap decode [--json] [--name NAME] < FILE       (hex text on "
             "stdin)\n"
             "  HEX: 256 hex digits, or the 16 u64 / 32 u32 words of cuda-gdb 'x/16xg &map' / 'x/32xw &map'\n"
             "       (address prefixes and <symbol+off> labels allowed)\n"},
            {"compare",
             "usage: layoutscope-cli compare A.scn B.scn [...] [--format text|md|csv|json]\n"
             "  design-review figures of several scenarios side by side, then each final shared memory\n"
             "  (and Tensor Memory) by logical element against the first: same, reshuffled, different\n"},
            {"sweep",
             "usage: layoutscope-cli sweep F.scn --vary NAME=v1,v2,... [--vary MAP.option=v1,v2] "
             "[--format text|md|csv|json]\n"
             "  run every combination of the varied values; one table\n"
             "  NAME: a `let NAME = ...` value; MAP.option: an option of the tensormap, desc or smem\n"
             "  line named MAP (A.swizzle=64B,128B; A.box=[64,128],[32,128]: the box only)\n"
             "  structure (MAP's one load rewritten): MAP.boxes=[32,128],[64,64] loads the tile\n"
             "  (MAP's box) as boxes of that shape, box k at destination + k * box bytes, dim 0\n"
             "  fastest; MAP.loads=1,2,4 splits the tile's outermost dimension into that many boxes\n"
             "  combinations that cannot be built or run are listed as 'rejected' with the rule\n"},
            {"export-cuda",
             "usage: layoutscope-cli export-cuda F.scn [-o repro.cu]\n"
             "  a standalone CUDA program (driver-API encode, the scenario as inline PTX, the engine's\n"
             "  predicted bytes embedded) that prints PASS or the first differing byte\n"},
            {"diff", "usage: layoutscope-cli diff F.scn [--cta N] [--smem BUF=FILE] [--global TENSOR=FILE]\n"
                     "                            [--lanes A:B] [--cols C:D] [--tmem FILE] [--max N]\n"
                     "  bytes dumped from a real kernel (.bin, .npy, cuda-gdb x/ hex) against the engine's "
                     "prediction;\n"
                     "  the scenario's 'observe' directives too. Exit 1 when any byte differs\n"},
            {"infer",
             "usage: layoutscope-cli infer F.scn --smem BUF=FILE [--tensor T]\n"
             "  the TMA tile-load parameters (element size, box, swizzle, coordinates, buffer address mod "
             "1024)\n"
             "  that reproduce a dumped tile of an index-filled tensor, or the closest; exit 1 if none is "
             "exact\n"},
            {"lesson",
             "usage: layoutscope-cli lesson FILE.lesson\n"
             "       layoutscope-cli lesson --check [--ref DIR] FILE.lesson...\n"
             "  the narrated walk of a lesson: each step's caption, highlighted cells and question with the\n"
             "  engine's answer; --check validates (scenario runs clean, every selector resolves, every\n"
             "  answer computable and equal to the author's); --ref DIR also checks every [ref: ...]\n"
             "  citation against the reference pack (docs/lessons.md)\n"},
            {"exec",
             "usage: layoutscope-cli exec MODULE.ptx [--entry NAME|INDEX] --grid X[,Y,Z] --block X[,Y,Z]\n"
             "         [--cluster X[,Y,Z]] [--cta X,Y,Z] [--dynamic-smem BYTES] [--arg NAME|INDEX=VALUE "
             "...]\n"
             "         [--tensor NAME=tensor:...|F.npy ...] [--out NAME=FILE.npy ...]\n"
             "         [--expect NAME=REF.npy | --expect C=gemm(A,B[,nn|nt|tn|tt]) ...] [--order on|off]\n"
             "         [--record FILE.scn]   (the run's data movement as a scenario; docs/exec.md)\n"
             "  run every thread of one CTA (default 0,0,0; with --cluster, its whole cluster) through the\n"
             "  kernel's PTX (docs/exec.md); VALUE: a scalar (42, -1, 0.5), a tensor\n"
             "  tensor:DTYPE[D0,D1,...]:index|zeros|random:SEED|int:SEED (f16 bf16 f32 f64 u8..u64 "
             "s8..s64),\n"
             "  F.npy, a struct fields:OFF=TYPE:VALUE,... (TYPE u8..u64 s8..s64 f16 bf16 f32 f64 ptr\n"
             "  tensormap; ptr VALUE: a tensor name[+BYTES]) or tensormap:DESC (the scenario tensormap\n"
             "  directive's options with address=TENSOR, or a hex CUtensorMap[@TENSOR])\n"},
            {"help", "usage: layoutscope-cli help [COMMAND]\n"},
        };
    }();
    return all;
}

} // namespace

bool isCommand(const std::string& name) {
    return usages().count(name) != 0;
}

std::string usageOf(const std::string& command) {
    const auto it = usages().find(command);
    return it == usages().end() ? std::string() : it->second;
}

void printVersion(std::ostream& out) {
    out << "layoutscope-cli " << LAYOUTSCOPE_VERSION << "\n";
}

void printUsage(std::ostream& out) {
    out << "usage: layoutscope-cli <command> [args]   (layoutscope-cli <command> --help: that command's "
           "usage)\n"
           "  run FILE                 execute a scenario and summarise what moved\n"
           "  dump FILE                print every byte move of a scenario's trace\n"
           "    [--tmem L0:L1,C0:C1 [--tmem-cta N]] [--regs CTA,WARP]   final TMEM cells / a warp's "
           "registers\n"
           "  check FILE...            validate scenarios or PTX modules; diagnostics as file:line:col: "
           "error: ...\n"
           "  scaffold FILE.ptx [--entry NAME] [-o OUT.scn]   a scenario to fill in from a PTX kernel\n"
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
           "  sweep F.scn --vary NAME=v1,v2 [--vary MAP.option=v1,v2] [--format ...]   every combination, "
           "one "
           "table\n"
           "  export-cuda F.scn [-o repro.cu]   a CUDA program replaying the scenario against the engine\n"
           "  diff F.scn [--smem BUF=FILE] [--global T=FILE] [--tmem FILE]   dumped bytes vs the engine\n"
           "  infer F.scn --smem BUF=FILE [--tensor T]   the tile load that reproduces a dumped tile\n"
           "  lesson FILE.lesson       a lesson's narrated walk; --check [--ref DIR] validates lessons\n"
           "  exec F.ptx --grid G --block B [--arg K=V ...] [--out T=F.npy] [--expect T=REF]   run a "
           "kernel's\n"
           "                           CTA through the PTX executor; write and check its tensors\n"
           "  help [COMMAND]           this text, or a command's usage\n"
           "options: --help, -h (usage), --version (on every command)\n"
           "exit status: 0 ok; 1 diagnostics (the input is wrong, a check or conformance case failed);\n"
           "             2 usage error (unknown command or option, missing argument)\n";
}

} // namespace layoutscope::cli
