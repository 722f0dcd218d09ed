// tcgen05.mma accumulator placement (PTX ISA 9.2 §9.7.16.10.5 "Data path layout organization"; CuTe
// UMMA::tmem_frg in cute/atom/mma_traits_sm100.hpp). The maps are in umma_layout.hpp.
#include "layoutscope/tcgen05/umma_layout.hpp"

#include "layoutscope/tcgen05/tmem.hpp"

#include <string>

namespace layoutscope {

const char* ummaDLayoutName(UmmaDLayout l) {
    switch (l) {
    case UmmaDLayout::A:
        return "Layout A (M=256, .cta_group::2)";
    case UmmaDLayout::B:
        return "Layout B (M=128, .cta_group::2)";
    case UmmaDLayout::D:
        return "Layout D (M=128, .cta_group::1)";
    case UmmaDLayout::F:
        return "Layout F (M=64, .cta_group::1)";
    case UmmaDLayout::C:
        return "Layout C (M=128, .cta_group::2, sparse A)";
    case UmmaDLayout::E:
        return "Layout E (M=64, .ws)";
    case UmmaDLayout::G:
        return "Layout G (M=32, .ws)";
    }
    return "?";
}

Status checkUmmaDShape(const UmmaDShape& s) {
    auto bad = [](std::string msg) {
        return tcgen05Diagnostic(Severity::Error, RuleId::Tcgen05MmaDLayout, std::move(msg));
    };
    if (s.ctaGroup != 1 && s.ctaGroup != 2) return bad(".cta_group must be ::1 or ::2");
    if (s.ws) { // PTX ISA 9.2 §9.7.16.2.1 (matrix shape): .ws is .cta_group::1 with M 32/64/128
        if (s.ctaGroup != 1) return bad("tcgen05.mma.ws is .cta_group::1 only");
        if (s.m != 32 && s.m != 64 && s.m != 128)
            return bad("M = " + std::to_string(s.m) + ": 32, 64 or 128 for tcgen05.mma.ws");
        if (s.n != 64 && s.n != 128 && (s.n != 256 || s.sparse))
            return bad("N = " + std::to_string(s.n) + ": " +
                       (s.sparse ? "64 or 128 for tcgen05.mma.ws.sp" : "64, 128 or 256 for tcgen05.mma.ws"));
        if (s.dBits != 16 && s.dBits != 32)
            return bad("the accumulator is 16 (f16) or 32 (f32, s32) bits wide");
        return okStatus();
    }
    const bool mOk = s.ctaGroup == 1 ? (s.m == 64 || s.m == 128) : (s.m == 128 || s.m == 256);
    if (!mOk)
        return bad("M = " + std::to_string(s.m) + ": " +
                   (s.ctaGroup == 1 ? "64 or 128 with .cta_group::1" : "128 or 256 with .cta_group::2"));
    const uint32_t step = s.m == 64 ? 8 : 16;
    if (s.n < step || s.n > 256 || s.n % step != 0)
        return bad("N = " + std::to_string(s.n) + ": a multiple of " + std::to_string(step) + " in " +
                   std::to_string(step) + "..256 for M = " + std::to_string(s.m));
    if (s.dBits != 16 && s.dBits != 32) return bad("the accumulator is 16 (f16) or 32 (f32, s32) bits wide");
    return okStatus();
}

UmmaDLayout ummaDLayout(const UmmaDShape& s) {
    if (s.ws) return s.m == 32 ? UmmaDLayout::G : s.m == 64 ? UmmaDLayout::E : UmmaDLayout::D;
    if (s.ctaGroup == 2) return s.m == 256 ? UmmaDLayout::A : s.sparse ? UmmaDLayout::C : UmmaDLayout::B;
    return s.m == 64 ? UmmaDLayout::F : UmmaDLayout::D;
}

UmmaDCell ummaDCell(const UmmaDShape& s, uint32_t m, uint32_t n) {
    LAYOUTSCOPE_ASSERT(m < s.m && n < s.n);
    switch (ummaDLayout(s)) {
    case UmmaDLayout::D: // lane m, column n
        return {0, m, n, 0};
    case UmmaDLayout::F: // 16 rows per 32-lane quarter: lanes 0-15, 32-47, 64-79, 96-111
        return {0, (m % 16) + 32 * (m / 16), n, 0};
    case UmmaDLayout::A: // 128 rows per CTA of the pair
        return {m / 128, m % 128, n, 0};
    case UmmaDLayout::B: { // 64 rows per CTA; the second half of N folded into lanes 64-127
        const uint32_t half = s.n / 2;
        return {m / 64, (m % 64) + 64 * (n / half), n % half, 0};
    }
    case UmmaDLayout::C: { // 64 rows per CTA in Layout F's lanes (unverified: the figure is an image)
        const uint32_t r = m % 64;
        return {m / 64, (r % 16) + 32 * (r / 16), n, 0};
    }
    case UmmaDLayout::E: { // .ws M = 64: the second half of N folded into lanes 64-127
        const uint32_t half = s.n / 2;
        return {0, m + 64 * (n / half), n % half, 0};
    }
    case UmmaDLayout::G: { // .ws M = 32: quarter q of N in lanes 32q .. 32q + 31
        const uint32_t quarter = s.n / 4;
        return {0, m + 32 * (n / quarter), n % quarter, 0};
    }
    }
    return {};
}

uint32_t ummaDColumns(const UmmaDShape& s) {
    const UmmaDLayout l = ummaDLayout(s);
    return l == UmmaDLayout::B || l == UmmaDLayout::E ? s.n / 2 : l == UmmaDLayout::G ? s.n / 4 : s.n;
}

uint32_t ummaDLaneSpan(const UmmaDShape& s) {
    const UmmaDLayout l = ummaDLayout(s);
    return l == UmmaDLayout::F || l == UmmaDLayout::C ? 112 : 128;
}

} // namespace layoutscope
