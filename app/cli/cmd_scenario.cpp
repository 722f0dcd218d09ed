// run / dump / check: the scenario front end without a GUI (docs/scenario-format.md).
#include "cli/commands.hpp"
#include "layoutscope/engine.hpp"

#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

namespace layoutscope::cli {
namespace {

std::optional<std::string> readFile(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return std::nullopt;
    std::ostringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

void printDiags(std::ostream& out, const std::vector<Diagnostic>& ds, const std::string& file) {
    for (const Diagnostic& d : ds) out << formatDiagnostic(d, file) << "\n";
}

std::string hex(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

std::string memRef(const MemRef& r) {
    switch (r.space) {
    case MemSpace::Global: return "global:" + hex(r.addr);
    case MemSpace::SharedCta: return "smem[cta" + std::to_string(r.cta) + "]:" + hex(r.addr);
    case MemSpace::TensorMemory:
        return "tmem[cta" + std::to_string(r.cta) + "]:lane" + std::to_string(r.addr >> 16) + ",col" +
               std::to_string(r.addr & 0xFFFF);
    case MemSpace::Register: // threadInCta << 16 | (register * 4 + byte) (tcgen05_exec.hpp)
        return "reg[cta" + std::to_string(r.cta) + "]:t" + std::to_string(r.addr >> 16) + ".r" +
               std::to_string((r.addr & 0xFFFF) / 4) + ".b" + std::to_string(r.addr & 3);
    case MemSpace::Fill: return "fill";
    case MemSpace::None: break;
    }
    return "-";
}

// Load, parse and run one scenario; prints diagnostics to `err` and returns nullopt on failure.
struct Loaded {
    Scenario scenario;
    Run run;
};
std::optional<Loaded> loadAndRun(const std::string& path, std::ostream& err) {
    auto text = readFile(path);
    if (!text) {
        err << formatDiagnostic(Diagnostic{Severity::Error, DiagCode::Io, {}, "cannot read " + path, "", Provenance::Assumption})
            << "\n";
        return std::nullopt;
    }
    auto sc = parseScenario(*text);
    if (!sc) {
        printDiags(err, sc.diagnostics(), path);
        return std::nullopt;
    }
    auto run = runScenario(*sc);
    if (!run) {
        printDiags(err, run.diagnostics(), path);
        return std::nullopt;
    }
    return Loaded{std::move(sc).value(), std::move(run).value()};
}

} // namespace

int cmdCheck(const Args& args, std::ostream& out, std::ostream&) {
    // check [--run] FILE...: parse and validate; with --run also execute (reports hardware faults).
    bool execute = false;
    std::vector<std::string> files;
    for (size_t i = 1; i < args.size(); ++i) {
        if (args[i] == "--run") execute = true;
        else files.push_back(args[i]);
    }
    if (files.empty()) {
        out << "usage: layoutscope-cli check [--run] FILE...\n";
        return 2;
    }
    int rc = 0;
    for (const std::string& f : files) {
        auto text = readFile(f);
        if (!text) {
            out << f << ": error: cannot read file [io; assumed]\n";
            rc = 1;
            continue;
        }
        auto sc = parseScenario(*text);
        if (!sc) {
            printDiags(out, sc.diagnostics(), f);
            rc = 1;
            continue;
        }
        if (execute) {
            auto run = runScenario(*sc);
            if (!run) {
                printDiags(out, run.diagnostics(), f);
                rc = 1;
                continue;
            }
        }
        out << f << ": ok\n";
    }
    return rc;
}

int cmdRun(const Args& args, std::ostream& out, std::ostream& err) {
    if (args.size() != 2) {
        err << "usage: layoutscope-cli run FILE\n";
        return 2;
    }
    auto l = loadAndRun(args[1], err);
    if (!l) return 1;
    const Trace& t = l->run.trace;
    out << args[1] << ": target " << l->scenario.target << ", cluster " << l->scenario.clusterSize << ", "
        << t.instrs.size() << " instructions, " << t.stepCount << " steps\n";
    uint64_t total = 0;
    for (uint32_t i = 0; i < t.instrs.size(); ++i) {
        const TraceInstr& ti = t.instrs[i];
        uint64_t bytes = 0;
        std::map<RuleId, uint64_t> rules;
        for (const ByteMove& m : t.moves)
            if (m.instr == i) bytes += m.length, rules[m.rule] += m.length;
        total += bytes;
        out << "\n[" << i << "] line " << ti.sourceLine << ": " << ti.text << "\n";
        out << "    " << ti.summary << "\n";
        out << "    " << bytes << " B moved in " << (ti.endStep - ti.firstStep) << " steps [" << ti.firstStep << ", "
            << ti.endStep << ")\n";
        std::map<std::pair<uint32_t, uint32_t>, int64_t> tx;
        for (const TxEvent& e : t.txEvents)
            if (e.instr == i) tx[{e.cta, e.mbarAddr}] += e.bytes;
        for (const auto& [k, v] : tx)
            out << "    mbarrier cta" << k.first << ":" << hex(k.second) << (v >= 0 ? " complete-tx " : " expect-tx ")
                << (v >= 0 ? v : -v) << " B\n";
        for (const auto& [r, n] : rules) {
            const RuleInfo& ri = ruleInfo(r);
            out << "    rule " << ri.name << " (" << n << " B) [" << ri.reference << "; " << provenanceTag(ri.provenance)
                << "]\n";
        }
    }
    out << "\ntotal " << total << " B moved\n";
    for (const auto& [k, mb] : l->run.final.mbarriers)
        out << "mbarrier cta" << k.first << ":" << hex(k.second) << " tx-count " << mb.txCount << ", completed "
            << mb.completedBytes << " B\n";
    return 0;
}

int cmdDump(const Args& args, std::ostream& out, std::ostream& err) {
    std::string file;
    std::optional<uint32_t> step;
    for (size_t i = 1; i < args.size(); ++i) {
        if (args[i] == "--step" && i + 1 < args.size()) {
            try {
                step = static_cast<uint32_t>(std::stoul(args[++i]));
            } catch (...) {
                err << "dump: --step takes a step number\n";
                return 2;
            }
        } else if (file.empty()) {
            file = args[i];
        } else {
            err << "usage: layoutscope-cli dump FILE [--step N]\n";
            return 2;
        }
    }
    if (file.empty()) {
        err << "usage: layoutscope-cli dump FILE [--step N]\n";
        return 2;
    }
    auto l = loadAndRun(file, err);
    if (!l) return 1;
    const Trace& t = l->run.trace;
    size_t lo = 0, hi = t.moves.size();
    if (step) std::tie(lo, hi) = t.movesOfStep(*step);
    out << "# step instr src dst length transform rule coord\n";
    for (size_t i = lo; i < hi; ++i) {
        const ByteMove& m = t.moves[i];
        const TraceInstr& ti = t.instrs.at(m.instr);
        (void)ti;
        out << m.step << " " << m.instr << " " << memRef(m.src) << " " << memRef(m.dst) << " " << m.length << " "
            << "\"" << transformName(m.transform) << "\" \"" << ruleInfo(m.rule).name << "\" (" << m.coord[0];
        for (int k = 1; k < 5; ++k) out << "," << m.coord[k];
        out << ")\n";
    }
    return 0;
}

} // namespace layoutscope::cli
