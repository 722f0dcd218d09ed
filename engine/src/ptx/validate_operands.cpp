// Operand kinds: names looked up in a PtxEnvironment, and the Checker helpers that compare an
// operand with the kinds its slot accepts.
#include "ptx/rules.hpp"

#include <cctype>
#include <string_view>

namespace layoutscope {

PtxEnvironment ptxasWrapperEnvironment() {
    // golden/ptxas/README.md "Kernel wrapper" (exact declarations).
    PtxEnvironment env;
    env.conventionalRegisters = false;
    env.openSymbols = false;
    env.decls = {
        {"%p", 4, PtxValueKind::PredReg},     {"%h", 8, PtxValueKind::B16Reg},
        {"%r", 300, PtxValueKind::B32Reg},    {"%rd", 8, PtxValueKind::B64Reg},
        {"%tmp", 2, PtxValueKind::B32Reg},    {"smem", 0, PtxValueKind::SharedVar},
        {"mbar", 0, PtxValueKind::SharedVar}, {"tmap", 0, PtxValueKind::ParamVar},
        {"p0", 0, PtxValueKind::ParamVar},
    };
    return env;
}

} // namespace layoutscope

namespace layoutscope::ptx {

namespace {

uint32_t kindBits(PtxValueKind k) {
    switch (k) {
    case PtxValueKind::B16Reg:
        return kR16;
    case PtxValueKind::B32Reg:
        return kR32;
    case PtxValueKind::B64Reg:
        return kR64;
    case PtxValueKind::B128Reg:
        return kR128;
    case PtxValueKind::PredReg:
        return kPred;
    case PtxValueKind::SharedVar:
        return kSharedSym;
    case PtxValueKind::ParamVar:
        return kParamSym;
    case PtxValueKind::GlobalVar:
        return kGlobalSym;
    }
    return kUndeclared;
}

// "%r12" against range "%r" of count n: the rest must be a decimal index below n.
// (string_view and a hand-rolled decimal: called for every register operand, without an allocation.)
bool inRange(std::string_view name, std::string_view prefix, int count) {
    if (name.size() <= prefix.size() || name.substr(0, prefix.size()) != prefix) return false;
    const std::string_view rest = name.substr(prefix.size());
    if (rest.size() > 6) return false;
    int value = 0;
    for (char ch : rest) {
        if (!std::isdigit(static_cast<unsigned char>(ch))) return false;
        value = value * 10 + (ch - '0');
    }
    if (rest.size() > 1 && rest[0] == '0') return false;
    return value < count;
}

// nvcc's register naming: %rd<N> 64-bit, %r<N> 32-bit, %rs<N>/%h<N> 16-bit, %p<N> predicate.
uint32_t conventional(const std::string& name) {
    static const std::pair<const char*, uint32_t> kConv[] = {
        {"%rd", kR64}, {"%rs", kR16}, {"%r", kR32}, {"%h", kR16}, {"%p", kPred}};
    for (const auto& [prefix, kind] : kConv)
        if (inRange(name, prefix, 1000000)) return kind;
    return kUndeclared;
}

} // namespace

uint32_t Checker::kindOf(const Operand& op) const {
    switch (op.kind) {
    case OperandKind::Immediate:
        return kImm;
    case OperandKind::Vector:
        return kVectorKind;
    case OperandKind::Address:
        return kAddressKind;
    case OperandKind::Register:
    case OperandKind::Symbol:
        break;
    }
    if (op.text == "_") return kSink;
    if (op.elements.size() == 2) return kPairKind; // `d|p`
    for (const auto& d : env.decls) {
        if (d.count > 0 ? inRange(op.text, d.name, d.count) : op.text == d.name) return kindBits(d.kind);
    }
    if (op.kind == OperandKind::Register)
        return env.conventionalRegisters ? conventional(op.text) : kUndeclared;
    return env.openSymbols ? kOpenSym : kUndeclared;
}

bool Checker::expectCount(size_t n, const std::string& listInWords, const char* ref) {
    const auto& ops = in.operands;
    if (ops.size() == n) return true;
    if (ops.size() > n) {
        error(DiagCode::InvalidValue, ops[n].span,
              "too many operands: this form of `" + std::string(spec.name) + "` takes " + std::to_string(n) +
                  " (" + listInWords + "); remove `" + ops[n].text + "`" +
                  (ops.size() > n + 1 ? " and what follows" : ""),
              ref, Provenance::Ptxas);
    } else {
        SourceSpan at = ops.empty() ? opcodeSpan() : ops.back().span;
        error(DiagCode::InvalidValue, at,
              "missing operand: this form of `" + std::string(spec.name) + "` takes " + std::to_string(n) +
                  " (" + listInWords + "), found " + std::to_string(ops.size()),
              ref, Provenance::Ptxas);
    }
    return false;
}

namespace {
bool fits(uint32_t kind, uint32_t accept) {
    if (kind & accept) return true;
    // An undeclared scenario symbol stands for whatever scalar the slot needs.
    return kind == kOpenSym && (accept & ~(kVectorKind | kAddressKind)) != 0;
}
} // namespace

bool Checker::expectScalar(const Operand& op, const std::string& role, uint32_t accept, const char* ref,
                           Provenance prov) {
    const uint32_t k = kindOf(op);
    if (fits(k, accept)) return true;
    if (k == kUndeclared) {
        error(DiagCode::UnknownName, op.span,
              "`" + op.text + "` (" + role + ") is not declared in this kernel", ref, prov);
        return false;
    }
    error(DiagCode::InvalidValue, op.span,
          role + " must be " + acceptedWords(accept) + "; `" + op.text + "` is " + valueKindWords(k), ref,
          prov);
    return false;
}

bool Checker::expectAddress(const Operand& op, const std::string& role, uint32_t accept, bool offsetOk,
                            const char* ref, Provenance prov) {
    if (op.kind != OperandKind::Address || op.elements.size() != 1) {
        const std::string shape =
            op.kind == OperandKind::Address ? "an address with extra parts" : valueKindWords(kindOf(op));
        error(DiagCode::InvalidValue, op.span,
              role + " must be an address `[…]` holding " + acceptedWords(accept) + "; `" + op.text +
                  "` is " + shape,
              ref, prov);
        return false;
    }
    if (!expectScalar(op.elements[0], role + " (inside `[…]`)", accept, ref, prov)) return false;
    if (op.imm < 0) {
        error(DiagCode::Syntax, op.span,
              role + ": PTX addresses take only a `+offset`; a negative offset does not assemble",
              "PTX ISA §6.4.1 (addresses as operands); ptxas 13.0", Provenance::Ptxas);
        return false;
    }
    if (!offsetOk && op.imm != 0) {
        error(DiagCode::InvalidValue, op.span,
              role + " takes no `+offset`; write `[" + op.elements[0].text + "]`", ref, prov);
        return false;
    }
    return true;
}

bool Checker::expectVector(const Operand& op, const std::string& role, size_t len, uint32_t accept,
                           const char* ref, Provenance prov) {
    if (op.kind != OperandKind::Vector) {
        error(DiagCode::InvalidValue, op.span,
              role + " must be a vector `{…}`" +
                  (len ? " of " + std::to_string(len) + " elements" : std::string()) +
                  ", even for one element; `" + op.text + "` is " + valueKindWords(kindOf(op)),
              ref, prov);
        return false;
    }
    bool ok = true;
    if (len && op.elements.size() != len) {
        error(DiagCode::InvalidValue, op.span,
              role + " must have exactly " + std::to_string(len) + " elements; it has " +
                  std::to_string(op.elements.size()),
              ref, prov);
        ok = false;
    }
    for (size_t i = 0; i < op.elements.size(); ++i)
        ok = expectScalar(op.elements[i], role + " element " + std::to_string(i), accept, ref, prov) && ok;
    return ok;
}

} // namespace layoutscope::ptx
