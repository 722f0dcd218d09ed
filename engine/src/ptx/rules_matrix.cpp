// Warp-wide matrix loads, stores and transposes (PTX ISA 9.2 §9.7.14.5.15 ldmatrix, §9.7.14.5.16
// stmatrix, §9.7.14.5.17 movmatrix). The rules below as CUDA 13.0 ptxas decides them
// (tests/data/ptxas_front/matrix.jsonl.gz):
//
//   ldmatrix.sync.aligned.m8n8.num{.trans}{.shared{::cta}}.b16             r, [p];   r: num registers
//   ldmatrix.sync.aligned.m16n16.num.trans{.ss}.b8                         r, [p];   r: 2*num (x1, x2)
//   ldmatrix.sync.aligned.m16n16.num.trans{.ss}.b8x16.{b6x16_p32|b4x16_p64} r, [p];
//   ldmatrix.sync.aligned.m8n16.num{.ss}.b8x16.{b6x16_p32|b4x16_p64}       r, [p];   r: num
//   stmatrix.sync.aligned.m8n8.num{.trans}{.ss}.b16                        [p], r;
//   stmatrix.sync.aligned.m16n8.num.trans{.ss}.b8                          [p], r;
//   movmatrix.sync.aligned.m8n8.trans.b16                                  d, a;
#include "ptx/rules.hpp"

