// `layoutscope-cli infer F.scn --smem BUF=FILE [--tensor T] [--cta N]`: the tile-load parameters that
// reproduce a dumped shared-memory tile (issue 13 item 5; docs/observed.md "infer").
#include "cli/commands.hpp"
#include "layoutscope/analysis/infer.hpp"
#include "layoutscope/analysis/observed.hpp"
#include "layoutscope/scenario/scenario.hpp"
#include "layoutscope/tma/tensor_map_decode.hpp"

#include <algorithm>

namespace layoutscope::cli {
namespace {

std::string coordText(const InferCandidate& c, uint32_t rank) {
    std::string s = "{";
    for (uint32_t d = 0; d < rank; ++d) s += (d ? ", " : "") + std::to_string(c.coords[d]);
    return s + "}";
}

std::string describe(const InferCandidate& c, const std::string& name) {
    DecodedTensorMap d;
    d.map = c.map;
    std::string dir = tensorMapDirective(d, name);
    while (!dir.empty() && dir.back() == '\n') dir.pop_back();
    const size_t last = dir.rfind('\n'); // comment lines first, the directive last
    if (last != std::string::npos) dir = dir.substr(last + 1);
    return dir + "\n    load at " + coordText(c, c.map.p.tensorRank) + ", buffer at shared::cta " +
           std::to_string(c.smemAddr) + " (" + std::to_string(c.smemAddr % 1024) + " mod 1024)";
}

/// The scenario's last TMA tile load into the buffer, if any.
const TmaTileLoad* lastLoadInto(const Scenario& s, const ScenarioBuffer& b) {
    const TmaTileLoad* found = nullptr;
    for (const ScenarioInstr& in : s.instrs)
        if (const TmaTileLoad* ld = std::get_if<TmaTileLoad>(&in.op))
            if (in.kind == ScenarioInstrKind::Copy && ld->dstAddr >= b.addr && ld->dstAddr < b.addr + b.size)
                found = ld;
    return found;
}

} // namespace

int cmdInfer(const Args& args, std::ostream& out, std::ostream& err) {
    std::string file, buffer, dump, tensorName;
    auto usage = [&](const std::string& why) {
        err << "infer: " << why << "\n" << usageOf("infer");
        return kExitUsage;
    };
    for (size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--smem" && i + 1 < args.size()) {
            const std::string& v = args[++i];
            const size_t eq = v.find('=');
            if (eq == std::string::npos || eq == 0 || eq + 1 == v.size())
                return usage("--smem takes BUF=FILE");
            buffer = v.substr(0, eq), dump = v.substr(eq + 1);
        } else if (a == "--tensor" && i + 1 < args.size()) {
            tensorName = args[++i];
        } else if (!a.empty() && a[0] == '-') {
            return usage("unknown option " + a);
        } else if (file.empty()) {
            file = a;
        } else {
            return usage("one scenario at a time");
        }
    }
    if (file.empty() || dump.empty()) return usage("give a scenario and --smem BUF=FILE");
    auto print = [&](const std::vector<Diagnostic>& ds, const std::string& f) {
        printDiagnostics(err, ds, f);
    };
    auto l = loadScenarioForCommand(file, err, false);
    if (!l) return kExitDiagnostics;
    const Scenario* sc = &l->scenario;
    const ScenarioBuffer* buf = sc->findBuffer(buffer);
    if (!buf) return err << file << ": error: no shared-memory buffer '" << buffer << "'\n", kExitDiagnostics;
    const TmaTileLoad* load = lastLoadInto(*sc, *buf);
    const ScenarioTensorMap* t = nullptr;
    if (!tensorName.empty())
        t = sc->findTensorMap(tensorName);
    else if (load)
        for (const ScenarioTensorMap& m : sc->tensorMaps)
            if (m.map.p.globalAddress == load->map.p.globalAddress) t = &m;
    if (!t && tensorName.empty() && sc->tensorMaps.size() == 1) t = &sc->tensorMaps[0];
    if (!t) return usage("which tensor did the tile come from? give --tensor T");
    auto bytes = readObservedFile(dump);
    if (!bytes) return print(bytes.diagnostics(), dump), kExitDiagnostics;
    const TmaArch arch = sc->target.rfind("sm_9", 0) == 0 ? TmaArch::Sm90 : TmaArch::Sm100;
    auto r = inferTileLoad(*t, bytes->bytes, buf->addr, arch);
    if (!r) return print(r.diagnostics(), file), kExitDiagnostics;
    out << "infer: " << bytes->bytes.size() << " observed bytes of " << buffer << " against tensor "
        << t->name << " (pattern=index): " << r->tried << " candidate loads run through the engine\n";
    const InferCandidate& best = r->exact.empty() ? r->closest : r->exact.front();
    if (r->exact.empty()) {
        out << "no load reproduces the tile exactly; closest (" << r->closest.differing << " of "
            << bytes->bytes.size() << " bytes differ):\n  " << describe(r->closest, t->name) << "\n";
    } else {
        out << "exact (" << r->exact.size() << "):\n";
        for (size_t i = 0; i < r->exact.size() && i < 8; ++i)
            out << "  " << describe(r->exact[i], t->name) << "\n";
        if (r->exact.size() > 8) out << "  ... " << r->exact.size() - 8 << " more\n";
    }
    if (load) { // what the scenario says, field by field
        std::string diffs;
        const TensorMapTiledParams &a = best.map.p, &b = load->map.p;
        if (a.swizzle != b.swizzle) diffs += " swizzle (scenario " + cudaName(b.swizzle) + ")";
        if (!std::equal(a.boxDim.begin(), a.boxDim.begin() + a.tensorRank, b.boxDim.begin())) diffs += " box";
        if (elementBits(a.dataType) != elementBits(b.dataType)) diffs += " element size";
        if (!std::equal(best.coords.begin(), best.coords.begin() + a.tensorRank, load->coords.begin()))
            diffs += " coordinates";
        if (best.smemAddr % 1024 != buf->addr % 1024) diffs += " buffer address mod 1024";
        out << (diffs.empty() ? "the scenario's load agrees with the best candidate\n"
                              : "the scenario's load differs from the best candidate in:" + diffs + "\n");
    }
    out << "not searched: interleave, elementStrides other than 1, boxes starting out of bounds\n";
    return r->exact.empty() ? kExitDiagnostics : kExitOk;
}

} // namespace layoutscope::cli
