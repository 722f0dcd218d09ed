// st.async and red.async (PTX ISA 9.0 §9.7.9.12 st.async, §9.7.13.7 red.async), every form, as CUDA 13.0
// ptxas decides it (tests/data/ptxas_front/async_st.jsonl.gz, scripts/ptxas-diff/gen_async_st_cases.py):
//
//   st.async{.weak}{.shared::cluster}{.mbarrier::complete_tx::bytes}{.v2|.v4}.type [a], b, [mbar]; sm_90, 8.1
//   st.async{.mmio}.release.scope{.global}.type [a], b;        .scope = .gpu .sys            sm_100+, 8.7
//   red.async.relaxed.cluster{.shared::cluster}.mbarrier::complete_tx::bytes.op.type [a], b, [mbar];
//   red.async{.mmio}.sem.scope{.global}.op.type [a], b;  .sem = .relaxed .release, .scope = .gpu .sys
//
// ptxas is more permissive than the ISA's syntax, and each of these is a rule here because ptxas 13.0
// showed it: qualifier order is free; without a state space and with two operands `st.async.u32 [a], b;`
// (and `.weak`, `.gpu`/`.sys` scoped, `red.async.relaxed.gpu`) assemble on sm_90; the mbarrier form takes
// `.shared::cta` and `.shared` too, and a two-operand form with the completion mechanism; `.v2`/`.v4` do
// not bind the value operand's shape (a scalar, or a vector of 2 or 4 elements, either way); the mbarrier
// may sit in a 16-bit register, the address may not. `.release`, `.mmio` and `.global` are sm_100+ with
// PTX 8.7 (`.mmio` also needs PTX 8.2 first). red.async takes add .u32 .s32 .u64 .s64, min/max .u32 .s32,
// inc/dec .u32, and/or/xor .b32 (the ISA lists add .u64 only; ptxas takes .s32 and .s64 as well).
// The executor does not run them: a run stops at the instruction, naming its line.
#include "ptx/rules_shared_access.hpp"

