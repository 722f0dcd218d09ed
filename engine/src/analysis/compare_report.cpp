// `layoutscope-cli compare`'s counts by logical element (compare_match.hpp): each scenario's final state
// against the first, as the compare window's panes at the last position.
#include "layoutscope/analysis/compare_match.hpp"

#include <sstream>

namespace layoutscope {

namespace {

struct RunContent {
    std::string name;
    Run run;
    SmemElements smem;
    bool movesTmem = false;
    TmemElements tmem;
};

bool movesTmem(const Trace& t) {
    for (const ByteMove& m : t.moves)
        if (m.dst.space == MemSpace::TensorMemory || m.src.space == MemSpace::TensorMemory) return true;
    return false;
}

ElementCounts countsOf(const CellMatches& m, const std::vector<std::optional<ElementKey>>& keys) {
    ElementCounts c;
    c.cells = keys.size();
    c.reshuffled = m.reshuffled;
    c.different = m.different;
    for (size_t i = 0; i < keys.size() && i < m.kind.size(); ++i)
        c.same += keys[i] && m.kind[i] == CellMatch::Same;
    return c;
}

/// 16320 -> "16,320".
std::string grouped(size_t n) {
    const std::string digits = std::to_string(n);
    std::string s;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) s += ',';
        s += digits[i];
    }
    return s;
}

std::string jsonString(const std::string& s) {
    std::string o = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') o += '\\';
        o += c;
    }
    return o + "\"";
}

} // namespace

Result<ElementComparison> compareElements(const std::vector<std::string>& paths, std::string* failed) {
    std::vector<RunContent> runs;
    for (const std::string& p : paths) {
        if (failed) *failed = p;
        auto text = readScenarioFile(p);
        if (!text) return Result<ElementComparison>(text.diagnostics());
        auto sc = loadScenario(*text, p);
        if (!sc) return Result<ElementComparison>(sc.diagnostics());
        auto run = runScenario(*sc);
        if (!run) return Result<ElementComparison>(run.diagnostics());
        RunContent rc{p.substr(p.find_last_of('/') + 1), std::move(*run), {}, false, {}};
        const Trace& t = rc.run.trace;
        const std::vector<TensorCopyInfo> copies = tensorCopiesOf(*sc);
        const SharedWindow w = sharedWindowOf(t, 0, &*sc);
        rc.smem =
            smemElementsAt(t, rc.run.initial, copies, w, lastSmemWriters(t, w, t.stepCount), t.stepCount);
        rc.movesTmem = movesTmem(t);
        if (rc.movesTmem) {
            const auto [first, count] = tmemCtasOf(t, 0);
            TmemCellsAt cells = tmemCellsAt(t, first, count, t.stepCount);
            rc.tmem = tmemElementsAt(t, rc.run.tmemInitial, copies, std::move(cells.cells), cells.moveOf,
                                     t.stepCount, rc.smem);
        }
        runs.push_back(std::move(rc));
    }
    if (failed) failed->clear();
    ElementComparison out;
    if (runs.empty()) return out;
    out.hasTmem = true;
    for (const RunContent& r : runs) {
        out.names.push_back(r.name);
        out.hasTmem = out.hasTmem && r.movesTmem;
    }
    // Run k against run 0; run 0 the stronger class against any other (the compare window's pane 1).
    CellMatches first, firstTmem; // mergeMatches sizes them (Same, -1) from the first merge
    out.smem.resize(runs.size());
    if (out.hasTmem) out.tmem.resize(runs.size());
    for (size_t k = 1; k < runs.size(); ++k) {
        out.smem[k] = countsOf(matchSmem(runs[0].smem, runs[k].smem), runs[k].smem.keys);
        mergeMatches(first, matchSmem(runs[k].smem, runs[0].smem));
        if (!out.hasTmem) continue;
        out.tmem[k] = countsOf(matchTmem(runs[0].tmem, runs[k].tmem), runs[k].tmem.keys);
        mergeMatches(firstTmem, matchTmem(runs[k].tmem, runs[0].tmem));
    }
    out.smem[0] = countsOf(first, runs[0].smem.keys);
    if (out.hasTmem) out.tmem[0] = countsOf(firstTmem, runs[0].tmem.keys);
    return out;
}

std::string formatElementComparison(const ElementComparison& c, const std::string& format) {
    std::ostringstream o;
    if (c.names.size() < 2) return {};
    struct Row {
        size_t run;
        const char* memory;
        const char* unit;
        const ElementCounts* n;
    };
    std::vector<Row> rows;
    for (size_t k = 0; k < c.names.size(); ++k) {
        rows.push_back({k, "shared memory", "B", &c.smem[k]});
        if (c.hasTmem) rows.push_back({k, "Tensor Memory", "cells", &c.tmem[k]});
    }
    auto against = [&](size_t k) { return k == 0 ? std::string("every other") : "1 (" + c.names[0] + ")"; };
    if (format == "json") {
        o << "[\n";
        for (size_t i = 0; i < rows.size(); ++i) {
            const Row& r = rows[i];
            o << "  {\"scenario\": " << jsonString(c.names[r.run])
              << ", \"against\": " << (r.run == 0 ? std::string("\"every other\"") : jsonString(c.names[0]))
              << ", \"memory\": \"" << (r.unit[0] == 'B' ? "smem" : "tmem") << "\", \"cells\": " << r.n->cells
              << ", \"same\": " << r.n->same << ", \"reshuffled\": " << r.n->reshuffled
              << ", \"different\": " << r.n->different << "}" << (i + 1 < rows.size() ? "," : "") << "\n";
        }
        o << "]\n";
        return o.str();
    }
    if (format == "csv") { // rows of the metrics table's CSV (metric, one value per scenario)
        for (const bool tmem : {false, true}) {
            if (tmem && !c.hasTmem) continue;
            const std::vector<ElementCounts>& v = tmem ? c.tmem : c.smem;
            const std::string what = tmem ? "TMEM cells " : "shared-memory bytes ";
            auto row = [&](const char* cls, size_t ElementCounts::*field) {
                o << what << cls << " (by logical element; 1: against every other; k: against 1)";
                for (const ElementCounts& n : v) o << "," << n.*field;
                o << "\n";
            };
            row("same", &ElementCounts::same);
            row("reshuffled", &ElementCounts::reshuffled);
            row("different", &ElementCounts::different);
        }
        return o.str();
    }
    const char* note = "By logical element, final state (the compare window's classes): same = the element "
                       "at the same place, reshuffled = elsewhere in the other, different = the other lacks "
                       "it with this value.";
    if (format == "md") {
        o << "\n" << note << "\n\n| scenario | against | memory | same | reshuffled | different |\n";
        o << "|---|---|---|---:|---:|---:|\n";
        for (const Row& r : rows)
            o << "| " << c.names[r.run] << " | " << against(r.run) << " | " << r.memory << " | "
              << grouped(r.n->same) << " | " << grouped(r.n->reshuffled) << " | " << grouped(r.n->different)
              << " |\n";
        return o.str();
    }
    o << "\n" << note << "\n";
    for (const Row& r : rows)
        o << "  " << r.run + 1 << ": " << c.names[r.run] << " against " << against(r.run) << ", " << r.memory
          << " (" << grouped(r.n->cells) << " " << r.unit << "): same " << grouped(r.n->same)
          << ", reshuffled " << grouped(r.n->reshuffled) << ", different " << grouped(r.n->different) << "\n";
    return o.str();
}

} // namespace layoutscope
