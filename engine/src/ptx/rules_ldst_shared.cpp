// ld / st on shared memory (PTX ISA 9.2 §9.7.9.8 ld, §9.7.9.10 st), every form the ISA lists, as CUDA
// 13.0 ptxas decides it (tests/data/ptxas_front/ldst.jsonl.gz, scripts/ptxas-diff/gen_ldst_cases.py):
//
//   ld{.weak | .volatile | .relaxed.scope | .acquire.scope}.ss{.cop}{.vec}.type   d, [a];
//   st{.weak | .volatile | .relaxed.scope | .release.scope}.ss{.cop}{.vec}.type   [a], b;
//   .ss = .shared{::cta | ::cluster}   .scope = .cta .cluster .gpu .sys   .vec = .v2 .v4 (.v8)
//   .cop: ld .ca .cg .cs .lu .cv, st .wb .cg .cs .wt   (weak accesses only)
//
// Qualifier order is free for ptxas (`ld.shared.volatile.u32`, `ld.u32.shared` assemble). What the
// ISA's syntax allows but ptxas rejects on shared memory, each a rule below with ptxas's reason:
// `.mmio`, `.nc`, `.L1::*` eviction priorities, `.L2::cache_hint`, `.L2::64B/128B/256B` prefetch sizes
// (`.global` only), `.L2::evict_*` and the 256-bit vectors `.v8` of 32-bit / `.v4` of 64-bit types
// (`.global` on sm_100+), `.unified` (an attribute of generic addresses), `.f16`/`.bf16`/`.f16x2`/`.pred`
// types, a cache operator with an ordering other than `.weak`. `.b128` (PTX 8.3) takes a `.reg .b128`.
// Generic and other-space ld/st are not claimed here: they are not data movement into shared memory.
#include "ptx/rules_shared_access.hpp"

