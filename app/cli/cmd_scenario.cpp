// run / dump / check: the scenario front end without a GUI (docs/scenario-format.md).
#include "cli/commands.hpp"
#include "cli/dump_decoded.hpp"
#include "layoutscope/core/number_formats.hpp"
#include "layoutscope/engine.hpp"
#include "layoutscope/ptx/module.hpp"
#include "layoutscope/tcgen05/umma.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <map>
#include <new>
#include <optional>
#include <set>

namespace layoutscope::cli {
namespace {

bool hasError(const std::vector<Diagnostic>& ds) {
    return std::any_of(ds.begin(), ds.end(),
                       [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

void printDiags(std::ostream& out, const std::vector<Diagnostic>& ds, const std::string& file) {
    printDiagnostics(out, ds, file); // capped per rule (load_scenario.cpp)
}

std::string hex(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

std::string memRef(const MemRef& r) {
    switch (r.space) {
    case MemSpace::Global:
        return "global:" + hex(r.addr);
    case MemSpace::SharedCta:
        return "smem[cta" + std::to_string(r.cta) + "]:" + hex(r.addr);
    case MemSpace::TensorMemory:
        return "tmem[cta" + std::to_string(r.cta) + "]:lane" + std::to_string(r.addr >> 16) + ",col" +
               std::to_string(r.addr & 0xFFFF);
    case MemSpace::Register: // threadInCta << 16 | (register * 4 + byte) (tcgen05_exec.hpp)
        return "reg[cta" + std::to_string(r.cta) + "]:t" + std::to_string(r.addr >> 16) + ".r" +
               std::to_string((r.addr & 0xFFFF) / 4) + ".b" + std::to_string(r.addr & 3);
    case MemSpace::Fill:
        return "fill";
    case MemSpace::None:
        break;
    }
    return "-";
}

// Load, parse and run one scenario; prints diagnostics to `err` and returns nullopt on failure.
struct Loaded {
    Scenario scenario;
    Run run;
};
std::optional<Loaded> loadAndRun(const std::string& path, std::ostream& err) {
    auto text = readScenarioFile(path); // bounded: kMaxScenarioBytes
    if (!text) {
        printDiags(err, text.diagnostics(), path);
        return std::nullopt;
    }
    auto sc = loadScenario(*text, path); // a `kernel` directive runs its kernel (docs/exec.md)
    if (!sc) {
        printDiags(err, sc.diagnostics(), path);
        return std::nullopt;
    }
    auto run = runScenario(*sc);
    if (!run) {
        printDiags(err, placeInKernel(*sc, run.diagnostics()), path);
        return std::nullopt;
    }
    run->warnings = placeInKernel(*sc, std::move(run->warnings));
    if (auto bad = observeFileErrors(*sc, path); !bad.empty()) { // `observe` files are inputs too
        printDiags(err, bad, path);
        return std::nullopt;
    }
    return Loaded{std::move(sc).value(), std::move(run).value()};
}

// check of one file: 0 if it parses (and with `execute` runs), else 1 after printing its diagnostics
// on `err`; "FILE: ok" goes to `out`.
int checkOne(const std::string& f, bool execute, std::ostream& out, std::ostream& err) {
    if (isPtxModulePath(f)) return checkModuleFile(f, out, err); // docs/ptx-modules.md
    auto text = readScenarioFile(f);
    if (!text) {
        printDiags(err, text.diagnostics(), f);
        return 1;
    }
    if (looksLikePtxModule(*text)) return checkModule(f, *text, out, err);
    auto sc = loadScenario(*text, f); // a `kernel` directive runs its kernel (docs/exec.md)
    if (!sc) {
        printDiags(err, sc.diagnostics(), f);
        return 1;
    }
    size_t warnings = 0;
    if (execute) {
        auto run = runScenario(*sc);
        if (!run) {
            printDiags(err, placeInKernel(*sc, run.diagnostics()), f);
            return 1;
        }
        run->warnings = placeInKernel(*sc, std::move(run->warnings));
        printDiags(err, run->warnings, f);     // warnings do not change the exit status; errors found by the
        if (hasError(run->warnings)) return 1; // run's checks (TMEM use, expect_tx) do
        if (auto bad = observeFileErrors(*sc, f); !bad.empty()) {
            printDiags(err, bad, f);
            return 1;
        }
        for (const Diagnostic& d : run->warnings) warnings += d.severity == Severity::Warning;
        // Where the run stopped recording its trace (issue 25 item 9: said, not silent).
        if (const std::string note = traceBudgetNote(run->trace); !note.empty())
            err << f << ": note: " << note << "\n";
    }
    // A run with warnings (ordering findings among them, docs/async-order.md) is not a bare "ok".
    out << f << ": ok";
    if (warnings) out << " (" << warnings << " warning" << (warnings == 1 ? "" : "s") << " on stderr)";
    out << "\n";
    return 0;
}

// " [unverified: open question 3, 28]" for an Assumption rule (numbers from its reference), else "".
std::string unverifiedMark(const RuleInfo& ri) {
    if (ri.provenance != Provenance::Assumption) return {};
    const std::string ref = ri.reference;
    const size_t at = ref.find("open-questions.md");
    std::string nums;
    for (size_t i = at == std::string::npos ? ref.size() : at + 17; i < ref.size(); ++i) {
        const char c = ref[i];
        if (c == ';' || c == ']' || c == ')') break;
        if ((c >= '0' && c <= '9') || c == ',' || c == ' ') nums += c;
    }
    while (!nums.empty() && (nums.front() == ' ' || nums.front() == ',')) nums.erase(0, 1);
    while (!nums.empty() && (nums.back() == ' ' || nums.back() == ',')) nums.pop_back();
    return nums.empty() ? " [unverified]" : " [unverified: open question " + nums + "]";
}

// "A:B,C:D" with separators ":,:" -> the numbers, each a whole 32-bit number (parseUnsigned).
bool splitNumbers(const std::string& v, const std::string& seps, std::initializer_list<uint32_t*> outs) {
    size_t at = 0, k = 0;
    for (uint32_t* o : outs) {
        const size_t end = k < seps.size() ? v.find(seps[k], at) : v.size();
        if (end == std::string::npos) return false;
        const auto n = parseUnsigned(v.substr(at, end - at), UINT32_MAX);
        if (!n) return false;
        *o = static_cast<uint32_t>(*n);
        at = end + 1, ++k;
    }
    return at == v.size() + 1;
}

// dump --tmem / --regs: the final TMEM cells (hex, one row per lane) and a warp's final registers.
int printStateTables(const Loaded& l, const std::optional<std::array<uint32_t, 4>>& box, uint32_t cta,
                     const std::optional<std::pair<uint32_t, uint32_t>>& regs, std::ostream& out,
                     std::ostream& err) {
    char buf[16];
    if (box) {
        if (cta >= l.run.tmemFinal.ctas.size()) {
            err << "dump: --tmem-cta " << cta << " is outside the cluster\n";
            return 2;
        }
        const TensorMemory& m = l.run.tmemFinal.ctas[cta];
        out << "# tmem cta" << cta << " lanes " << (*box)[0] << ".." << (*box)[1] << " columns " << (*box)[2]
            << ".." << (*box)[3] << " (final, 32-bit cells in hex)\nlane\\col";
        for (uint32_t c = (*box)[2]; c <= (*box)[3]; ++c)
            out << " " << std::string(8 - std::min<size_t>(8, std::to_string(c).size()), ' ') << c;
        out << "\n";
        for (uint32_t lane = (*box)[0]; lane <= (*box)[1]; ++lane) {
            std::snprintf(buf, sizeof buf, "%8u", lane);
            out << buf;
            for (uint32_t c = (*box)[2]; c <= (*box)[3]; ++c) {
                std::snprintf(buf, sizeof buf, " %08x", m.cell(lane, c));
                out << buf;
            }
            out << "\n";
        }
        printDecodedTmem(l.scenario, *box, cta, m, out); // dump_decoded.cpp
    }
    if (regs) {
        const ScenarioWarp* w = nullptr;
        for (const ScenarioWarp& x : l.run.warps)
            if (x.cta == regs->first && x.warp == regs->second) w = &x;
        if (!w) {
            err << "dump: warp " << regs->second << " of CTA " << regs->first
                << " executes no tcgen05.st/ld and takes part in no wgmma.mma_async\n";
            return 1;
        }
        std::set<uint32_t> named; // the registers the warp's tcgen05.st/ld and its warpgroup's wgmma name
        for (const ScenarioInstr& in : l.scenario.instrs) {
            if (in.kind == ScenarioInstrKind::Tcgen05 && in.cta == w->cta && in.warp == w->warp)
                named.insert(in.regs.begin(), in.regs.end());
            if (in.wgmma && in.cta == w->cta && in.warp / 4 == w->warp / 4) // D of the warpgroup
                named.insert(in.wgmma->dRegs.begin(), in.wgmma->dRegs.end());
        }
        out << "# registers cta" << w->cta << " warp " << w->warp
            << " named by its tcgen05.st/ld and wgmma D (final, hex; * = changed by the run)\nthread";
        for (uint32_t j : named) {
            std::snprintf(buf, sizeof buf, " %9s", ("r" + std::to_string(j)).c_str());
            out << buf;
        }
        out << "\n";
        for (uint32_t t = 0; t < 32; ++t) {
            std::snprintf(buf, sizeof buf, "%6u", t);
            out << buf;
            for (uint32_t j : named) {
                const bool changed = j < w->initial[t].size() && w->initial[t][j] != w->final[t][j];
                std::snprintf(buf, sizeof buf, " %08x%c", w->final[t][j], changed ? '*' : ' ');
                out << buf;
            }
            out << "\n";
        }
        printDecodedWgmmaD(l.scenario, *w, out);
    }
    return 0;
}

} // namespace

int cmdCheck(const Args& args, std::ostream& out, std::ostream& err) {
    // check [--run] FILE...: parse and validate; with --run also execute (reports hardware faults).
    bool execute = false;
    std::vector<std::string> files;
    for (size_t i = 1; i < args.size(); ++i) {
        if (args[i] == "--run") {
            execute = true;
        } else if (args[i].rfind("--", 0) == 0) {
            err << "check: unknown option '" << args[i] << "'\n" << usageOf("check");
            return kExitUsage;
        } else {
            files.push_back(args[i]);
        }
    }
    if (files.empty()) {
        err << usageOf("check");
        return kExitUsage;
    }
    int rc = 0;
    for (const std::string& f : files) {
        try {
            rc |= checkOne(f, execute, out, err);
        } catch (const std::bad_alloc&) { // out of memory is this file's diagnostic; go on with the next
            out.flush();
            err << outOfMemory(f) << "\n";
            rc = 1;
        }
    }
    return rc;
}

int cmdRun(const Args& args, std::ostream& out, std::ostream& err) {
    if (args.size() != 2 || args[1].rfind("--", 0) == 0) {
        if (args.size() == 2) err << "run: unknown option '" << args[1] << "'\n";
        err << usageOf("run");
        return kExitUsage;
    }
    auto l = loadAndRun(args[1], err);
    if (!l) return 1;
    const Trace& t = l->run.trace;
    out << args[1] << ": target " << l->scenario.target << ", cluster " << l->scenario.clusterSize << ", "
        << t.instrs.size() << " instructions, " << t.stepCount << " steps\n";
    if (const std::string note = traceBudgetNote(t); !note.empty()) out << note << "\n";
    uint64_t total = 0;
    size_t txAt = 0;
    for (uint32_t i = 0; i < t.instrs.size(); ++i) {
        const TraceInstr& ti = t.instrs[i];
        const uint64_t bytes = ti.bytesMoved;
        std::map<RuleId, uint64_t> rules;
        // A run's rule and length never vary (move_table.hpp): a tally by runs, not by moves.
        for (const MoveTable::RunSpan& r : t.moves.runSpans(ti.firstMove, ti.endMove))
            rules[r.first.rule] += uint64_t(r.first.length) * (r.k1 - r.k0);
        total += bytes;
        out << "\n[" << i << "] line " << ti.sourceLine << ": " << ti.text << "\n";
        out << "    " << ti.summary << "\n";
        out << "    " << bytes << " B moved in " << (ti.endStep - ti.firstStep) << " steps [" << ti.firstStep
            << ", " << ti.endStep << ")\n";
        std::map<std::pair<uint32_t, uint32_t>, int64_t> tx;
        // txEvents are appended in instruction order: one pass over them for the whole listing.
        for (; txAt < t.txEvents.size() && t.txEvents[txAt].instr <= i; ++txAt)
            if (t.txEvents[txAt].instr == i)
                tx[{t.txEvents[txAt].cta, t.txEvents[txAt].mbarAddr}] += t.txEvents[txAt].bytes;
        for (const auto& [k, v] : tx)
            out << "    mbarrier cta" << k.first << ":" << hex(k.second)
                << (v >= 0 ? " complete-tx " : " expect-tx ") << (v >= 0 ? v : -v) << " B\n";
        for (const auto& [r, n] : rules) {
            const RuleInfo& ri = ruleInfo(r);
            out << "    rule " << ri.name << " (" << n << " B) [" << ri.reference << "; "
                << provenanceTag(ri.provenance) << "]" << unverifiedMark(ri) << "\n";
        }
        for (RuleId r : ti.alsoRules) { // rules the instruction applied that no single move names
            if (rules.count(r)) continue;
            const RuleInfo& ri = ruleInfo(r);
            out << "    rule " << ri.name << " (whole instruction) [" << ri.reference << "; "
                << provenanceTag(ri.provenance) << "]" << unverifiedMark(ri) << "\n";
        }
    }
    out << "\ntotal " << total << " B moved\n";
    printDiags(err, l->run.warnings, args[1]); // warnings (e.g. TMEM still allocated) keep exit status 0
    for (const auto& [k, mb] : l->run.final.mbarriers)
        out << "mbarrier cta" << k.first << ":" << hex(k.second) << " tx-count " << mb.txCount
            << ", completed " << mb.completedBytes << " B\n";
    return hasError(l->run.warnings) ? 1 : 0; // the run completed, but a check found an error
}

int cmdDump(const Args& args, std::ostream& out, std::ostream& err) {
    std::string file;
    std::optional<uint32_t> step;
    std::optional<std::array<uint32_t, 4>> tmemBox;
    std::optional<std::pair<uint32_t, uint32_t>> regsOf;
    uint32_t tmemCta = 0;
    for (size_t i = 1; i < args.size(); ++i) {
        if (args[i] == "--step" && i + 1 < args.size()) {
            const auto v = parseUnsigned(args[++i], UINT32_MAX);
            if (!v) {
                err << "dump: --step takes a step number (0 to 4294967295), not '" << args[i] << "'\n";
                return 2;
            }
            step = static_cast<uint32_t>(*v);
        } else if ((args[i] == "--tmem" || args[i] == "--regs") && i + 1 < args.size()) {
            // --tmem LANE0:LANE1,COL0:COL1 (inclusive, CTA 0; --tmem-cta N) / --regs CTA,WARP: final state
            // tables
            const bool tm = args[i] == "--tmem";
            uint32_t a = 0, b = 0, c = 0, d = 0;
            const std::string& v = args[++i];
            if (tm ? !splitNumbers(v, ":,:", {&a, &b, &c, &d}) || a > b || c > d || b >= kTmemLanes ||
                         d >= kTmemColumns
                   : !splitNumbers(v, ",", {&a, &b})) {
                err << (tm ? "dump: --tmem takes LANE0:LANE1,COL0:COL1 (lanes < 128, columns < 512)\n"
                           : "dump: --regs takes CTA,WARP\n");
                return 2;
            }
            if (tm)
                tmemBox = {a, b, c, d};
            else
                regsOf = {a, b};
        } else if (args[i] == "--tmem-cta" && i + 1 < args.size()) {
            const auto v = parseUnsigned(args[++i], UINT32_MAX);
            if (!v) {
                err << "dump: --tmem-cta takes a CTA number, not '" << args[i] << "'\n";
                return 2;
            }
            tmemCta = static_cast<uint32_t>(*v);
        } else if (file.empty() && args[i].rfind("--", 0) != 0) {
            file = args[i];
        } else {
            err << usageOf("dump");
            return kExitUsage;
        }
    }
    if (file.empty()) {
        err << usageOf("dump");
        return kExitUsage;
    }
    auto l = loadAndRun(file, err);
    if (!l) return 1;
    if (tmemBox || regsOf) return printStateTables(*l, tmemBox, tmemCta, regsOf, out, err);
    const Trace& t = l->run.trace;
    size_t lo = 0, hi = t.moves.size();
    if (step) std::tie(lo, hi) = t.movesOfStep(*step);
    out << "# step instr src dst length transform rule coord\n";
    for (size_t i = lo; i < hi; ++i) {
        const ByteMove& m = t.moves[i];
        const TraceInstr& ti = t.instrs.at(m.instr);
        (void)ti;
        out << m.step << " " << m.instr << " " << memRef(m.src) << " " << memRef(m.dst) << " " << m.length
            << " "
            << "\"" << transformName(m.transform) << "\" \"" << ruleInfo(m.rule).name << "\" (" << m.coord[0];
        for (int k = 1; k < 5; ++k) out << "," << m.coord[k];
        out << ")\n";
    }
    return 0;
}

} // namespace layoutscope::cli