namespace layoutscope::ptx {

namespace {

constexpr const char* kStRef = "PTX ISA 9.0 §9.7.9.12 st.async";
constexpr const char* kRedRef = "PTX ISA 9.0 §9.7.13.7 red.async";
constexpr const char* kCt = ".mbarrier::complete_tx::bytes";
/// "requires .target sm_100 or higher": every modelled target but sm_90 / sm_90a.
constexpr TargetMask kSm100Up = kAllTargets & ~(kSm90 | kSm90a);

std::vector<QualSpec> specs(std::initializer_list<const char*> l) {
    std::vector<QualSpec> v;
    for (const char* t : l) v.push_back({t, kAllTargets, 0});
    return v;
}

InstrSpec spec(const char* name, const char* op, const char* ref, bool red) {
    std::vector<QualGroup> groups = {
        {"memory order", specs({".weak", ".release", ".relaxed", ".acquire", ".volatile", ".acq_rel"}), false,
         false, ref},
        {"scope", specs({".cta", ".cluster", ".gpu", ".sys"}), false, false, ref},
        {"state space", specs({".shared::cluster", ".shared::cta", ".shared", ".global"}), false, false, ref},
        {"completion mechanism", specs({kCt}), false, false, ref},
        {"mmio", {{".mmio", kAllTargets, 82}}, false, false, ref}, // "Feature '.mmio' requires PTX ISA 8.2"
        {"vector", specs({".v2", ".v4", ".v8"}), false, false, ref}};
    if (red) {
        groups.push_back(
            {"operation",
             specs({".add", ".min", ".max", ".inc", ".dec", ".and", ".or", ".xor", ".exch", ".cas"}), true,
             false, ref});
        groups.push_back({"noftz", specs({".noftz"}), false, false, ref});
    }
    groups.push_back({"type", specs({".b8",   ".u8",  ".s8",   ".b16",   ".u16",    ".s16", ".b32",
                                     ".u32",  ".s32", ".f32",  ".b64",   ".u64",    ".s64", ".f64",
                                     ".b128", ".f16", ".bf16", ".f16x2", ".bf16x2", ".pred"}),
                      true, false, ref});
    std::vector<IllegalQual> illegal = sharedIllegalHints();
    for (const char* cop : {".ca", ".cg", ".cs", ".lu", ".cv", ".wb", ".wt"})
        illegal.push_back({cop, "an asynchronous store takes no cache operator; remove it"});
    return {name, {op, ".async"}, kAllTargets, 81, ref, groups, illegal, nullptr};
}
const InstrSpec kStAsync = spec("st.async", "st", kStRef, false);
const InstrSpec kRedAsync = spec("red.async", "red", kRedRef, true);

bool oneOf(const std::string& s, std::initializer_list<const char*> l) {
    for (const char* x : l)
        if (s == x) return true;
    return false;
}

uint32_t exactReg(int bits) {
    if (bits == 16) return kR16;
    if (bits == 32) return kR32;
    return bits == 64 ? uint32_t(kR64) : 0u;
}

/// `[base]` / `[base+imm]`: base a 32- or 64-bit register or a variable of the form's space (a 16-bit
/// register too for the mbarrier operand, as ptxas 13.0 takes it).
bool address(Checker& c, const Operand& op, const std::string& role, bool global, bool mbar,
             const char* ref) {
    if (op.kind != OperandKind::Address || op.elements.size() != 1) {
        c.error(DiagCode::InvalidValue, op.span, role + " must be an address `[…]`; `" + op.text + "` is not",
                ref, Provenance::Ptxas);
        return false;
    }
    if (c.kindOf(op.elements[0]) == kImm) {
        c.error(DiagCode::InvalidValue, op.span,
                "an immediate address is only for `.local` memory: put " + role + " in a register", ref,
                Provenance::Ptxas);
        return false;
    }
    const uint32_t accept =
        kR32 | kR64 | kOpenSym | (global ? kGlobalSym : kSharedSym) | (mbar ? uint32_t(kR16) : 0u);
    return c.expectScalar(op.elements[0], role + " (inside `[…]`)", accept, ref);
}

/// b: a register of exactly the type's width or an immediate of the type (scalar), or for the mbarrier
/// form of st.async a vector of 2 or 4 such elements (1 without `.vN`).
void value(Checker& c, const Operand& v, const std::string& type, bool global, bool red, bool mbarForm,
           const std::string& vq, const char* ref) {
    const std::string role = "the value";
    const uint32_t reg = exactReg(typeBits(type));
    auto scalar = [&](const Operand& e, const std::string& r) {
        if (!c.expectScalar(e, r, reg | kImm, ref)) return;
        if (!checkImmediate(c, e, type, r, ref)) return;
        const bool fp = e.kind == OperandKind::Immediate && e.text.size() > 2 && e.text[0] == '0' &&
                        std::string("fFdD").find(e.text[1]) != std::string::npos;
        if (red && global && fp)
            c.error(DiagCode::InvalidValue, e.span,
                    r + " of the `.global` red.async is an integer: write `" + type +
                        "` bits as an integer literal",
                    ref, Provenance::Ptxas);
    };
    if (v.kind != OperandKind::Vector) {
        scalar(v, role);
        return;
    }
    const size_t n = v.elements.size();
    if (red || global || !mbarForm) {
        c.error(DiagCode::InvalidValue, v.span,
                std::string(red ? "red.async" : "this st.async form") +
                    " stores one scalar: write a register or an immediate, not a vector",
                ref, Provenance::Ptxas);
        return;
    }
    if (!(n == 2 || n == 4 || (n == 1 && vq.empty()))) {
        c.error(DiagCode::InvalidValue, v.span,
                "a vector value has 2 or 4 elements (`.v2` / `.v4`); `" + v.text + "` has " +
                    std::to_string(n),
                ref, Provenance::Ptxas);
        return;
    }
    if (n == 4 && typeBits(type) == 64) {
        c.error(DiagCode::InvalidValue, v.span, "4 x 64 bits is over st.async's 128-bit limit: use `.v2`",
                ref, Provenance::Ptxas);
        return;
    }
    for (const auto& e : v.elements) {
        if (c.kindOf(e) == kSink) {
            c.error(DiagCode::InvalidValue, e.span, "a stored value cannot be `_`: write a register", ref,
                    Provenance::Ptxas);
            return;
        }
        scalar(e, role + " element");
    }
}

Status check(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env, const InstrSpec& s,
             bool red) {
    Checker c(in, t, env, s);
    if (!c.matchQualifiers()) return c.finish();
    const char* ref = s.ref;
    const std::string name = s.name;
    const std::string o = c.value("memory order"), sc = c.value("scope"), sp = c.value("state space");
    const std::string type = c.value("type"), vq = c.value("vector"), op = c.value("operation");
    const bool ct = c.find("completion mechanism") != nullptr, mmio = c.find("mmio") != nullptr;
    const size_t nOps = in.operands.size();
    auto fail = [&](const char* group, const std::string& msg) {
        c.error(DiagCode::InvalidValue, group ? c.spanOf(group) : c.opcodeSpan(), msg, ref,
                Provenance::Ptxas);
        return c.finish();
    };
    const std::string orders = red ? "`.relaxed` or `.release`" : "`.weak` (or none) or `.release`";
    if (red ? !oneOf(o, {"", ".relaxed", ".release"}) : !oneOf(o, {"", ".weak", ".release"}))
        return fail("memory order", "`" + o + "` is not an order of " + name + ": " + orders);
    if (red && o.empty())
        return fail(nullptr,
                    "red.async needs its order: `.relaxed.cluster` with the mbarrier, or `.relaxed` / "
                    "`.release` with `.gpu` / `.sys`");
    if (red && (op == ".exch" || op == ".cas"))
        return fail("operation",
                    "red.async has no `" + op + "` (it returns nothing): write `atom" + op + "`");
    if (red && c.find("noftz"))
        return fail("noftz", "red.async has no floating-point forms: remove `.noftz`");
    // Features of sm_100 and later with PTX 8.7: `.mmio`, `.release`, `.global`.
    for (const char* f : {".mmio", ".release", ".global"}) {
        if (!c.has(f)) continue;
        const char* group = f[1] == 'm' ? "mmio" : f[1] == 'r' ? "memory order" : "state space";
        if (!(c.bit & kSm100Up)) {
            c.targetError(c.spanOf(group), "`" + std::string(f) + "` on " + name, kSm100Up, ref,
                          Provenance::Ptxas);
            return c.finish();
        }
        if (c.ptx < 87)
            return fail(group, "`" + std::string(f) + "` on " + name +
                                   " needs PTX ISA 8.7 or later; this kernel declares .version " +
                                   ptxText(c.ptx));
    }
    if (mmio && o != ".release")
        return fail("mmio", "`.mmio` goes with `.release` (`" + name + ".mmio.release.sys.global`)");
    if ((o == ".release" || (red && o == ".relaxed") || mmio) && sc.empty())
        return fail("memory order", "`" + (o.empty() ? std::string(".mmio") : o) +
                                        "` needs a scope: `.gpu` or `.sys`" +
                                        (red ? " (or `.cluster` with the mbarrier)" : ""));
    if (o == ".release" && (sc == ".cta" || sc == ".cluster"))
        return fail("scope", "the `.release` form's scope is `.gpu` or `.sys`, not `" + sc + "`");
    if (o == ".release" && !sp.empty() && sp != ".global")
        return fail("state space", "the `.release` form writes `.global` memory, not `" + sp + "`");
    if (o == ".weak" && !sc.empty()) return fail("scope", "`.weak` takes no scope: remove `" + sc + "`");
    if (sc == ".cta")
        return fail("scope", "`.cta` is not a scope of " + name +
                                 ": `.cluster` (the mbarrier form) or `.gpu` / `.sys`");
    if (ct && (sc == ".gpu" || sc == ".sys" || sp == ".global"))
        return fail("completion mechanism", "the `.global` / `.gpu` / `.sys` form has no mbarrier: remove `" +
                                                std::string(kCt) + "` and the mbarrier operand");
    if (sc == ".cluster" && !sp.empty() && sp != ".shared::cluster")
        return fail("scope", "`.cluster` goes with `.shared::cluster`, not `" + sp + "`");
    if (sc == ".cluster" && !ct)
        return fail("scope", "`.cluster` is the mbarrier form: add `" + std::string(kCt) +
                                 "` and the mbarrier operand");
    if ((sc == ".gpu" || sc == ".sys") && (sp.rfind(".shared", 0) == 0 || nOps == 3))
        return fail("scope", "`" + sc + "` is the `.global` form (two operands `[a], b`), not shared memory");
    if (!ct && (sp == ".shared::cluster" || (sp.empty() && nOps == 3)))
        return fail(sp.empty() ? nullptr : "state space",
                    "the mbarrier form needs its completion mechanism: add `" + std::string(kCt) + "`");
    if (nOps < 2 || nOps > 3) {
        c.expectCount(3, "[a], b, [mbar]", ref);
        return c.finish();
    }
    const bool global = sp == ".global" || o == ".release" || mmio || sc == ".gpu" || sc == ".sys";
    const int bits = typeBits(type);
    if (oneOf(type, {".b128", ".f16", ".bf16", ".f16x2", ".bf16x2", ".pred"}) || bits == 8 ||
        (!red && !global && bits < 32))
        return fail("type",
                    "`" + type + "` is not a type of " + name + " here: " +
                        (red      ? "see the operation's types"
                         : global ? "the `.global` form takes 16-, 32- and 64-bit types"
                                  : "the mbarrier form takes `.b32 .u32 .s32 .f32 .b64 .u64 .s64 .f64`"));
    if (red) {
        const bool ok = op == ".add"                   ? oneOf(type, {".u32", ".s32", ".u64", ".s64"})
                        : op == ".min" || op == ".max" ? oneOf(type, {".u32", ".s32"})
                        : op == ".inc" || op == ".dec" ? type == ".u32"
                                                       : type == ".b32";
        if (!ok)
            return fail("type", "`red.async" + op + "` does not take `" + type +
                                    "`: add .u32 .s32 .u64 .s64, "
                                    "min/max .u32 .s32, inc/dec .u32, and/or/xor .b32");
    }
    if (!vq.empty() && (red || global || nOps == 2))
        return fail("vector", "a vector (`" + vq + "`) is for the three-operand mbarrier st.async only");
    if (vq == ".v8" || (vq == ".v4" && bits == 64))
        return fail("vector", "`" + vq + type +
                                  "` is over st.async's 128-bit limit: at most `.v4` of 32-bit or `.v2` "
                                  "of 64-bit elements");
    const Operand& v = in.operands[1];
    if (c.kindOf(v) == kSink) {
        c.error(DiagCode::InvalidValue, v.span, "a stored value cannot be `_`: write a register", ref,
                Provenance::Ptxas);
        return c.finish();
    }
    address(c, in.operands[0], "the address", global, false, ref);
    value(c, v, type, global, red, nOps == 3, vq, ref);
    if (nOps == 3) address(c, in.operands[2], "the mbarrier", global, true, ref);
    return c.finish();
}

Status checkStAsync(const ParsedInstr& i, const PtxTarget& t, const PtxEnvironment& e) {
    return check(i, t, e, kStAsync, false);
}
Status checkRedAsync(const ParsedInstr& i, const PtxTarget& t, const PtxEnvironment& e) {
    return check(i, t, e, kRedAsync, true);
}

} // namespace

std::vector<InstrEntry> asyncStEntries() {
    return {{&kStAsync, &checkStAsync}, {&kRedAsync, &checkRedAsync}};
}

} // namespace layoutscope::ptx
