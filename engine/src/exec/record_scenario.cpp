// loadScenario (scenario.hpp): a scenario whose `kernel` directive names a real kernel becomes the scenario
// the kernel's run records (issue 22 item 2; exec/record.hpp, docs/exec.md "Kernel scenarios").
#include "layoutscope/exec/exec.hpp"
#include "layoutscope/ptx/module.hpp"
#include "layoutscope/scenario/load_kernel.hpp"
#include "layoutscope/scenario/scenario.hpp"

#include <cctype>
#include <map>

namespace layoutscope {
namespace {

constexpr const char* kKernelRef = "docs/exec.md (kernel scenarios)";

// Every diagnostic of the launch or the run, placed at the directive; a PTX line it names is kept in words.
std::vector<Diagnostic> atDirective(std::vector<Diagnostic> ds, const ScenarioKernel& k) {
    for (Diagnostic& d : ds) {
        if (d.span.line > 0) d.message = k.path + ":" + std::to_string(d.span.line) + ": " + d.message;
        if (d.code == DiagCode::Io) d.message = "kernel " + k.path + ": " + d.message;
        d.span = k.span;
    }
    return ds;
}

} // namespace

Result<Scenario> loadScenario(std::string_view text, const std::string& scenarioPath) {
    return loadScenario(text, scenarioPath, LoadOptions{});
}

Result<Scenario> loadScenario(std::string_view text, const std::string& scenarioPath, const LoadOptions& lo) {
    auto s = parseScenario(text);
    if (!s || !s->kernel) return s;
    const ScenarioKernel& k = *s->kernel;
    const size_t slash = scenarioPath.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "" : scenarioPath.substr(0, slash + 1);
    const std::string path = !k.path.empty() && k.path[0] == '/' ? k.path : dir + k.path;
    std::vector<std::string> words{path};
    words.insert(words.end(), k.args.begin(), k.args.end());
    auto spec = exec::parseLaunchWords(words);
    if (!spec) return atDirective(spec.diagnostics(), k);
    if (!spec->outs.empty() || !spec->expects.empty())
        return Diagnostic{
            Severity::Error,
            DiagCode::InvalidValue,
            k.span,
            "--out and --expect belong to layoutscope-cli exec; a kernel scenario shows the run",
            kKernelRef,
            Provenance::ToolFormat};
    auto ptx = readPtxModuleFile(path);
    if (!ptx) return atDirective(ptx.diagnostics(), k);
    auto mod = readPtxModule(*ptx);
    if (!mod) return atDirective(mod.diagnostics(), k);
    exec::ExecOptions options;
    options.order = spec->options.order;
    options.record = true;
    options.cancel = lo.cancel; // the GUI's Cancel and progress bar
    options.progress = lo.progress;
    auto run = exec::runKernel(*mod, spec->launch, options);
    if (!run) return atDirective(run.diagnostics(), k);
    auto rec = parseScenario(run->recording);
    if (!rec) { // the recorder wrote something the scenario reader refuses: say which statement
        std::vector<Diagnostic> ds = rec.diagnostics();
        for (Diagnostic& d : ds) d.message = "in the recording of the run: " + d.message;
        return atDirective(std::move(ds), k);
    }
    // Each tensor map reads the bytes of the kernel tensor it points into, as they were before the run.
    for (ScenarioTensorMap& t : rec->tensorMaps)
        for (const exec::ExecTensor& et : run->initialTensors) {
            const uint64_t a = t.map.p.globalAddress;
            if (a < et.address || a - et.address >= et.bytes.size()) continue;
            t.fill = ScenarioFill::Data;
            t.data = std::make_shared<const std::vector<uint8_t>>(et.bytes.begin() + int64_t(a - et.address),
                                                                  et.bytes.end());
        }
    rec->kernelNotes = atDirective(run->notes, k); // in order: the timeline's race findings index them
    rec->kernelTimeline = run->timeline;
    rec->kernel = k;
    rec->kernel->resolvedPath = path;
    rec->recorded = true;
    rec->observations = s->observations;
    return rec;
}

std::vector<Diagnostic> placeInKernel(const Scenario& s, std::vector<Diagnostic> ds) {
    if (!s.recorded || !s.kernel) return ds;
    std::map<int, const SourceOrigin*> byLine;
    for (const ScenarioInstr& in : s.instrs)
        if (in.origin.known()) byLine[in.span.line] = &in.origin;
    const std::string& path = s.kernel->path;
    const std::string name = path.substr(path.find_last_of('/') + 1);
    auto place = [&](const SourceOrigin& o, bool who) {
        std::string where = name + ":" + std::to_string(o.ptxLine);
        if (o.cudaLine)
            where += " (" + o.cudaFile.substr(o.cudaFile.find_last_of('/') + 1) + ":" +
                     std::to_string(o.cudaLine) + ")";
        if (who && o.thread >= 0)
            where += ", thread " + std::to_string(o.thread) + " of CTA " + std::to_string(o.cta);
        return where;
    };
    for (Diagnostic& d : ds) {
        auto it = byLine.find(d.span.line);
        if (it == byLine.end()) continue;
        // "line N" inside the message names another recorded instruction: its kernel place instead.
        std::string msg;
        for (size_t i = 0;;) {
            const size_t at = d.message.find("line ", i);
            if (at == std::string::npos) {
                msg += d.message.substr(i);
                break;
            }
            size_t e = at + 5;
            while (e < d.message.size() && e < at + 14 &&
                   std::isdigit(static_cast<unsigned char>(d.message[e])))
                ++e;
            const auto other =
                e > at + 5 ? byLine.find(std::stoi(d.message.substr(at + 5, e - at - 5))) : byLine.end();
            if (other != byLine.end())
                msg += d.message.substr(i, at - i) + place(*other->second, false);
            else
                msg += d.message.substr(i, e - i);
            i = e;
        }
        d.message = place(*it->second, true) + ": " + msg;
        d.span = s.kernel->span;
    }
    return ds;
}

} // namespace layoutscope
