// What the shared-memory ld / st / atom / red tables have in common (rules_shared_access.hpp).
#include "ptx/rules_shared_access.hpp"

#include <cctype>

namespace layoutscope::ptx {

bool namesSharedSpace(const ParsedInstr& in) {
    // st.async, red.async and st.bulk are other instructions with the same first word (PTX ISA 9.0 §9.7.9.11,
    // §9.7.9.12, §9.7.13.7), judged by their own tables (rules_async_st.cpp, rules_st_bulk.cpp).
    if (in.opcode.size() > 1 && (in.opcode[1].text == ".async" || in.opcode[1].text == ".bulk")) return false;
    for (size_t i = 1; i < in.opcode.size(); ++i) {
        const std::string& t = in.opcode[i].text;
        if (t == ".shared" || t == ".shared::cta" || t == ".shared::cluster") return true;
    }
    return false;
}

std::vector<IllegalQual> sharedIllegalHints() {
    // ptxas 13.0's reasons: "Modifier '.evict_last' cannot be applied to '.shared' space", "Modifier
    // '.L2::cache_hint' cannot be applied to '.shared' space", "State space incorrect for feature 'cache
    // prefetching'", "Instruction 'ld' requires '.v8.b32/.v4.b64' type with '.L2::evict_last' modifier"
    // (256-bit accesses are .global only), "Modifier '.nc' requires .global space".
    static const char* const kL1 = "L1 eviction priorities apply to `.global` memory only (shared memory is "
                                   "not cached in L1); remove it";
    static const char* const kL2 =
        "an L2 eviction priority goes with a 256-bit `.global` access (`.v8.b32`/`.v4.b64`, sm_100+) only; "
        "shared memory is not cached in L2: remove it";
    static const char* const kPrefetch =
        "an L2 prefetch size applies to `.global` loads only; shared memory is not cached in L2: remove it";
    return {{".L1::evict_normal", kL1},
            {".L1::evict_unchanged", kL1},
            {".L1::evict_first", kL1},
            {".L1::evict_last", kL1},
            {".L1::no_allocate", kL1},
            {".L2::evict_normal", kL2},
            {".L2::evict_first", kL2},
            {".L2::evict_last", kL2},
            {".L2::cache_hint",
             "a cache policy applies to `.global` memory only; remove it (and the policy operand)"},
            {".L2::64B", kPrefetch},
            {".L2::128B", kPrefetch},
            {".L2::256B", kPrefetch},
            {".nc", "the non-coherent path is for `.global` loads only (`ld.global.nc`); remove it"}};
}

int typeBits(const std::string& type) {
    if (type == ".pred") return 1;
    int bits = 0;
    size_t i = 2;
    for (; i < type.size() && std::isdigit(static_cast<unsigned char>(type[i])); ++i)
        bits = bits * 10 + (type[i] - '0');
    if (type.size() > 1 && type[1] == 'b' && type.size() > 2 && type[2] == 'f') {
        // .bf16, .bf16x2
        bits = 16;
        i = 5;
    }
    if (type.compare(i, std::string::npos, "x2") == 0) bits *= 2;
    return bits;
}

bool expectSharedAddress(Checker& c, const Operand& op, const char* ref) {
    const std::string role = "the shared-memory address";
    if (op.kind != OperandKind::Address || op.elements.size() != 1) {
        c.error(DiagCode::InvalidValue, op.span,
                role + " must be an address `[…]` holding a register or a `.shared` variable; `" + op.text +
                    "` is not",
                ref, Provenance::Ptxas);
        return false;
    }
    if (c.kindOf(op.elements[0]) == kImm) {
        c.error(
            DiagCode::InvalidValue, op.span,
            "an immediate address is only for `.local` memory: put the shared address in a register or write "
            "`[var+offset]`",
            ref, Provenance::Ptxas);
        return false;
    }
    return c.expectScalar(op.elements[0], role + " (inside `[…]`)",
                          kR16 | kR32 | kR64 | kSharedSym | kOpenSym, ref);
}

bool checkImmediate(Checker& c, const Operand& op, const std::string& type, const std::string& role,
                    const char* ref) {
    if (op.kind != OperandKind::Immediate) return true;
    const std::string& t = op.text;
    const char lit =
        t.size() > 2 && t[0] == '0' ? static_cast<char>(std::tolower(static_cast<unsigned char>(t[1]))) : 'i';
    const bool fp = lit == 'f' || lit == 'd';
    bool ok;
    if (type == ".f32" || type == ".f64")
        ok = fp;
    else if (type == ".b32")
        ok = !fp || lit == 'f';
    else if (type == ".b64")
        ok = !fp || lit == 'd';
    else if (type == ".f16" || type == ".bf16" || type == ".f16x2" || type == ".bf16x2")
        ok = false;
    else
        ok = !fp;
    if (ok) return true;
    std::string want;
    if (type == ".f32" || type == ".f64")
        want = "a floating-point literal (`0f3F800000` = 1.0f, `0d3FF0000000000000` = 1.0)";
    else if (type == ".b32" || type == ".b64")
        want = std::string("an integer or a `") + (type == ".b32" ? "0f" : "0d") +
               "...` literal of the same width";
    else if (fp)
        want = "an integer literal";
    c.error(DiagCode::InvalidValue, op.span,
            role + " of type `" + type + "` " +
                (want.empty() ? "cannot be an immediate: put it in a register first" : "must be " + want) +
                "; `" + t + "` is not",
            ref, Provenance::Ptxas);
    return false;
}

} // namespace layoutscope::ptx
