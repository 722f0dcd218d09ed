// The executor's operand parser: registers, special registers, immediates (integer, 0f/0d float bit
// patterns, decimal floats), symbols with offsets, addresses `[base+off]`, vectors `{a, b}` and the sink
// `_` (PTX ISA 9.2 §4.5 constants, §6.4 operand types, §10 special registers).
#include "exec/decode.hpp"

#include <cctype>
#include <cstdlib>
#include <cstring>

namespace layoutscope::exec {

uint32_t DecodeScope::reg(const std::string& name) {
    const auto it = regs.find(name);
    if (it != regs.end()) return it->second;
    const uint32_t slot = prog->regSlots++;
    prog->regNames.push_back(name);
    regs.emplace(name, slot);
    int bits = 0; // the declaration's type: `%r7` of `.reg .b32 %r<8>`, or the name itself
    if (auto d = regDecls.find(name); d != regDecls.end() && d->second.second == 0) {
        bits = d->second.first;
    } else {
        size_t digits = name.size();
        while (digits > 0 && std::isdigit(static_cast<unsigned char>(name[digits - 1]))) --digits;
        if (digits < name.size() && name.size() - digits < 9)
            if (auto r = regDecls.find(name.substr(0, digits));
                r != regDecls.end() && std::stoi(name.substr(digits)) < r->second.second)
                bits = r->second.first;
    }
    prog->regBits.push_back(static_cast<uint8_t>(bits));
    return slot;
}

int DecodeScope::symbol(const std::string& name) const {
    if (auto it = symbols.find(name); it != symbols.end()) return it->second;
    if (auto it = globals->find(name); it != globals->end()) return it->second;
    return -1;
}

std::string trim(std::string_view s) {
    size_t a = 0, b = s.size();
    while (a < b && std::strchr(" \t\r\n\f\v", s[a])) ++a;
    while (b > a && std::strchr(" \t\r\n\f\v", s[b - 1])) --b;
    return std::string(s.substr(a, b - a));
}

std::vector<std::string> splitOperands(std::string_view text) {
    std::vector<std::string> out;
    int depth = 0;
    size_t start = 0;
    for (size_t i = 0; i <= text.size(); ++i) {
        const char ch = i < text.size() ? text[i] : ',';
        if (ch == '[' || ch == '{' || ch == '(') ++depth;
        if (ch == ']' || ch == '}' || ch == ')') --depth;
        if (ch == ',' && depth <= 0) {
            std::string t = trim(text.substr(start, i - start));
            if (!t.empty() || i < text.size()) out.push_back(std::move(t));
            start = i + 1;
        }
    }
    return out;
}

namespace {

struct SpecialName {
    const char* name;
    SReg reg;
    bool hasComp;
};
constexpr SpecialName kSpecial[] = {
    {"%tid", SReg::Tid, true},
    {"%ntid", SReg::Ntid, true},
    {"%ctaid", SReg::Ctaid, true},
    {"%nctaid", SReg::Nctaid, true},
    {"%laneid", SReg::Laneid, false},
    {"%warpid", SReg::Warpid, false},
    {"%nwarpid", SReg::Nwarpid, false},
    {"%clusterid", SReg::Clusterid, true},
    {"%nclusterid", SReg::Nclusterid, true},
    {"%cluster_ctaid", SReg::ClusterCtaid, true},
    {"%cluster_nctaid", SReg::ClusterNctaid, true},
    {"%cluster_ctarank", SReg::ClusterCtarank, false},
    {"%cluster_nctarank", SReg::ClusterNctarank, false},
    {"%is_explicit_cluster", SReg::IsExplicitCluster, false},
    {"%lanemask_eq", SReg::LanemaskEq, false},
    {"%lanemask_lt", SReg::LanemaskLt, false},
    {"%lanemask_le", SReg::LanemaskLe, false},
    {"%lanemask_gt", SReg::LanemaskGt, false},
    {"%lanemask_ge", SReg::LanemaskGe, false},
    {"%clock", SReg::Clock, false},
    {"%clock64", SReg::Clock64, false},
    {"%globaltimer", SReg::Globaltimer, false},
    {"%dynamic_smem_size", SReg::DynSmem, false},
    {"%total_smem_size", SReg::TotalSmem, false},
    {"%smid", SReg::Smid, false},
    {"%nsmid", SReg::Nsmid, false},
    {"%gridid", SReg::Gridid, false},
};

bool special(const std::string& t, Opnd& out) {
    const auto dot = t.find('.');
    const std::string base = t.substr(0, dot);
    for (const auto& s : kSpecial) {
        if (base != s.name) continue;
        out.kind = OK::Special;
        out.sreg = s.reg;
        if (s.hasComp) {
            const std::string c = dot == std::string::npos ? "" : t.substr(dot);
            if (c != ".x" && c != ".y" && c != ".z") return false;
            out.comp = static_cast<uint8_t>(c[1] - 'x');
        } else if (dot != std::string::npos) {
            return false;
        }
        return true;
    }
    return false;
}

bool isIdent(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '$' || c == '%' || c == '.';
}

// An integer or float literal: 0fXXXXXXXX / 0dXXXXXXXXXXXXXXXX keep their bit pattern (imm) and mark
// the width in `comp` (32 / 64 as 1 / 2); decimal floats are stored as f64 bits with comp 3.
bool literal(const std::string& t, Opnd& out) {
    if (t.empty()) return false;
    std::string s = t;
    bool neg = false;
    if (s[0] == '-' || s[0] == '+') neg = s[0] == '-', s = s.substr(1);
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D')) {
        const bool f32 = s[1] == 'f' || s[1] == 'F';
        if (s.size() != (f32 ? 10u : 18u)) return false;
        char* end = nullptr;
        const uint64_t bits = std::strtoull(s.c_str() + 2, &end, 16);
        if (*end) return false;
        out.kind = OK::Imm;
        out.comp = f32 ? 1 : 2;
        out.imm = static_cast<int64_t>(bits ^ (neg ? (f32 ? 0x80000000ull : 0x8000000000000000ull) : 0));
        return true;
    }
    if (!(s[0] >= '0' && s[0] <= '9')) return false;
    if (s.find_first_of(".eE") != std::string::npos && s.rfind("0x", 0) != 0 && s.rfind("0X", 0) != 0) {
        char* end = nullptr;
        double v = std::strtod(s.c_str(), &end);
        if (*end) return false;
        if (neg) v = -v;
        uint64_t bits;
        std::memcpy(&bits, &v, 8);
        out.kind = OK::Imm;
        out.comp = 3;
        out.imm = static_cast<int64_t>(bits);
        return true;
    }
    if (!s.empty() && (s.back() == 'U' || s.back() == 'u')) s.pop_back();
    char* end = nullptr;
    uint64_t v;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        v = std::strtoull(s.c_str() + 2, &end, 16);
    else if (s.size() > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
        v = std::strtoull(s.c_str() + 2, &end, 2);
    else if (s.size() > 1 && s[0] == '0')
        v = std::strtoull(s.c_str() + 1, &end, 8);
    else
        v = std::strtoull(s.c_str(), &end, 10);
    if (*end) return false;
    out.kind = OK::Imm;
    out.comp = 0;
    out.imm = static_cast<int64_t>(neg ? (~v + 1) : v);
    return true;
}

// name[+|-offset] where name is a register, a symbol or (in addresses) absent.
std::optional<std::string> baseAndOffset(const std::string& t, DecodeScope& s, Opnd& out, bool address) {
    size_t i = 0;
    while (i < t.size() && isIdent(t[i])) ++i;
    const std::string name = trim(t.substr(0, i));
    std::string rest = trim(t.substr(i));
    if (!rest.empty()) {
        if (rest[0] != '+' && rest[0] != '-') return "unexpected `" + rest + "` after `" + name + "`";
        Opnd lit;
        std::string num = trim(rest.substr(1));
        if (!num.empty() && (num[0] == '-' || num[0] == '+')) // "+-8"
            num = (rest[0] == '-') == (num[0] == '-') ? num.substr(1) : "-" + num.substr(1);
        else if (rest[0] == '-')
            num = "-" + num;
        if (!literal(num, lit) || lit.comp != 0) return "offset `" + rest + "` is not an integer";
        out.imm = lit.imm;
    }
    if (name.empty()) return address ? std::nullopt : std::optional<std::string>("empty operand");
    if (name[0] == '%' || s.regs.count(name)) { // h/xasync: or a declared register without '%'
        Opnd sp;
        if (special(name, sp)) return "a special register cannot be used as an address base";
        out.hasBase = true;
        out.reg = s.reg(name);
        return std::nullopt;
    }
    if (address && (name[0] >= '0' && name[0] <= '9')) { // [0x100]
        Opnd lit;
        if (!literal(t, lit) || lit.comp != 0) return "address `" + t + "` is not an integer";
        out.imm = lit.imm;
        return std::nullopt;
    }
    out.sym = s.symbol(name);
    if (out.sym < 0) return "unknown symbol `" + name + "` (not declared in the module or this function)";
    return std::nullopt;
}

} // namespace

std::optional<std::string> parseOperand(std::string_view text, DecodeScope& s, Opnd& out) {
    const std::string t = trim(text);
    out = Opnd{};
    if (t.empty()) return "empty operand";
    if (t == "_") return out.kind = OK::Sink, std::nullopt;
    if (t.front() == '{') {
        if (t.back() != '}') return "vector operand `" + t + "` is not closed by '}'";
        out.kind = OK::Vec;
        for (const auto& e : splitOperands(t.substr(1, t.size() - 2))) {
            Opnd el;
            if (auto err = parseOperand(e, s, el)) return err;
            out.elems.push_back(std::move(el));
        }
        return std::nullopt;
    }
    if (t.front() == '[') {
        if (t.back() != ']') return "address `" + t + "` is not closed by ']'";
        out.kind = OK::Mem;
        return baseAndOffset(trim(t.substr(1, t.size() - 2)), s, out, true);
    }
    if (t.front() == '!') {
        if (auto err = parseOperand(t.substr(1), s, out)) return err;
        if (out.kind != OK::Reg) return "`!` applies to a predicate register only";
        out.neg = true;
        return std::nullopt;
    }
    if (t.front() == '%') {
        if (special(t, out)) return std::nullopt;
        if (t.find_first_of("+-") != std::string::npos) return "register arithmetic outside an address";
        out.kind = OK::Reg;
        out.reg = s.reg(t);
        return std::nullopt;
    }
    if (literal(t, out)) return std::nullopt;
    if ((t[0] >= '0' && t[0] <= '9') || t[0] == '-') return "malformed number `" + t + "`";
    if (s.regs.count(t)) { // a register declared without '%' (`.reg .pred p;` in inline asm)
        out.kind = OK::Reg;
        out.reg = s.reg(t);
        return std::nullopt;
    }
    // A label, a function or a symbol (with an optional offset).
    if (auto it = s.labels->find(t); it != s.labels->end()) {
        out.kind = OK::Label;
        out.imm = it->second;
        return std::nullopt;
    }
    if (auto it = s.functions->find(t); it != s.functions->end() && s.symbol(t) < 0) {
        out.kind = OK::Label;
        out.imm = it->second;
        out.sym = -2; // a function
        return std::nullopt;
    }
    out.kind = OK::Sym;
    return baseAndOffset(t, s, out, false);
}

} // namespace layoutscope::exec
