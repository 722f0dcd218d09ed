// Scenario instructions as inline PTX for the CUDA repro (export_cuda.hpp): the instruction text as the
// user wrote it, its symbols replaced by asm operands (buffers and barriers: shared::cta addresses,
// tensor maps: the CUtensorMap's generic address, `let` names: their values).
#include "scenario/export_cuda_detail.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <sstream>

namespace layoutscope::cudaexport {
namespace {

bool identStart(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$';
}
bool identChar(char c) {
    return identStart(c) || std::isdigit(static_cast<unsigned char>(c));
}

Diagnostic unsupported(const ScenarioInstr& in, const std::string& what) {
    return Diagnostic{Severity::Error,
                      DiagCode::Unsupported,
                      in.span,
                      "export-cuda cannot express this instruction yet: " + what,
                      "docs/export-cuda.md: what a repro covers",
                      Provenance::PtxText};
}

std::string escapeForCxx(std::string_view s) {
    std::string out;
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out;
}

/// Parses a PTX integer literal (decimal or 0x hex, optional sign); nullopt otherwise.
std::optional<int64_t> parseInt(std::string_view v) {
    bool neg = false;
    if (!v.empty() && (v[0] == '-' || v[0] == '+')) neg = v[0] == '-', v.remove_prefix(1);
    int base = 10;
    if (v.size() > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) base = 16, v.remove_prefix(2);
    if (!v.empty() && (v.back() == 'U' || v.back() == 'u')) v.remove_suffix(1);
    uint64_t x = 0;
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x, base);
    if (ec != std::errc{} || p != v.data() + v.size() || v.empty()) return std::nullopt;
    return neg ? -static_cast<int64_t>(x) : static_cast<int64_t>(x);
}

} // namespace

SmemLayout smemLayout(const Scenario& s) {
    SmemLayout l;
    l.base = s.smemBase & ~1023u;
    uint32_t end = l.base;
    for (const ScenarioBuffer& b : s.buffers) end = std::max(end, b.addr + b.size);
    for (const ScenarioBarrier& b : s.barriers) end = std::max(end, b.addr + 8);
    l.region = end - l.base;
    return l;
}

std::map<std::string, int64_t, std::less<>> letValues(std::string_view text) {
    std::map<std::string, int64_t, std::less<>> lets;
    std::istringstream in{std::string(text)};
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream ls(line);
        std::string kw, name, eq, value;
        if (!(ls >> kw >> name >> eq >> value) || kw != "let" || eq != "=") continue;
        if (auto v = parseInt(value)) lets[name] = *v;
    }
    return lets;
}

