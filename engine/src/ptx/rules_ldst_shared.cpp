// ld / st on shared memory, the weak forms nvcc writes for CuTe's shared-memory traffic (PTX ISA 9.2
// §9.7.9.8 ld, §9.7.9.10 st). The rules below as CUDA 13.0 ptxas decides them
// (tests/data/ptxas_front/front.jsonl.gz):
//
//   ld.shared{::cta | ::cluster}{.v2 | .v4}.type   d, [a];
//   st.shared{::cta | ::cluster}{.v2 | .v4}.type   [a], b;
//
// Qualifier order is free for ptxas (`ld.u32.shared` assembles). Only these forms are modelled: an
// ld/st with another state space, none (generic), an ordering (`.volatile`, `.relaxed.cta`), a cache
// operator or an eviction hint is another table's job, and `check` lists it as not modelled.
#include "ptx/rules.hpp"

#include <algorithm>

namespace layoutscope::ptx {

namespace {

constexpr const char* kLdRef = "PTX ISA 9.2 §9.7.9.8 ld";
constexpr const char* kStRef = "PTX ISA 9.2 §9.7.9.10 st";

const char* const kSpaces[] = {".shared", ".shared::cta", ".shared::cluster"};
const char* const kVectors[] = {".v2", ".v4"};
// ptxas 13.0 rejects `.f16` on ld/st ("Unexpected instruction types specified"): a half is `.b16`.
const char* const kTypes[] = {".b8",  ".u8",  ".s8",  ".b16", ".u16", ".s16", ".b32",
                              ".u32", ".s32", ".f32", ".b64", ".u64", ".s64", ".f64"};

/// A shared state space among the qualifiers, and nothing this table does not know.
bool claims(const ParsedInstr& in) {
    bool shared = false;
    for (size_t i = 1; i < in.opcode.size(); ++i) {
        const std::string& t = in.opcode[i].text;
        const auto is = [&](const auto& list) {
            return std::any_of(std::begin(list), std::end(list), [&](const char* x) { return t == x; });
        };
        if (is(kSpaces))
            shared = true;
        else if (!is(kVectors) && !is(kTypes))
            return false;
    }
    return shared;
}

std::vector<QualSpec> specs(const char* const* b, const char* const* e, int minPtx = 0) {
    std::vector<QualSpec> v;
    for (; b != e; ++b) v.push_back({*b, kAllTargets, minPtx});
    return v;
}

InstrSpec spec(const char* name, const char* op, const char* ref) {
    std::vector<QualSpec> spaces = specs(std::begin(kSpaces), std::end(kSpaces));
    spaces[1].minPtx = spaces[2].minPtx = 78; // `.shared::cta` / `::cluster`: PTX 7.8
    return {name,
            {op},
            kAllTargets,
            10,
            ref,
            {{"state space", spaces, true, false, ref},
             {"vector", specs(std::begin(kVectors), std::end(kVectors)), false, false, ref},
             {"type", specs(std::begin(kTypes), std::end(kTypes)), true, false, ref}},
            {},
            &claims};
}
const InstrSpec kLd = spec("ld.shared", "ld", kLdRef);
const InstrSpec kSt = spec("st.shared", "st", kStRef);

/// Registers a value of `type` may sit in (ptxas 13.0): the type's size or wider for the integer and
/// bit types, exactly its size for floating point.
uint32_t valueRegs(const std::string& type) {
    const int bits = std::stoi(type.substr(2));
    const bool fp = type[1] == 'f';
    if (fp) return bits == 32 ? kR32 : kR64;
    if (bits <= 16) return kR16 | kR32 | kR64;
    return bits == 32 ? kR32 | kR64 : kR64;
}

Status check(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env, const InstrSpec& s,
             bool load) {
    Checker c(in, t, env, s);
    c.matchQualifiers();
    const std::string type = c.value("type"), vec = c.value("vector");
    if (type.empty() || !c.expectCount(2, load ? "d, [a]" : "[a], b", s.ref)) return c.finish();
    if (vec == ".v4" && type.substr(2) == "64")
        c.error(DiagCode::InvalidValue, c.spanOf("vector"),
                "`.v4` of a 64-bit type is 32 bytes: the most is `.v2`", s.ref, Provenance::Ptxas);
    const Operand& addr = in.operands[load ? 1 : 0];
    const Operand& val = in.operands[load ? 0 : 1];
    // ptxas 13.0: any register holds a shared address (16-bit too); an immediate address is only for
    // .local ("Immediate addresses allowed only for .local state space").
    c.expectAddress(addr, "the shared-memory address", kR16 | kR32 | kR64 | kSharedSym | kOpenSym, true,
                    s.ref);
    const uint32_t regs = valueRegs(type) | (load ? 0u : kImm);
    const std::string role = load ? "the destination" : "the value stored";
    if (vec.empty())
        c.expectScalar(val, role, regs, s.ref);
    else
        c.expectVector(val, role, vec == ".v2" ? 2 : 4, regs, s.ref);
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
