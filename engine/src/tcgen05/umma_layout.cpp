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
    }
    return "?";
}

Status checkUmmaDShape(const UmmaDShape& s) {
    auto bad = [](std::string msg) {
        return tcgen05Diagnostic(Severity::Error, RuleId::Tcgen05MmaDLayout, std::move(msg));
    };
    if (s.ctaGroup != 1 && s.ctaGroup != 2) return bad(".cta_group must be ::1 or ::2");
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
    if (s.ctaGroup == 2) return s.m == 256 ? UmmaDLayout::A : UmmaDLayout::B;
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
    }
    return {};
}

uint32_t ummaDColumns(const UmmaDShape& s) {
    return ummaDLayout(s) == UmmaDLayout::B ? s.n / 2 : s.n;
}

uint32_t ummaDLaneSpan(const UmmaDShape& s) {
    return ummaDLayout(s) == UmmaDLayout::F ? 112 : 128;
}

} // namespace layoutscope
