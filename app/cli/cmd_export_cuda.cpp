// `layoutscope-cli export-cuda F.scn [-o repro.cu]`: a standalone CUDA program that replays the scenario on a
// GPU and compares the bytes with the engine's prediction (issue 13 item 6; docs/export-cuda.md).
#include "cli/commands.hpp"
#include "layoutscope/scenario/export_cuda.hpp"
#include "layoutscope/scenario/scenario.hpp"

#include <fstream>

namespace layoutscope::cli {

int cmdExportCuda(const Args& args, std::ostream& out, std::ostream& err) {
    std::string file, output;
    for (size_t i = 1; i < args.size(); ++i) {
        if ((args[i] == "-o" || args[i] == "--output") && i + 1 < args.size()) {
            output = args[++i];
        } else if (!args[i].empty() && args[i][0] == '-') {
            err << "export-cuda: unknown option " << args[i] << "\n" << usageOf("export-cuda");
            return kExitUsage;
        } else if (file.empty()) {
            file = args[i];
        } else {
            err << "export-cuda: one scenario at a time (got " << file << " and " << args[i] << ")\n"
                << usageOf("export-cuda");
            return kExitUsage;
        }
    }
    if (file.empty()) {
        err << usageOf("export-cuda");
        return kExitUsage;
    }
    auto l = loadScenarioForCommand(file, err, true, true); // traced: consumer reads replay it
    if (!l) return kExitDiagnostics;
    ExportCudaOptions eo;
    eo.sourceName = file.substr(file.find_last_of('/') + 1);
    auto cu = exportCuda(l->scenario, *l->run, l->text, eo);
    if (!cu) return printDiagnostics(err, cu.diagnostics(), file), kExitDiagnostics;
    if (output.empty() || output == "-") {
        out << *cu;
        return kExitOk;
    }
    std::ofstream f(output, std::ios::binary);
    f << *cu;
    f.close();
    if (!f) {
        err << output << ": error: cannot write the repro\n";
        return kExitDiagnostics;
    }
    return kExitOk;
}

} // namespace layoutscope::cli
