// `layoutscope-cli diff F.scn [--smem NAME=FILE] [--global NAME=FILE] [--tmem FILE] [--cta N] [--lanes A:B]
// [--cols C:D] [--max N]`: bytes dumped from a real kernel against the engine's prediction (issue 13 item 4;
// docs/observed.md). The scenario's own `observe` directives are compared too (paths relative to its folder).
#include "cli/commands.hpp"
#include "layoutscope/analysis/observed.hpp"
#include "layoutscope/scenario/scenario.hpp"

#include <cstdint>
#include <cstdio>

namespace layoutscope::cli {
namespace {

std::string hex2(unsigned v) {
    char b[8];
    std::snprintf(b, sizeof b, "0x%02x", v);
    return b;
}

std::string spaceName(const Observation& o) {
    switch (o.space) {
    case Observation::Space::Smem:
        return "smem " + o.name + " (CTA " + std::to_string(o.cta) + ")";
    case Observation::Space::Global:
        return "global " + o.name;
    case Observation::Space::Tmem:
        return "tmem (CTA " + std::to_string(o.cta) + ") lanes " + std::to_string(o.lane0) + ":" +
               std::to_string(o.lane0 + o.lanes) + " columns " + std::to_string(o.col0) + ":" +
               std::to_string(o.col0 + o.cols);
    }
    return "";
}

bool parseRange(const std::string& s, uint32_t& first, uint32_t& count) {
    const size_t c = s.find(':');
    if (c == std::string::npos) return false;
    const auto a = parseUnsigned(s.substr(0, c), UINT32_MAX), b = parseUnsigned(s.substr(c + 1), UINT32_MAX);
    if (!a || !b || *a >= *b) return false;
    first = static_cast<uint32_t>(*a), count = static_cast<uint32_t>(*b - *a);
    return true;
}

} // namespace

int cmdDiff(const Args& args, std::ostream& out, std::ostream& err) {
    std::string file;
    std::vector<Observation> given;
    uint32_t cta = 0, lane0 = 0, lanes = 128, col0 = 0, cols = 0;
    size_t maxDiffs = 16;
    auto usage = [&](const std::string& why) {
        err << "diff: " << why << "\n" << usageOf("diff");
        return kExitUsage;
    };
    for (size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        const bool hasValue = i + 1 < args.size();
        if ((a == "--smem" || a == "--global") && hasValue) {
            const std::string& v = args[++i];
            const size_t eq = v.find('=');
            if (eq == std::string::npos || eq == 0 || eq + 1 == v.size())
                return usage(a + " takes NAME=FILE");
            Observation o;
            o.space = a == "--smem" ? Observation::Space::Smem : Observation::Space::Global;
            o.name = v.substr(0, eq), o.path = v.substr(eq + 1), o.cta = cta;
            given.push_back(o);
        } else if (a == "--tmem" && hasValue) {
            Observation o;
            o.space = Observation::Space::Tmem;
            o.path = args[++i], o.cta = cta, o.lane0 = lane0, o.lanes = lanes, o.col0 = col0, o.cols = cols;
            given.push_back(o);
        } else if (a == "--cta" && hasValue) {
            const auto v = parseUnsigned(args[++i], UINT32_MAX);
            if (!v) return usage("--cta takes a CTA number");
            cta = static_cast<uint32_t>(*v);
        } else if ((a == "--lanes" || a == "--cols") && hasValue) {
            if (!parseRange(args[++i], a == "--lanes" ? lane0 : col0, a == "--lanes" ? lanes : cols))
                return usage(a + " takes FIRST:END");
        } else if (a == "--max" && hasValue) {
            const auto v = parseUnsigned(args[++i], UINT32_MAX);
            if (!v) return usage("--max takes a count");
            maxDiffs = static_cast<size_t>(*v);
        } else if (!a.empty() && a[0] == '-') {
            return usage("unknown option " + a);
        } else if (file.empty()) {
            file = a;
        } else {
            return usage("one scenario at a time");
        }
    }
    if (file.empty()) return usage("no scenario given");
    auto l = loadScenarioForCommand(file, err);
    if (!l) return kExitDiagnostics;
    const Scenario* sc = &l->scenario;
    const Run* run = &*l->run;
    auto print = [&](const std::vector<Diagnostic>& ds, const std::string& f) {
        printDiagnostics(err, ds, f);
    };
    const size_t slash = file.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "" : file.substr(0, slash + 1);
    std::vector<Observation> all = sc->observations;
    for (Observation& o : all)
        if (!o.path.empty() && o.path[0] != '/') o.path = dir + o.path;
    all.insert(all.end(), given.begin(), given.end());
    if (all.empty())
        return usage("nothing to compare: give --smem/--global/--tmem or an `observe` directive");
    int status = kExitOk;
    for (const Observation& o : all) {
        auto bytes = readObservedFile(o.path);
        if (!bytes) {
            print(bytes.diagnostics(), o.path);
            status = kExitDiagnostics;
            continue;
        }
        auto rep = compareObserved(*sc, *run, o, *bytes, maxDiffs);
        if (!rep) {
            print(rep.diagnostics(), file);
            status = kExitDiagnostics;
            continue;
        }
        print(rep->notes, file);
        out << spaceName(rep->observation) << " vs " << o.path << " [" << rep->format
            << "]: " << rep->compared << " bytes compared, " << rep->differing
            << (rep->differing ? " differ" : " differ: matches the engine") << "\n";
        for (const ByteDiff& d : rep->first)
            out << "  +" << d.offset << " (" << d.where << "): observed " << hex2(d.observed)
                << ", predicted " << hex2(d.predicted) << (d.hint.empty() ? "" : "; " + d.hint) << "\n";
        if (rep->differing > rep->first.size())
            out << "  ... " << rep->differing - rep->first.size() << " more (--max N shows more)\n";
        if (rep->differing) status = kExitDiagnostics;
    }
    return status;
}

} // namespace layoutscope::cli
