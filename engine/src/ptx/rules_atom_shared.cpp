// atom / red on shared memory (PTX ISA 9.2 §9.7.13.5 atom, §9.7.13.6 red), as CUDA 13.0 ptxas decides
// them (tests/data/ptxas_front/ldst.jsonl.gz, scripts/ptxas-diff/gen_ldst_cases.py):
//
//   atom{.sem}{.scope}.ss.op{.noftz}.type   d, [a], b{, c};      (c for .cas only)
//   red{.sem}{.scope}.ss.op{.noftz}.type    [a], b;
//   .ss = .shared{::cta | ::cluster}   .scope = .cta .cluster .gpu .sys
//   .sem: atom .relaxed .acquire .release .acq_rel; red .relaxed .release
//
// Qualifier order is free; `.sem` and `.scope` stand alone (each without the other assembles). The
// operation x type table (ptxas's own list, "Operation .add requires .u32 or .s32 ..."):
//   .add  .u32 .s32 .u64 .f32 .f64, and .f16 .f16x2 .bf16 .bf16x2 with `.noftz` (required)
//   .min .max  .u32 .s32 .u64 .s64 (their .f16/.bf16 forms need a vector: `.global` only)
//   .inc .dec  .u32      .and .or .xor  .b32 .b64      .exch  .b32 .b64 (.b128)      .cas  .b16 .b32 .b64
//   (.b128)
// red has no .exch / .cas. Rejected on shared memory: vectors (`.global` only), `.L2::cache_hint`, `.mmio`.
// Operands are registers of exactly the type's width (unlike ld/st); b and c may be immediates; d may be `_`.
#include "ptx/rules_shared_access.hpp"

#include <algorithm>

