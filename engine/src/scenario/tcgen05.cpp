// tcgen05 in scenarios (PTX ISA 9.2 §9.7.16): the `warp`, `regs` and `desc` directives and the registers
// of a warp. The lowering of validated tcgen05 instructions to ScenarioInstr is tcgen05_lower.cpp, their
// execution through Tcgen05Executor tcgen05_run.cpp. Grammar: docs/scenario-format.md "Tensor Memory
// (tcgen05)".
#include "layoutscope/core/rules.hpp"
#include "layoutscope/tcgen05/smem_descriptor.hpp"
#include "scenario/parse.hpp"

#include <cctype>
#include <charconv>

namespace layoutscope::scn {
namespace {

constexpr uint32_t kRegsPerThread = kScenarioRegsPerThread; ///< enough for the widest form (32x32b.x128)

std::optional<int64_t> parseInt(std::string_view t) {
    int base = 10;
    if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) t.remove_prefix(2), base = 16;
    uint64_t v = 0;
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v, base);
    if (ec != std::errc{} || p != t.data() + t.size()) return std::nullopt;
    return static_cast<int64_t>(v);
}

uint64_t splitmix(uint64_t o) {
    uint64_t z = o + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

} // namespace

std::optional<uint32_t> registerNumber(std::string_view name) {
    size_t i = name.size();
    while (i > 0 && std::isdigit(static_cast<unsigned char>(name[i - 1]))) --i;
    if (i == name.size()) return std::nullopt;
    auto v = parseInt(name.substr(i));
    if (!v || *v >= kRegsPerThread) return std::nullopt;
    return static_cast<uint32_t>(*v);
}

// warp N: the warp of the current CTA issuing the tcgen05 instructions that follow (default 0).
void warpDirective(Context& ctx, const std::vector<Tok>& toks) {
    if (toks.size() != 2) {
        ctx.error(DiagCode::Syntax, toks.size() > 2 ? toks[2].span : toks[0].span,
                  "expected 'warp N' (N = warp id in the CTA, 0..31)");
        return;
    }
    auto v = parseInt(toks[1].text);
    if (!v || *v > 31) {
        ctx.error(DiagCode::InvalidValue, toks[1].span,
                  "warp id '" + toks[1].text + "' is not an integer in [0, 31]");
        return;
    }
    ctx.issuingWarp = static_cast<uint32_t>(*v);
}

// regs pattern=zero|lane|index|bytes|random: the registers r0..r127 of every thread of the issuing warp.
void regsDirective(Context& ctx, const std::vector<Tok>& toks) {
    if (toks.size() != 4 || toks[1].text != "pattern" || toks[2].text != "=") {
        ctx.error(DiagCode::Syntax, toks.size() > 1 ? toks[1].span : toks[0].span,
                  "expected 'regs pattern=zero|lane|index|bytes|random'");
        return;
    }
    const std::string& p = toks[3].text;
    if (p != "zero" && p != "lane" && p != "index" && p != "bytes" && p != "random") {
        ctx.error(DiagCode::InvalidValue, toks[3].span,
                  "unknown register pattern '" + p + "' (zero, lane, index, bytes, random)");
        return;
    }
    WarpRegisters r;
    for (uint32_t t = 0; t < 32; ++t) {
        r[t].resize(kRegsPerThread);
        for (uint32_t j = 0; j < kRegsPerThread; ++j) {
            const uint32_t b0 = (t * kRegsPerThread + j) * 4;
            r[t][j] = p == "zero"    ? 0u
                      : p == "lane"  ? t
                      : p == "index" ? (t << 16 | j)
                      : p == "bytes" ? ((b0 & 0xFF) | ((b0 + 1) & 0xFF) << 8 | ((b0 + 2) & 0xFF) << 16 |
                                        ((b0 + 3) & 0xFF) << 24)
                                     : static_cast<uint32_t>(splitmix(t << 16 | j));
        }
    }
    for (ScenarioWarp& w : ctx.s.warps)
        if (w.cta == ctx.issuingCta && w.warp == ctx.issuingWarp) {
            w.initial = r;
            return;
        }
    ctx.s.warps.push_back(ScenarioWarp{ctx.issuingCta, ctx.issuingWarp, r, {}});
}

// start / lbo / sbo of a descriptor: byte values stored >> 4 in 14 bits, so a multiple of 16 below 0x40000.
static bool descByteField(Context& ctx, SourceSpan at, const char* key, uint64_t bytes) {
    if (bytes % 16 == 0 && bytes < (uint64_t{1} << 18)) return true;
    ctx.error(DiagCode::InvalidValue, at,
              std::string(key) + " = " + std::to_string(bytes) +
                  " B must be a multiple of 16 below 0x40000 (stored as bytes >> 4 in 14 bits)",
              ruleInfo(RuleId::SmemDescriptorFields).reference, Provenance::PtxText);
    return false;
}