namespace layoutscope::ptx {

namespace {

constexpr const char* kLdRef = "PTX ISA 9.2 §9.7.9.8 ld";
constexpr const char* kStRef = "PTX ISA 9.2 §9.7.9.10 st";

std::vector<QualSpec> specs(std::initializer_list<const char*> l) {
    std::vector<QualSpec> v;
    for (const char* t : l) v.push_back({t, kAllTargets, 0});
    return v;
}

InstrSpec spec(const char* name, const char* op, const char* ref) {
    std::vector<QualSpec> types =
        specs({".b8",  ".u8",  ".s8",  ".b16", ".u16",  ".s16", ".b32",  ".u32",   ".s32",    ".f32",
               ".b64", ".u64", ".s64", ".f64", ".b128", ".f16", ".bf16", ".f16x2", ".bf16x2", ".pred"});
    types[14].minPtx =
        83; // `.b128`: "Instruction type .b128 for instruction ld requires PTX ISA .version 8.3"
    std::vector<QualSpec> spaces =
        specs({".shared", ".shared::cta", ".shared::cluster", ".global", ".local", ".const", ".param"});
    spaces[1].minPtx = spaces[2].minPtx = 78; // `.shared::cta` / `::cluster`: PTX 7.8
    spaces[2].targets = kSm90Up; // "Feature '::cluster' requires .target sm_90 or higher" (ptxas 13.0)
    std::vector<QualSpec> scopes = specs({".cta", ".cluster", ".gpu", ".sys"});
    scopes[1].targets = kSm90Up; // "Feature '.cluster scope' requires .target sm_90 or higher"
    return {name,
            {op},
            kAllTargets,
            10,
            ref,
            {{"state space", spaces, true, false, ref},
             {"memory order", specs({".weak", ".volatile", ".relaxed", ".acquire", ".release", ".acq_rel"}),
              false, false, ref},
             {"scope", scopes, false, false, ref},
             {"mmio", specs({".mmio"}), false, false, ref},
             {"cache operator", specs({".ca", ".cg", ".cs", ".lu", ".cv", ".wb", ".wt"}), false, false, ref},
             {"vector", specs({".v2", ".v4", ".v8"}), false, false, ref},
             {"type", types, true, false, ref}},
            sharedIllegalHints(),
            &namesSharedSpace};
}
const InstrSpec kLd = spec("ld.shared", "ld", kLdRef);
const InstrSpec kSt = spec("st.shared", "st", kStRef);

/// Registers a value of `bits` may sit in (ptxas 13.0, integer and floating point alike): the
/// type's size or wider (a `.reg .b128` too); 8- and 16-bit values in any register.
uint32_t valueRegs(int bits) {
    if (bits <= 16) return kR16 | kR32 | kR64 | kR128;
    if (bits == 32) return kR32 | kR64 | kR128;
    return bits == 64 ? kR64 | kR128 : uint32_t(kR128);
}

void checkOrder(Checker& c, bool load, const char* ref) {
    const std::string order = c.value("memory order"), scope = c.value("scope");
    const std::string name = load ? "ld" : "st";
    const bool strong = order == ".relaxed" || order == ".acquire" || order == ".release";
    if (order == ".acq_rel" || (load && order == ".release") || (!load && order == ".acquire")) {
        c.error(DiagCode::InvalidValue, c.spanOf("memory order"),
                "`" + order + "` is not an order of `" + name + "`: " +
                    (load ? "a load is `.relaxed` or `.acquire`" : "a store is `.relaxed` or `.release`") +
                    " (with a scope), `.weak` or `.volatile`",
                ref, Provenance::Ptxas);
    } else if (strong && scope.empty()) {
        c.error(DiagCode::InvalidValue, c.spanOf("memory order"),
                "`" + order + "` needs a scope: add `.cta`, `.cluster`, `.gpu` or `.sys` (e.g. `" + name +
                    order + ".cta.shared`)",
                ref, Provenance::Ptxas);
    } else if (!scope.empty() && !strong) {
        c.error(DiagCode::InvalidValue, c.spanOf("scope"),
                "a scope (`" + scope + "`) goes with `.relaxed` or `" + (load ? ".acquire" : ".release") +
                    "` only" + (order.empty() ? ": add one before it" : ", not with `" + order + "`"),
                ref, Provenance::Ptxas);
    }
    if (c.find("mmio"))
        c.error(DiagCode::InvalidValue, c.spanOf("mmio"),
                "`.mmio` is for `.global` memory only (`" + name + ".mmio.relaxed.sys.global`); remove it",
                ref, Provenance::Ptxas);
    const std::string cop = c.value("cache operator");
    if (cop.empty()) return;
    const bool legal = load ? (cop != ".wb" && cop != ".wt")
                            : (cop == ".wb" || cop == ".cg" || cop == ".cs" || cop == ".wt");
    if (!legal)
        c.error(DiagCode::InvalidValue, c.spanOf("cache operator"),
                "`" + cop + "` is not a cache operator of `" + name +
                    "`: " + (load ? "`.ca`, `.cg`, `.cs`, `.lu` or `.cv`" : "`.wb`, `.cg`, `.cs` or `.wt`"),
                ref, Provenance::Ptxas);
    else if (!order.empty() && order != ".weak")
        c.error(DiagCode::InvalidValue, c.spanOf("cache operator"),
                "a cache operator (`" + cop + "`) goes with a weak access only, not with `" + order +
                    "`: remove one of them",
                ref, Provenance::Ptxas);
}

/// The type and vector rules; the bits of one element, or 0 when the form is rejected.
int checkShape(Checker& c, const char* ref) {
    const std::string type = c.value("type"), vec = c.value("vector");
    const int bits = typeBits(type);
    if (type == ".f16" || type == ".bf16" || type == ".f16x2" || type == ".bf16x2" || type == ".pred") {
        c.error(DiagCode::InvalidValue, c.spanOf("type"),
                "ld/st take no `" + type + "` type: move " +
                    (type == ".pred" ? "a predicate through a `.u8`/`.u32` register (selp, setp)"
                                     : std::string("the bits as `") + (bits == 16 ? ".b16" : ".b32") + "`"),
                ref, Provenance::Ptxas);
        return 0;
    }
    const int n = vec.empty() ? 1 : vec[2] - '0';
    if (n * bits > 256 || (vec == ".v8" && bits != 32)) {
        c.error(
            DiagCode::InvalidValue, c.spanOf("vector"),
            "`" + vec + type + "` is " + std::to_string(n * bits) +
                " bits: a vector of ld/st holds at most 128 bits in shared memory (`.v4` of 32-bit, `.v2` of "
                "64-bit elements)",
            ref, Provenance::Ptxas);
        return 0;
    }
    if (n * bits == 256) {
        c.error(
            DiagCode::InvalidValue, c.spanOf("vector"),
            "256-bit ld/st (`" + vec + type +
                "`) are for `.global` memory on sm_100 and later (PTX ISA 8.8); shared memory takes at most "
                "128 bits per access: split it into two `" +
                (bits == 32 ? ".v4" : ".v2") + "` accesses",
            ref, Provenance::Ptxas);
        return 0;
    }
    return bits;
}

/// d (ld) or b (st): a register of the type's width or wider; `{x}` for a scalar; a vector of exactly
/// the elements `.vN` names. Loads may discard vector elements with `_` (not all of them, not a
/// scalar); stores may store immediates, never `_`.
void checkValue(Checker& c, const Operand& v, const std::string& type, int n, bool load, const char* ref) {
    const int bits = typeBits(type);
    const std::string role = load ? "the destination" : "the value stored";
    const uint32_t regs = valueRegs(bits);
    const uint32_t elem = regs | (load ? kSink : kImm);
    if (n == 1) {
        if (v.kind == OperandKind::Vector && v.elements.size() == 1) {
            if (c.expectScalar(v.elements[0], role, regs | (load ? 0u : kImm), ref))
                checkImmediate(c, v.elements[0], type, role, ref);
            return;
        }
        if (load && c.kindOf(v) == kSink) {
            c.error(DiagCode::InvalidValue, v.span, "an ld cannot discard its only result: write a register",
                    ref, Provenance::Ptxas);
            return;
        }
        if (c.expectScalar(v, role, regs | (load ? 0u : kImm), ref)) checkImmediate(c, v, type, role, ref);
        return;
    }
    if (!c.expectVector(v, role, static_cast<size_t>(n), elem, ref)) return;
    // ptxas 13.0: "Vector with elements of different types are not allowed in st instruction" (an integer
    // and a floating-point literal in one vector).
    bool intLit = false, fpLit = false;
    for (const auto& e : v.elements) {
        if (!checkImmediate(c, e, type, role + " element", ref)) return;
        if (e.kind != OperandKind::Immediate) continue;
        const bool fp =
            e.text.size() > 2 && e.text[0] == '0' && std::string("fFdD").find(e.text[1]) != std::string::npos;
        (fp ? fpLit : intLit) = true;
    }
    if (intLit && fpLit) {
        c.error(DiagCode::InvalidValue, v.span,
                role + " mixes integer and floating-point literals: write them all one way", ref,
                Provenance::Ptxas);
        return;
    }
    bool allSinks = true;
    for (const auto& e : v.elements) allSinks = allSinks && c.kindOf(e) == kSink;
    if (allSinks)
        c.error(DiagCode::InvalidValue, v.span, role + " discards every element: keep at least one register",
                ref, Provenance::Ptxas);
}

Status check(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env, const InstrSpec& s,
             bool load) {
    Checker c(in, t, env, s);
    if (!c.matchQualifiers()) return c.finish();
    checkOrder(c, load, s.ref);
    checkShape(c, s.ref);
    if (!c.diags.empty()) return c.finish();
    const std::string vec = c.value("vector");
    const int n = vec.empty() ? 1 : vec[2] - '0';
    if (in.operands.size() == 3) {
        c.error(DiagCode::InvalidValue, in.operands[2].span,
                "a third operand is a cache policy, which needs `.L2::cache_hint`, and that is for `.global` "
                "memory only: remove `" +
                    in.operands[2].text + "`",
                s.ref, Provenance::Ptxas);
        return c.finish();
    }
    if (!c.expectCount(2, load ? "d, [a]" : "[a], b", s.ref)) return c.finish();
    expectSharedAddress(c, in.operands[load ? 1 : 0], s.ref);
    checkValue(c, in.operands[load ? 0 : 1], c.value("type"), n, load, s.ref);
    return c.finish();
}

Status checkLd(const ParsedInstr& i, const PtxTarget& t, const PtxEnvironment& e) {
    return check(i, t, e, kLd, true);
}
Status checkSt(const ParsedInstr& i, const PtxTarget& t, const PtxEnvironment& e) {
    return check(i, t, e, kSt, false);
}

} // namespace

std::vector<InstrEntry> ldstSharedEntries() {
    return {{&kLd, &checkLd}, {&kSt, &checkSt}};
}

} // namespace layoutscope::ptx
