// Scenario instructions as inline PTX for the CUDA repro (export_cuda.hpp): the instruction text as the
// user wrote it, its symbols replaced by asm operands (buffers and barriers: shared::cta addresses,
// tensor maps: the CUtensorMap's generic address, `let` names: their values).
#include "scenario/export_cuda_detail.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <sstream>

namespace layoutscope::cudaexport {
namespace {

bool identStart(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$';
}
bool identChar(char c) {
    return identStart(c) || std::isdigit(static_cast<unsigned char>(c));
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

Diagnostic unsupported(const ScenarioInstr& in, const std::string& what) {
    return Diagnostic{Severity::Error,
                      DiagCode::Unsupported,
                      in.span,
                      "export-cuda cannot express this instruction yet: " + what,
                      "docs/export-cuda.md: what a repro covers",
                      Provenance::PtxText};
}

SmemLayout smemLayout(const Scenario& s) {
    SmemLayout l;
    l.base = s.smemBase & ~1023u;
    uint32_t end = l.base;
    for (const ScenarioBuffer& b : s.buffers) end = std::max(end, b.addr + b.size);
    for (const ScenarioBarrier& b : s.barriers) end = std::max(end, b.addr + 8);
    l.region = end - l.base;
    return l;
}

Symbols symbols(std::string_view text) {
    Symbols sym;
    auto& lets = sym.lets;
    std::istringstream in{std::string(text)};
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream ls(line);
        std::string kw, name, eq, value;
        if (!(ls >> kw >> name)) continue;
        if (kw == "desc") sym.descs.insert(name);
        if (kw != "let" || !(ls >> eq >> value) || eq != "=") continue;
        if (auto v = parseInt(value)) lets[name] = *v;
    }
    return sym;
}

Result<AsmStatement> asmFor(const Scenario& s, const ScenarioInstr& in, const Symbols& sym,
                            const SmemLayout& layout, uint32_t spinLimit) {
    std::string_view text = in.text;
    while (!text.empty() && (std::isspace(static_cast<unsigned char>(text.back())) || text.back() == ';'))
        text.remove_suffix(1);
    const size_t opEnd = text.find_first_of(" \t\n");
    const std::string opcode(text.substr(0, opEnd));
    std::string_view operands = opEnd == std::string_view::npos ? std::string_view{} : text.substr(opEnd);
    // tcgen05.mma: enable-input-d is a predicate in PTX; the scenario's 0/1/let value becomes one
    // (setp in the same asm statement), so the last operand is dropped from the text here.
    if (in.umma && in.umma->op.hasZeroColumnMask) // enable-input-d is then not the last operand
        return unsupported(in, "the zero-column-mask-desc operand of tcgen05.mma.ws");
    if (in.umma) operands = operands.substr(0, operands.rfind(','));
    const bool tcgen05 = opcode.rfind("tcgen05.", 0) == 0;
    if ((opcode.rfind("tcgen05.mma", 0) == 0 && !in.umma) || opcode.rfind("wgmma.", 0) == 0 || in.smemAccess)
        return unsupported(
            in, "'" + opcode +
                    "' (the repro covers TMA, mbarrier, fences, bulk groups and tcgen05 data movement)");
    if (tcgen05 && in.taddrSmem >= 0)
        return unsupported(in,
                           "a TMEM address read from shared memory ([buffer] as taddr); use a `let` address");
    const bool isWait = in.kind == ScenarioInstrKind::MbarrierWait;
    const bool isLoad = opcode.rfind("tcgen05.ld", 0) == 0;

    // Operands collected with placeholders \x01O<i>\x02 (outputs) / \x01I<i>\x02 (inputs), numbered at the
    // end.
    std::vector<std::string> outputs, inputs;
    std::map<std::string, size_t> inputIndex;
    if (isWait) outputs.push_back("\"=r\"(ok)");
    auto input = [&](const std::string& key, const std::string& constraint) {
        auto [it, fresh] = inputIndex.emplace(key, inputs.size());
        if (fresh) inputs.push_back(constraint);
        return "\x01I" + std::to_string(it->second) + "\x02";
    };
    auto output = [&](const std::string& constraint) {
        outputs.push_back(constraint);
        return "\x01O" + std::to_string(outputs.size() - 1) + "\x02";
    };

    std::string body = escapeForCxx(opcode);
    if (in.umma) // { .reg .pred P2; setp.ne.b32 P2, enable, 0; tcgen05.mma ..., P2; }
        body = "{ .reg .pred P2; setp.ne.b32 P2, " +
               input("\x03enable", std::string("\"r\"(") + (in.umma->op.enableInputD ? "1u" : "0u") + ")") +
               ", 0; " + body;
    bool predicateDone = !isWait;
    for (size_t i = 0; i < operands.size();) {
        const char c = operands[i];
        if (c == '%' && i + 1 < operands.size() && identStart(operands[i + 1])) {
            size_t j = i + 1;
            while (j < operands.size() && identChar(operands[j])) ++j;
            const std::string reg(operands.substr(i + 1, j - i - 1));
            i = j;
            const auto n = reg.size() > 1 && reg[0] == 'r' ? parseInt(reg.substr(1)) : std::nullopt;
            if (tcgen05 && n && *n >= 0 && *n < 128) { // a register of the warp's r[0..127]
                const std::string ref = "r[" + std::to_string(*n) + "]";
                body += isLoad ? output("\"=r\"(" + ref + ")") : input(ref, "\"r\"(" + ref + ")");
            } else {
                body += "%%" + reg;
            }
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
            body += input(name, "\"r\"(sb + " + std::to_string(b->addr - layout.base) + "u)");
        } else if (const ScenarioBarrier* m = s.findBarrier(name)) {
            body += input(name, "\"r\"(sb + " + std::to_string(m->addr - layout.base) + "u)");
        } else if (const ScenarioTensorMap* t = s.findTensorMap(name)) {
            const size_t idx = static_cast<size_t>(t - s.tensorMaps.data());
            body += input(name, "\"l\"(reinterpret_cast<uint64_t>(&maps.m[" + std::to_string(idx) + "]))");
        } else if (sym.descs.count(
                       name)) { // a shared-memory descriptor: its start address moved with the buffers
            char v[32];
            const uint64_t value = !in.umma                     ? in.desc
                                   : name == in.umma->descAName ? in.umma->descA
                                                                : in.umma->descB; // tcgen05.mma: A or B
            std::snprintf(v, sizeof v, "0x%016llxull", static_cast<unsigned long long>(value));
            body += input(name, "\"l\"(movedDescriptor(" + std::string(v) + ", sb))");
        } else if (auto it = sym.lets.find(name); it != sym.lets.end()) {
            if (tcgen05) // TMEM addresses and column counts: registers
                body += input(name, "\"r\"(" + std::to_string(static_cast<uint32_t>(it->second)) + "u)");
            else
                body += std::to_string(it->second);
        } else {
            return unsupported(in, "the operand '" + name +
                                       "' is not a buffer, barrier, tensor map, descriptor or `let` integer");
        }
    }
    // Number the operands: outputs first, then inputs.
    std::string numbered;
    for (size_t k = 0; k < body.size(); ++k) {
        if (body[k] != '\x01') {
            numbered += body[k];
            continue;
        }
        const size_t close = body.find('\x02', k);
        const size_t idx = std::stoul(body.substr(k + 2, close - k - 2));
        numbered += "%" + std::to_string(body[k + 1] == 'O' ? idx : outputs.size() + idx);
        k = close;
    }
    auto join = [](const std::vector<std::string>& v) {
        std::string out;
        for (size_t k = 0; k < v.size(); ++k) out += (k ? ", " : "") + v[k];
        return out;
    };
    const std::string where = "line " + std::to_string(in.span.line);
    AsmStatement st;
    st.warp = in.warp;
    st.wholeWarp = opcode.find(".sync.aligned") != std::string::npos;
    st.tcgen05 = tcgen05;
    if (isWait) {
        st.code = "{ // " + where + "\n" + "    uint32_t ok = 0;\n" + "    for (uint32_t spin = 0; spin < " +
                  std::to_string(spinLimit) + "u && !ok; ++spin)\n" +
                  "        asm volatile(\"{ .reg .pred P1; " + numbered + "; selp.u32 %0, 1, 0, P1; }\"\n" +
                  "                     : " + join(outputs) + (inputs.empty() ? "" : " : " + join(inputs)) +
                  " : \"memory\");\n" + "    if (!ok) timeout(status, " + std::to_string(in.span.line) +
                  ");\n" + "}";
    } else {
        // A tcgen05.ld's registers are written asynchronously; the compiler may copy them right after the asm
        // statement, so the wait::ld goes into the same statement (a later wait::ld is then a no-op).
        if (isLoad) numbered += "; tcgen05.wait::ld.sync.aligned";
        st.code = "asm volatile(\"" + numbered + (in.umma ? ", P2; }" : ";") + "\" : " + join(outputs) +
                  " : " + join(inputs) + " : \"memory\"); // " + where;
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