Result<AsmStatement> asmFor(const Scenario& s, const ScenarioInstr& in,
                            const std::map<std::string, int64_t, std::less<>>& lets, const SmemLayout& layout,
                            uint32_t spinLimit) {
    std::string_view text = in.text;
    while (!text.empty() && (std::isspace(static_cast<unsigned char>(text.back())) || text.back() == ';'))
        text.remove_suffix(1);
    const size_t opEnd = text.find_first_of(" \t\n");
    const std::string opcode(text.substr(0, opEnd));
    const std::string_view operands =
        opEnd == std::string_view::npos ? std::string_view{} : text.substr(opEnd);
    if (opcode.rfind("tcgen05.", 0) == 0 || opcode.rfind("wgmma.", 0) == 0 || in.smemAccess || in.umma)
        return unsupported(in, "'" + opcode + "' (the repro covers TMA, mbarrier, fences and bulk groups)");
    const bool isWait = in.kind == ScenarioInstrKind::MbarrierWait;

    std::vector<std::string> inputs; // asm input constraints, in operand order
    std::map<std::string, size_t> inputIndex;
    const size_t firstInput = isWait ? 1 : 0; // %0 is the wait's result
    auto operandFor = [&](const std::string& name, const std::string& constraint) {
        auto [it, fresh] = inputIndex.emplace(name, inputs.size());
        if (fresh) inputs.push_back(constraint);
        return "%" + std::to_string(firstInput + it->second);
    };

    std::string body = escapeForCxx(opcode);
    bool predicateDone = !isWait;
    for (size_t i = 0; i < operands.size();) {
        const char c = operands[i];
        if (c == '%' && i + 1 < operands.size() && identStart(operands[i + 1])) {
            size_t j = i + 1;
            while (j < operands.size() && identChar(operands[j])) ++j;
            body += "%%" + std::string(operands.substr(i + 1, j - i - 1));
            i = j;
            continue;
        }
        if (std::isdigit(static_cast<unsigned char>(c))) { // a literal: 64, 0x3, 0b101, 1.5
            size_t j = i;
            while (j < operands.size() && (identChar(operands[j]) || operands[j] == '.')) ++j;
            body += operands.substr(i, j - i);
            i = j;
            continue;
        }
        if (!identStart(c)) {
            if (c == '"' || c == '\\') body += '\\';
            body += c == '\n' ? ' ' : c;
            ++i;
            continue;
        }
        size_t j = i;
        while (j < operands.size() && identChar(operands[j])) ++j;
        const std::string name(operands.substr(i, j - i));
        i = j;
        if (!predicateDone) { // try_wait / test_wait: the destination predicate is the first operand
            body += "P1";
            predicateDone = true;
        } else if (name == "_") {
            body += "_";
        } else if (const ScenarioBuffer* b = s.findBuffer(name)) {
            body += operandFor(name, "\"r\"(sb + " + std::to_string(b->addr - layout.base) + "u)");
        } else if (const ScenarioBarrier* m = s.findBarrier(name)) {
            body += operandFor(name, "\"r\"(sb + " + std::to_string(m->addr - layout.base) + "u)");
        } else if (const ScenarioTensorMap* t = s.findTensorMap(name)) {
            const size_t idx = static_cast<size_t>(t - s.tensorMaps.data());
            body +=
                operandFor(name, "\"l\"(reinterpret_cast<uint64_t>(&maps.m[" + std::to_string(idx) + "]))");
        } else if (auto it = lets.find(name); it != lets.end()) {
            body += std::to_string(it->second);
        } else {
            return unsupported(in, "the operand '" + name +
                                       "' is not a buffer, barrier, tensor map or `let` integer");
        }
    }

    std::string inputList;
    for (size_t k = 0; k < inputs.size(); ++k) inputList += (k ? ", " : "") + inputs[k];
    const std::string where = "line " + std::to_string(in.span.line);
    AsmStatement st;
    if (isWait) {
        st.code = "{ // " + where +
                  "\n"
                  "    uint32_t ok = 0;\n"
                  "    for (uint32_t spin = 0; spin < " +
                  std::to_string(spinLimit) +
                  "u && !ok; ++spin)\n"
                  "        asm volatile(\"{ .reg .pred P1; " +
                  body +
                  "; selp.u32 %0, 1, 0, P1; }\"\n"
                  "                     : \"=r\"(ok)" +
                  (inputs.empty() ? "" : " : " + inputList) +
                  " : \"memory\");\n"
                  "    if (!ok) timeout(status, " +
                  std::to_string(in.span.line) +
                  ");\n"
                  "}";
    } else {
        st.code = "asm volatile(\"" + body + ";\" ::" + (inputs.empty() ? "" : " " + inputList) +
                  " : \"memory\"); // " + where;
    }
    return st;
}

std::string hexLiteral(const uint8_t* p, size_t n, std::string_view indent) {
    static const char* digits = "0123456789abcdef";
    std::string out;
    out.reserve(n * 2 + n / 16 + 8);
    for (size_t i = 0; i < n; ++i) {
        if (i % 64 == 0) out += (i ? "\"\n" : "") + std::string(indent) + "\"";
        out += digits[p[i] >> 4];
        out += digits[p[i] & 15];
    }
    out += n ? "\"" : std::string(indent) + "\"\"";
    return out;
}

} // namespace layoutscope::cudaexport