// desc NAME start=BUFFER[+BYTES] lbo=BYTES sbo=BYTES swizzle=none|128B|64B|32B|128B_base32B [base=N]:
// a let name holding the 64-bit shared-memory descriptor (smem_descriptor.hpp, PTX ISA §9.7.16.4.1).
void descDirective(Context& ctx, const std::vector<Tok>& toks) {
    if (toks.size() < 2 || toks[1].kind != Tok::Word) {
        ctx.error(DiagCode::Syntax, toks[0].span,
                  "expected 'desc NAME start=BUFFER lbo=N sbo=N swizzle=...'");
        return;
    }
    SmemDescriptor d;
    bool haveStart = false;
    for (size_t i = 2; i < toks.size(); i += 3) {
        if (i + 2 >= toks.size() || toks[i + 1].text != "=") {
            ctx.error(DiagCode::Syntax, toks[i].span,
                      "expected KEY=VALUE (start=, lbo=, sbo=, swizzle=, base=)");
            return;
        }
        const std::string& k = toks[i].text;
        const Tok& v = toks[i + 2];
        if (k == "swizzle") {
            const auto type = smemLayoutTypeFromName(v.text);
            if (!type) {
                ctx.error(DiagCode::InvalidValue, v.span,
                          "swizzle '" + v.text + "' is not " + kSmemLayoutTypeNames);
                return;
            }
            d.layoutType = static_cast<uint32_t>(*type);
            continue;
        }
        if (k == "start") {
            std::string name = v.text;
            uint64_t off = 0;
            if (size_t plus = name.find('+'); plus != std::string::npos) {
                auto o = parseInt(name.substr(plus + 1));
                if (!o) {
                    ctx.error(DiagCode::InvalidValue, v.span, "expected start=BUFFER+BYTES");
                    return;
                }
                off = static_cast<uint64_t>(*o);
                name.resize(plus);
            }
            const ScenarioBuffer* b = ctx.s.findBuffer(name);
            if (!b && ctx.poisoned.count(name)) {  // the buffer's declaration was reported: quiet, and so
                ctx.poisoned.insert(toks[1].text); // are this descriptor's uses (issue 24: no cascade)
                return;
            }
            if (!b) {
                ctx.error(DiagCode::UnknownName, v.span,
                          "'" + name + "' is not an smem buffer declared above");
                return;
            }
            if (off >= b->size) {
                ctx.error(DiagCode::InvalidValue, v.span,
                          "start offset " + v.text.substr(v.text.find('+') + 1) + " is outside " + name +
                              " (" + std::to_string(b->size) + " B)");
                return;
            }
            if (!descByteField(ctx, v.span, "start", b->addr + off)) return;
            d.startAddress = b->addr + off;
            haveStart = true;
            continue;
        }
        if (k != "lbo" && k != "sbo" && k != "base") {
            ctx.error(DiagCode::InvalidValue, toks[i].span,
                      "unknown option '" + k + "' for desc (start=, lbo=, sbo=, swizzle=, base=)");
            return;
        }
        auto n = parseInt(v.text);
        if (!n) {
            ctx.error(DiagCode::InvalidValue, v.span, k + "=" + v.text + " is not a non-negative integer");
            return;
        }
        if (k == "base") {
            if (*n < 0 || *n > 7) {
                ctx.error(DiagCode::InvalidValue, v.span,
                          "base=" + v.text + " must be 0..7 (3 bits, [49,52))",
                          ruleInfo(RuleId::SmemDescriptorFields).reference, Provenance::PtxText);
                return;
            }
            d.baseOffset = static_cast<uint32_t>(*n);
            continue;
        }
        if (!descByteField(ctx, v.span, k.c_str(), static_cast<uint64_t>(*n))) return;
        (k == "lbo" ? d.lbo : d.sbo) = static_cast<uint32_t>(*n);
    }
    if (!haveStart) {
        ctx.error(DiagCode::Syntax, toks[1].span, "desc " + toks[1].text + " needs start=BUFFER");
        return;
    }
    if (Status st = validateSmemDescriptor(d); !st) {
        for (Diagnostic e : st.diagnostics()) {
            e.span = toks[1].span;
            ctx.diags.push_back(std::move(e));
        }
        return;
    }
    ctx.declare(toks[1].text, NameKind::Let, toks[1].span, static_cast<int64_t>(encodeSmemDescriptor(d)));
}

WarpRegisters scenarioWarpRegisters(const Scenario& s, uint32_t cta, uint32_t warp) {
    for (const ScenarioWarp& w : s.warps)
        if (w.cta == cta && w.warp == warp) return w.initial;
    WarpRegisters r;
    for (auto& t : r) t.assign(kRegsPerThread, 0);
    return r;
}

} // namespace layoutscope::scn
