// The tcgen05.ld fragment check (issue 12): an epilogue indexes the registers of a tcgen05.ld as if a
// given shape had loaded them (thread t's register j holds accumulator row r, column c). When the load
// uses another shape, the registers hold other TMEM cells and the epilogue stores the tile scrambled,
// silently. `expect fragment SHAPE` states the epilogue's assumption; every later tcgen05.ld is compared
// with it register by register (the maps of tcgen05.md §4.1, RuleId::TmemLdStMap).
#include "layoutscope/analysis/fragment.hpp"
#include "scenario/directives.hpp"
#include "scenario/parse.hpp"

#include <array>
#include <string>

namespace layoutscope {

std::optional<FragmentDiff> fragmentDiff(const LdStForm& got, const FragmentExpectation& e) {
    const uint32_t regs = regsPerThread(got);
    const uint32_t perX1 = e.shape == LdStShape::k16x256b ? 4 : e.shape == LdStShape::k16x128b ? 2 : 1;
    // Both counts are powers of two and a valid load has at most 128 registers (Table 49), so the
    // assumed shape's .num is valid exactly when it is a whole number.
    if (regs % perX1 != 0) return std::nullopt;
    FragmentDiff d;
    d.assumed.shape = e.shape;
    d.assumed.pack16b = e.pack16b;
    d.assumed.immHalfSplitoff = e.imm;
    d.assumed.num = regs / perX1;
    d.regs = regs;
    d.differs.assign(size_t(32) * regs, 0);
    std::array<RegSegment, 2> a{}, b{};
    for (uint32_t t = 0; t < 32; ++t)
        for (uint32_t j = 0; j < regs; ++j) {
            const uint32_t na = ldStSegmentsInto(got, t, j, a), nb = ldStSegmentsInto(d.assumed, t, j, b);
            if (na == nb && a[0] == b[0] && (na < 2 || a[1] == b[1])) continue;
            d.differs[size_t(t) * regs + j] = 1;
            ++d.count;
        }
    return d;
}

} // namespace layoutscope

namespace layoutscope::scn {
namespace {

constexpr const char* kFragRef =
    "PTX ISA 9.2 §9.7.16.8.3 (tcgen05.ld), Matrix fragments §9.7.16.2.3; tcgen05.md §4.1";

const LdStShape kShapes[] = {LdStShape::k32x32b, LdStShape::k16x64b, LdStShape::k16x128b, LdStShape::k16x256b,
                             LdStShape::k16x32bx2};

std::string loadText(const LdStForm& f) {
    return std::string("tcgen05.ld.sync.aligned.") + ldStShapeName(f.shape) + ".x" + std::to_string(f.num) +
           (f.pack16b ? ".pack::16b" : "") + ".b32";
}

std::string cellText(const RegSegment& g, uint32_t taddr) {
    return "(lane " + std::to_string(int64_t(taddr >> 16) + g.laneOff) + ", column " +
           std::to_string(int64_t(taddr & 0xFFFF) + g.colOff) +
           (g.nbits < 32 ? " bits " + std::to_string(g.tmemBitLo) + "+" + std::to_string(g.nbits)
                         : std::string()) +
           ")";
}

} // namespace

void fragmentDirective(Context& ctx, const std::vector<Tok>& toks) {
    auto fail = [&](SourceSpan sp, std::string msg) {
        ctx.error(DiagCode::InvalidValue, sp, std::move(msg), kFragRef, Provenance::PtxText);
    };
    const char* usage =
        "expected 'expect fragment SHAPE [pack::16b] [imm=N]' (SHAPE: 32x32b, 16x64b, 16x128b, "
        "16x256b, 16x32bx2) or 'expect fragment none'";
    if (toks.size() < 3) return fail(toks.back().span, usage);
    if (toks[2].text == "none" && toks.size() == 3) {
        ctx.expectFragment.reset();
        return;
    }
    FragmentExpectation e;
    e.span = toks[2].span;
    bool known = false;
    for (LdStShape s : kShapes)
        if (toks[2].text == ldStShapeName(s)) {
            e.shape = s;
            known = true;
        }
    if (!known) return fail(toks[2].span, "unknown shape '" + toks[2].text + "': " + usage);
    bool haveImm = false;
    for (size_t i = 3; i < toks.size(); ++i) {
        if (toks[i].text == "pack::16b" && !e.pack16b) {
            e.pack16b = true;
        } else if (toks[i].text == "imm" && i + 2 < toks.size() && toks[i + 1].text == "=" && !haveImm) {
            if (e.shape != LdStShape::k16x32bx2)
                return fail(toks[i].span, "imm= is the half offset of the 16x32bx2 shape only");
            DirectiveReader r{ctx, toks};
            const auto v = r.integer(toks[i + 2], "imm= (the second half's column offset)", 0, 511);
            if (!v) return;
            e.imm = *v;
            haveImm = true;
            i += 2;
        } else {
            return fail(toks[i].span, "unexpected '" + toks[i].text + "': " + usage);
        }
    }
    if (e.shape == LdStShape::k16x32bx2 && !haveImm)
        return fail(toks[2].span, "16x32bx2 needs imm=N, the column offset of threads 16-31's half");
    ctx.expectFragment = e;
}

std::optional<Diagnostic> checkLdFragment(const LdStForm& got, uint32_t taddr, const FragmentExpectation& e) {
    const uint32_t regs = regsPerThread(got);
    Diagnostic d{Severity::Error, DiagCode::InvalidValue, {}, {}, kFragRef, Provenance::Cute};
    const std::string stated = " (stated at line " + std::to_string(e.span.line) + ")";
    const auto diff = fragmentDiff(got, e);
    if (!diff) {
        d.message = loadText(got) + " gives " + std::to_string(regs) +
                    (regs == 1 ? " register" : " registers") + " per thread; no " + ldStShapeName(e.shape) +
                    " load gives that many, so the epilogue's fragment" + stated +
                    " cannot be what this load delivers";
        return d;
    }
    if (diff->count == 0) return std::nullopt;
    const LdStForm& want = diff->assumed;
    std::string first;
    int shown = 0;
    std::array<RegSegment, 2> a{}, b{};
    for (uint32_t t = 0; t < 32 && shown < 4; ++t)
        for (uint32_t j = 0; j < regs && shown < 4; ++j) {
            if (!diff->differs[size_t(t) * regs + j]) continue;
            ldStSegmentsInto(got, t, j, a);
            ldStSegmentsInto(want, t, j, b);
            ++shown;
            first += "; thread " + std::to_string(t) + " register " + std::to_string(j) +
                     ": the epilogue assumes " + cellText(b[0], taddr) + ", the load gives " +
                     cellText(a[0], taddr);
        }
    d.message =
        loadText(got) + " puts other accumulator cells in " + std::to_string(diff->count) + " of " +
        std::to_string(32 * regs) + " (thread, register) pairs than the epilogue's " +
        ldStShapeName(e.shape) + " fragment assumes" + stated + first +
        ". Fix: load with the shape the epilogue assumes: " + loadText(want) +
        (want.shape != got.shape && (want.shape == LdStShape::k32x32b) != (got.shape == LdStShape::k32x32b)
             ? " (it covers " + std::to_string(lanesTouched(want)) + " lanes instead of " +
                   std::to_string(lanesTouched(got)) + ": adjust taddr and the loop over lanes)"
             : std::string()) +
        ", or index the registers as the " + ldStShapeName(got.shape) + " fragment";
    return d;
}

} // namespace layoutscope::scn