namespace layoutscope::ptx {

namespace {

constexpr const char* kLdRef = "PTX ISA 9.2 §9.7.14.5.15 ldmatrix";
constexpr const char* kStRef = "PTX ISA 9.2 §9.7.14.5.16 stmatrix";
constexpr const char* kMovRef = "PTX ISA 9.2 §9.7.14.5.17 movmatrix";

/// The shapes new with Blackwell (m16n16 / m8n16 for ldmatrix, m16n8 for stmatrix): arch- and
/// family-specific targets of sm_100 and later (ptxas 13.0).
constexpr TargetMask kNewShapes = kTcgen05Targets | kSm120Like;
constexpr uint32_t kSharedAddr = kR32 | kR64 | kSharedSym | kOpenSym;

InstrSpec matrixSpec(const char* name, const char* ref, TargetMask targets, int minPtx,
                     std::vector<QualSpec> shapes) {
    return {name,
            {name},
            targets,
            minPtx,
            ref,
            {{"sync", {{".sync"}}, true, false, ref, true},
             {"alignment", {{".aligned"}}, true, false, ref},
             {"shape", std::move(shapes), true, false, ref},
             {"count", {{".x1"}, {".x2"}, {".x4"}}, true, false, ref},
             {"transpose", {{".trans"}}, false, false, ref},
             {"state space", {{".shared"}, {".shared::cta", kAllTargets, 78}}, false, false, ref},
             {"type", {{".b16"}, {".b8", kNewShapes, 86}}, false, false, ref},
             {"destination format", {{".b8x16", kNewShapes, 86}}, false, false, ref},
             {"source format",
              {{".b6x16_p32", kNewShapes, 86}, {".b4x16_p64", kNewShapes, 86}},
              false,
              false,
              ref}},
            {}};
}
// ldmatrix and movmatrix run on every modelled target (sm_75 and later); stmatrix needs sm_90 (ptxas 13.0:
// "Feature 'stmatrix' requires .target sm_90 or higher").
const InstrSpec kLd = matrixSpec("ldmatrix", kLdRef, kAllTargets, 65,
                                 {{".m8n8"}, {".m16n16", kNewShapes, 86}, {".m8n16", kNewShapes, 86}});
const InstrSpec kSt = matrixSpec("stmatrix", kStRef, kSm90Up, 78, {{".m8n8"}, {".m16n8", kNewShapes, 86}});
const InstrSpec kMov{"movmatrix",
                     {"movmatrix"},
                     kAllTargets,
                     78,
                     kMovRef,
                     {{"sync", {{".sync"}}, true, false, kMovRef, true},
                      {"alignment", {{".aligned"}}, true, false, kMovRef},
                      {"shape", {{".m8n8"}}, true, false, kMovRef},
                      {"transpose", {{".trans"}}, true, false, kMovRef},
                      {"type", {{".b16"}}, true, false, kMovRef}},
                     {}};

Status check(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env, const InstrSpec& s,
             bool load) {
    Checker c(in, t, env, s);
    const char* ref = s.ref;
    if (!c.matchQualifiers()) return c.finish();
    const std::string shape = c.value("shape"), num = c.value("count"), type = c.value("type");
    const bool trans = c.find("transpose") != nullptr;
    const bool dst = c.find("destination format") != nullptr, src = c.find("source format") != nullptr;
    const int n = num == ".x1" ? 1 : num == ".x2" ? 2 : 4;
    int regs = n;
    // The element type: `.b16` / `.b8`, or the pair `.b8x16.b6x16_p32` / `.b8x16.b4x16_p64`.
    std::string want; // the spelling this shape takes, for the message
    bool ok = true;
    if (shape == ".m8n8") {
        want = "`.b16`";
        ok = type == ".b16" && !dst && !src;
    } else if (shape == ".m16n16" || shape == ".m16n8") {
        want = load ? "`.b8` or `.b8x16.b6x16_p32` / `.b8x16.b4x16_p64`" : "`.b8`";
        ok = (type == ".b8" && !dst && !src) || (load && type.empty() && dst && src);
        if (!trans)
            c.error(DiagCode::InvalidValue, c.spanOf("shape"), "`" + shape + "` is transposed: add `.trans`",
                    ref, Provenance::Ptxas);
        if (load) {
            if (num == ".x4")
                c.error(DiagCode::InvalidValue, c.spanOf("count"),
                        "`.m16n16` loads one or two matrices: `.x1` or `.x2`", ref, Provenance::Ptxas);
            regs = 2 * n;
        }
    } else { // .m8n16
        want = "`.b8x16.b6x16_p32` or `.b8x16.b4x16_p64`";
        ok = type.empty() && dst && src;
        if (trans)
            c.error(DiagCode::InvalidValue, c.spanOf("transpose"),
                    "`.m8n16` is not transposed: remove `.trans`", ref, Provenance::Ptxas);
    }
    if (!ok)
        c.error(DiagCode::InvalidValue, type.empty() ? c.spanOf("shape") : c.spanOf("type"),
                "`" + shape + "` takes the element type " + want, ref, Provenance::Ptxas);
    if (!c.diags.empty()) return c.finish();
    const std::string list = load ? "r (" + std::to_string(regs) + " registers), [p]"
                                  : "[p], r (" + std::to_string(regs) + " registers)";
    if (c.expectCount(2, list, ref)) {
        c.expectAddress(in.operands[load ? 1 : 0], "the shared-memory address", kSharedAddr, true, ref);
        c.expectVector(in.operands[load ? 0 : 1], load ? "the destination" : "the source",
                       static_cast<size_t>(regs), kR32, ref);
    }
    return c.finish();
}

Status checkLd(const ParsedInstr& i, const PtxTarget& t, const PtxEnvironment& e) {
    return check(i, t, e, kLd, true);
}
Status checkSt(const ParsedInstr& i, const PtxTarget& t, const PtxEnvironment& e) {
    return check(i, t, e, kSt, false);
}
Status checkMov(const ParsedInstr& in, const PtxTarget& t, const PtxEnvironment& env) {
    Checker c(in, t, env, kMov);
    c.matchQualifiers();
    if (c.expectCount(2, "d, a", kMovRef)) {
        c.expectScalar(in.operands[0], "d", kR32, kMovRef);
        c.expectScalar(in.operands[1], "a", kR32, kMovRef);
    }
    return c.finish();
}

} // namespace

std::vector<InstrEntry> matrixEntries() {
    return {{&kLd, &checkLd}, {&kSt, &checkSt}, {&kMov, &checkMov}};
}

} // namespace layoutscope::ptx
