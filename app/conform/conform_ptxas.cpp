// golden/ptxas/validity*.jsonl.gz: each record is one instruction (or, for opcode "multi", several
// joined by "\n  ") placed on line 15 of the README's kernel wrapper and assembled by CUDA 13.0
// ptxas for one target/.version. We parse each instruction, validate the whole snippet as a kernel
// with the wrapper's declarations, and compare accept/reject with ptxas.
#include "conform/conform.hpp"
#include "layoutscope/ptx/validate.hpp"

#include <nlohmann/json.hpp>

namespace layoutscope::conform {

namespace {

using Json = nlohmann::json;

constexpr int kInstrLine = 15; // golden/ptxas README "Kernel wrapper": the instruction is on line 15
constexpr int kInstrColumn = 3;

std::vector<std::string> splitSnippet(const std::string& text) {
    std::vector<std::string> parts;
    size_t start = 0;
    for (;;) {
        const size_t nl = text.find('\n', start);
        std::string line = text.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
        const size_t first = line.find_first_not_of(" \t");
        parts.push_back(first == std::string::npos ? std::string() : line.substr(first));
        if (nl == std::string::npos) break;
        start = nl + 1;
    }
    return parts;
}

bool parseVersion(const std::string& v, PtxTarget& t) {
    const size_t dot = v.find('.');
    if (dot == std::string::npos) return false;
    try {
        t.ptxMajor = std::stoi(v.substr(0, dot));
        t.ptxMinor = std::stoi(v.substr(dot + 1));
    } catch (...) {
        return false;
    }
    return true;
}

std::string shortText(const std::string& s) {
    return s.size() > 160 ? s.substr(0, 157) + "..." : s;
}

CaseOutcome checkRecord(const Json& rec, const std::string& id, const PtxEnvironment& env) {
    CaseOutcome out{id, true, {}};
    const std::string instr = rec.at("instr").get<std::string>();
    PtxTarget target;
    target.sm = rec.at("target").get<std::string>();
    if (!parseVersion(rec.at("ptx_version").get<std::string>(), target))
        return {id, false, "unreadable ptx_version"};
    const bool expected = rec.at("accepted").get<bool>();

    std::vector<ParsedInstr> parsed;
    std::vector<Diagnostic> diags;
    const auto lines = splitSnippet(instr);
    for (size_t i = 0; i < lines.size(); ++i) {
        auto p = parseInstruction(lines[i], kInstrLine + static_cast<int>(i), kInstrColumn);
        if (p)
            parsed.push_back(std::move(p.value()));
        else
            diags.insert(diags.end(), p.diagnostics().begin(), p.diagnostics().end());
    }
    if (diags.empty()) {
        Status s = validateKernel(parsed, target, env);
        if (!s) diags = s.diagnostics();
    }
    const bool accepted = diags.empty();
    if (accepted == expected) return out;
    out.passed = false;
    std::string ptxasSays;
    if (!expected && rec.contains("error") && rec.at("error").is_string())
        ptxasSays = rec.at("error").get<std::string>();
    if (!expected && rec.value("ptxas_crashed", false)) ptxasSays = "ptxas crashed";
    out.firstDifference = target.sm + "@" + rec.at("ptx_version").get<std::string>() + ": `" +
                          shortText(instr) + "`: ptxas " +
                          (expected ? "accepts" : "rejects (" + ptxasSays + ")") + ", validator " +
                          (accepted ? "accepts" : "rejects: " + formatDiagnostic(diags.front()));
    return out;
}

} // namespace

Result<std::vector<CaseOutcome>> conformPtxas(const std::string& path) {
    auto lines = readJsonLines(path);
    if (!lines) return lines.diagnostics();
    const PtxEnvironment env = ptxasWrapperEnvironment();
    std::vector<CaseOutcome> out;
    out.reserve(lines->size());
    for (size_t i = 0; i < lines->size(); ++i) {
        const std::string id = path + ":" + std::to_string(i + 1);
        Json rec = Json::parse((*lines)[i], nullptr, /*allow_exceptions=*/false);
        if (rec.is_discarded() || !rec.is_object() || !rec.contains("instr") || !rec.contains("accepted") ||
            !rec.contains("target") || !rec.contains("ptx_version")) {
            out.push_back({id, false, "line is not a ptxas validity record"});
            continue;
        }
        try {
            out.push_back(checkRecord(rec, id, env));
        } catch (const std::exception& e) {
            out.push_back({id, false, std::string("malformed record: ") + e.what()});
        }
    }
    return out;
}

} // namespace layoutscope::conform
