// golden/banks/*.jsonl(.gz): one warp-wide ld.shared / st.shared / ldmatrix per record with the
// wavefronts and bank conflicts Nsight Compute counted on an H100 (golden/banks README). Each record
// is replayed through countBankWavefronts and both counters must match.
#include "conform/conform.hpp"
#include "layoutscope/analysis/banks.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>

namespace layoutscope::conform {

namespace {

using Json = nlohmann::json;

CaseOutcome checkBankRecord(const Json& rec, const std::string& id) {
    WarpSmemAccess a;
    const std::string op = rec.at("op").get<std::string>();
    if (op == "ld")
        a.op = SmemOp::Load;
    else if (op == "st")
        a.op = SmemOp::Store;
    else if (op == "ldsm1" || op == "ldsm2" || op == "ldsm4") {
        a.op = SmemOp::LdMatrix;
        a.matrices = static_cast<uint32_t>(op[4] - '0');
    } else
        return {id, false, "op '" + op + "' is not modelled"};
    a.widthBytes = rec.at("width").get<uint32_t>();
    const Json& addr = rec.at("addr");
    if (addr.size() != kWarpSize)
        return {id, false, "addr has " + std::to_string(addr.size()) + " lanes, not 32"};
    a.activeMask = 0;
    for (uint32_t t = 0; t < kWarpSize; ++t) {
        const int64_t v = addr[t].get<int64_t>();
        if (v >= 0) a.activeMask |= 1u << t;
        a.addr[t] = v >= 0 ? static_cast<uint32_t>(v) : 0u; // -1 = predicated off
    }
    auto r = countBankWavefronts(a);
    if (!r) return {id, false, "engine rejected the access: " + r.error().message};
    const auto hwWave = rec.at("wavefronts").get<uint32_t>();
    const auto hwConf = rec.at("bank_conflicts").get<uint32_t>();
    CaseOutcome o{id, true, {}, {}, 0};
    auto diff = [&](const std::string& what, uint32_t got, uint32_t want) {
        if (got == want) return;
        const std::string msg = what + ": engine " + std::to_string(got) + ", H100 " + std::to_string(want);
        if (o.passed)
            o.firstDifference = msg;
        else
            o.moreDifferences.push_back(msg);
        o.passed = false;
    };
    diff("wavefronts", r->wavefronts, hwWave);
    diff("bank_conflicts", r->excess, hwConf);
    return o;
}

} // namespace

Result<std::vector<CaseOutcome>> conformBanks(const std::string& path) {
    std::vector<std::string> files;
    if (std::filesystem::is_directory(path)) {
        for (const auto& e : std::filesystem::directory_iterator(path)) {
            const std::string p = e.path().string();
            if (p.ends_with(".jsonl") || p.ends_with(".jsonl.gz")) files.push_back(p);
        }
        std::sort(files.begin(), files.end());
    } else
        files.push_back(path);
    std::vector<CaseOutcome> out;
    for (const auto& f : files) {
        auto lines = readJsonLines(f);
        if (!lines) return lines.diagnostics();
        for (size_t i = 0; i < lines->size(); ++i) {
            Json rec = Json::parse((*lines)[i], nullptr, /*allow_exceptions=*/false);
            const std::string where = f + ":" + std::to_string(i + 1);
            if (rec.is_discarded() || !rec.is_object()) {
                out.push_back({where, false, "line is not a JSON object"});
                continue;
            }
            const std::string id = rec.value("id", where);
            try {
                out.push_back(checkBankRecord(rec, id));
            } catch (const std::exception& e) {
                out.push_back({id, false, std::string("malformed record: ") + e.what()});
            }
        }
    }
    return out;
}

} // namespace layoutscope::conform