namespace layoutscope::ptx {

namespace {

constexpr const char* kAtomRef = "PTX ISA 9.2 §9.7.13.5 atom";
constexpr const char* kRedRef = "PTX ISA 9.2 §9.7.13.6 red";

std::vector<QualSpec> specs(std::initializer_list<const char*> l) {
    std::vector<QualSpec> v;
    for (const char* t : l) v.push_back({t, kAllTargets, 0});
    return v;
}

InstrSpec spec(const char* name, const char* op, const char* ref) {
    std::vector<QualSpec> spaces =
        specs({".shared", ".shared::cta", ".shared::cluster", ".global", ".local", ".const", ".param"});
    spaces[1].minPtx = spaces[2].minPtx = 78;
    std::vector<QualSpec> types =
        specs({".b16", ".b32", ".b64", ".b128", ".u16", ".u32", ".u64", ".s16", ".s32", ".s64", ".f16",
               ".f16x2", ".bf16", ".bf16x2", ".f32", ".f64", ".b8", ".u8", ".s8"});
    types[3].minPtx =
        83; // `.b128` (exch, cas): "Instruction 'atom.exch.b128.shared' requires PTX ISA .version 8.3"
    // Before Hopper (ptxas 13.0 on sm_75 ... sm_89): no `.shared::cluster`, no `.cluster` scope, no bf16 /
    // bf16x2 atomics on shared memory ("Instruction 'atom.add.bf16.shared' requires .target sm_90 or
    // higher"); `.b128` atomics are sm_90's too (PTX ISA 9.2 §9.7.13.5 target notes; unverified by ptxas:
    // the differential wrapper declares no .b128 register).
    spaces[2].targets = types[3].targets = types[12].targets = types[13].targets = kSm90Up;
    std::vector<QualSpec> scopes = specs({".cta", ".cluster", ".gpu", ".sys"});
    scopes[1].targets = kSm90Up;
    std::vector<IllegalQual> illegal = sharedIllegalHints();
    for (const char* cop : {".ca", ".cg", ".cs", ".lu", ".cv", ".wb", ".wt"})
        illegal.push_back({cop, "atomics take no cache operator; remove it"});
    for (const char* m : {".ftz", ".sat", ".rn", ".rz", ".rm", ".rp"})
        illegal.push_back({m, "atomics take no rounding, flush or saturation modifier (f16/bf16 adds take "
                              "`.noftz`); remove it"});
    return {name,
            {op},
            kAllTargets,
            10,
            ref,
            {{"state space", spaces, true, false, ref},
             {"memory order", specs({".relaxed", ".acquire", ".release", ".acq_rel", ".weak", ".volatile"}),
              false, false, ref},
             {"scope", scopes, false, false, ref},
             {"mmio", specs({".mmio"}), false, false, ref},
             {"operation",
              specs({".add", ".min", ".max", ".inc", ".dec", ".and", ".or", ".xor", ".exch", ".cas"}), true,
              false, ref},
             {"noftz", specs({".noftz"}), false, false, ref},
             {"vector", specs({".v2", ".v4", ".v8"}), false, false, ref},
             {"type", types, true, false, ref}},
            illegal,
            &namesSharedSpace};
}
const InstrSpec kAtom = spec("atom.shared", "atom", kAtomRef);
const InstrSpec kRed = spec("red.shared", "red", kRedRef);

bool oneOf(const std::string& s, std::initializer_list<const char*> l) {
    return std::any_of(l.begin(), l.end(), [&](const char* x) { return s == x; });
}

/// The types `op` takes on shared memory ("" when op is not an operation of this instruction).
const char* typesOf(const std::string& op, bool red) {
    if (op == ".add")
        return "`.u32`, `.s32`, `.u64`, `.f32`, `.f64`, `.noftz.f16`, `.noftz.f16x2`, `.noftz.bf16` or "
               "`.noftz.bf16x2`";
    if (op == ".min" || op == ".max") return "`.u32`, `.s32`, `.u64` or `.s64`";
    if (op == ".inc" || op == ".dec") return "`.u32`";
    if (op == ".exch") return red ? "" : "`.b32` or `.b64`";
    if (op == ".cas") return red ? "" : "`.b16`, `.b32` or `.b64`";
    return "`.b32` or `.b64`"; // .and .or .xor
}

bool takes(const std::string& op, const std::string& t) {
    if (op == ".add")
        return oneOf(t, {".u32", ".s32", ".u64", ".f32", ".f64", ".f16", ".f16x2", ".bf16", ".bf16x2"});
    if (op == ".min" || op == ".max") return oneOf(t, {".u32", ".s32", ".u64", ".s64"});
    if (op == ".inc" || op == ".dec") return t == ".u32";
    if (op == ".exch") return oneOf(t, {".b32", ".b64", ".b128"});
    if (op == ".cas") return oneOf(t, {".b16", ".b32", ".b64", ".b128"});
    return oneOf(t, {".b32", ".b64"});
}

void checkForm(Checker& c, bool red, const char* ref) {
    const std::string name = red ? "red" : "atom";
    const std::string sem = c.value("memory order"), op = c.value("operation"), type = c.value("type");
    if (sem == ".weak" || sem == ".volatile" || (red && (sem == ".acquire" || sem == ".acq_rel")))
        c.error(DiagCode::InvalidValue, c.spanOf("memory order"),
                "`" + sem + "` is not an order of `" + name + "`: " +
                    (red ? "`.relaxed` or `.release`" : "`.relaxed`, `.acquire`, `.release` or `.acq_rel`") +
                    " (or none: `.relaxed`)",
                ref, Provenance::Ptxas);
    if (c.find("mmio"))
        c.error(DiagCode::InvalidValue, c.spanOf("mmio"), "`.mmio` is not for shared memory; remove it", ref,
                Provenance::Ptxas);
    if (red && (op == ".exch" || op == ".cas")) {
        c.error(DiagCode::InvalidValue, c.spanOf("operation"),
                "`red` has no `" + op + "` (it returns nothing to exchange or compare): write `atom" + op +
                    "`",
                ref, Provenance::Ptxas);
        return;
    }
    if (c.find("vector")) {
        c.error(DiagCode::InvalidValue, c.spanOf("vector"),
                "vector `" + name + "` (`" + c.value("vector") +
                    "`) is for `.global` memory only; on shared memory write one `" + name + "` per element",
                ref, Provenance::Ptxas);
        return;
    }
    const bool half = oneOf(type, {".f16", ".f16x2", ".bf16", ".bf16x2"});
    if (half && (op == ".min" || op == ".max")) {
        c.error(DiagCode::InvalidValue, c.spanOf("type"),
                "`" + name + op + type +
                    "` exists only as a vector (`.v2`/`.v4`/`.v8`), which is for `.global` "
                    "memory only",
                ref, Provenance::Ptxas);
        return;
    }
    if (!takes(op, type)) {
        c.error(DiagCode::InvalidValue, c.spanOf("type"),
                "`" + name + op + "` does not take `" + type + "`; it takes " + typesOf(op, red), ref,
                Provenance::Ptxas);
        return;
    }
    if (c.find("noftz") && !half)
        c.error(DiagCode::InvalidValue, c.spanOf("noftz"),
                "`.noftz` goes with `.f16`, `.f16x2`, `.bf16`, `.bf16x2` adds only; remove it", ref,
                Provenance::Ptxas);
    if (!c.find("noftz") && half)
        c.error(DiagCode::InvalidValue, c.spanOf("type"),
                "`" + name + ".add" + type + "` needs `.noftz` (it never flushes subnormals): write `" +
                    name + ".add.noftz" + type + "`",
                ref, Provenance::Ptxas);
}

uint32_t exactReg(int bits) {
    if (bits == 16) return kR16;
    if (bits == 32) return kR32;
    return bits == 64 ? uint32_t(kR64) : uint32_t(kR128);
}

Status check(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env, const InstrSpec& s,
             bool red) {
    Checker c(in, t, env, s);
    if (!c.matchQualifiers()) return c.finish();
    checkForm(c, red, s.ref);
    if (!c.diags.empty()) return c.finish();
    const std::string op = c.value("operation"), type = c.value("type");
    const size_t n = (red ? 2 : 3) + (op == ".cas" ? 1 : 0);
    const std::string list = std::string(red ? "" : "d, ") + "[a], b" + (op == ".cas" ? ", c" : "");
    if (in.operands.size() == n + 1 && op != ".cas") {
        c.error(
            DiagCode::InvalidValue, in.operands[n].span,
            "an extra operand is a cache policy, which needs `.L2::cache_hint`, and that is for `.global` "
            "memory only: remove `" +
                in.operands[n].text + "`",
            s.ref, Provenance::Ptxas);
        return c.finish();
    }
    if (!c.expectCount(n, list, s.ref)) return c.finish();
    const int bits = typeBits(type);
    const uint32_t reg = exactReg(bits);
    const size_t a = red ? 0 : 1;
    if (!red) c.expectScalar(in.operands[0], "the destination (the old value)", reg | kSink, s.ref);
    // ptxas 13.0 accepts a sink in place of red's address (`red.shared.add.u32 _, %r2;`, every type; atom:
    // "Parsing error near '_'"). Taken as ptxas takes it; what it assembles to is unverified (the executor
    // stops at it: it has no address to reduce into).
    if (!(red && c.kindOf(in.operands[0]) == kSink)) expectSharedAddress(c, in.operands[a], s.ref);
    for (size_t i = a + 1; i < n; ++i) {
        const std::string role = i == a + 1 ? "operand b" : "operand c";
        if (c.expectScalar(in.operands[i], role, reg | kImm, s.ref))
            checkImmediate(c, in.operands[i], type, role, s.ref);
    }
    return c.finish();
}

Status checkAtom(const ParsedInstr& i, const PtxTarget& t, const PtxEnvironment& e) {
    return check(i, t, e, kAtom, false);
}
Status checkRed(const ParsedInstr& i, const PtxTarget& t, const PtxEnvironment& e) {
    return check(i, t, e, kRed, true);
}

} // namespace

std::vector<InstrEntry> atomRedSharedEntries() {
    return {{&kAtom, &checkAtom}, {&kRed, &checkRed}};
}

} // namespace layoutscope::ptx
