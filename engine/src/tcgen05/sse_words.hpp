#pragma once
// Internal: the SSE2 word helpers the tcgen05.ld / st kernels share (ldst_copy.cpp, ldst_rows.cpp). Each
// kernel keeps a scalar path for targets without SSE2.
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>

namespace layoutscope::detail {

inline __m128i load4(const uint32_t* p) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
}
inline void store4(uint32_t* p, __m128i v) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v);
}
/// Rows a..d of a 4x4 block of words become its columns.
inline void transpose4(__m128i& a, __m128i& b, __m128i& c, __m128i& d) {
    const __m128i t0 = _mm_unpacklo_epi32(a, b), t1 = _mm_unpacklo_epi32(c, d);
    const __m128i t2 = _mm_unpackhi_epi32(a, b), t3 = _mm_unpackhi_epi32(c, d);
    a = _mm_unpacklo_epi64(t0, t1);
    b = _mm_unpackhi_epi64(t0, t1);
    c = _mm_unpacklo_epi64(t2, t3);
    d = _mm_unpackhi_epi64(t2, t3);
}

} // namespace layoutscope::detail
#endif
