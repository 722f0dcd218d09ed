// The word kernels of the tcgen05.ld / st bulk path (ldst_copy.hpp). tests/engine/tcgen05_fast_test.cpp
// checks the bulk path that uses them against the per-move executor, word for word, for every form.
#include "tcgen05/ldst_copy.hpp"
#include "tcgen05/sse_words.hpp"

#include <cstring>

namespace layoutscope::detail {
namespace {

#if defined(__SSE2__)
// Four registers' words (threads t..t+3 of one j) as eight .unpack::16b move words at p.
inline void storeUnpacked(uint32_t* p, __m128i v) {
    const __m128i lo = _mm_and_si128(v, _mm_set1_epi32(0xFFFF)), hi = _mm_srli_epi32(v, 16);
    store4(p, _mm_unpacklo_epi32(lo, hi));
    store4(p + 4, _mm_unpackhi_epi32(lo, hi));
}
#endif

template <bool Unpack>
void regsToJTImpl(const ConstRegRows& regs, uint32_t j0, uint32_t j1, uint32_t* jt) {
    constexpr uint32_t kW = Unpack ? 2 : 1; // words a register
    uint32_t j = j0;
#if defined(__SSE2__)
    for (; j + 4 <= j1; j += 4)
        for (uint32_t t = 0; t < 32; t += 4) {
            __m128i a = load4(regs[t] + j), b = load4(regs[t + 1] + j);
            __m128i c = load4(regs[t + 2] + j), d = load4(regs[t + 3] + j);
            transpose4(a, b, c, d);
            uint32_t* o = jt + (size_t(j - j0) * 32 + t) * kW;
            if (Unpack) {
                storeUnpacked(o, a), storeUnpacked(o + 64, b), storeUnpacked(o + 128, c);
                storeUnpacked(o + 192, d);
            } else {
                store4(o, a), store4(o + 32, b), store4(o + 64, c), store4(o + 96, d);
            }
        }
#endif
    for (; j < j1; ++j)
        for (uint32_t t = 0; t < 32; ++t) {
            const uint32_t v = regs[t][j];
            uint32_t* o = jt + (size_t(j - j0) * 32 + t) * kW;
            if (Unpack)
                o[0] = v & 0xFFFF, o[1] = v >> 16;
            else
                o[0] = v;
        }
}

} // namespace

void regsToJT(const ConstRegRows& regs, uint32_t j0, uint32_t j1, uint32_t* jt) {
    regsToJTImpl<false>(regs, j0, j1, jt);
}

void regsToJTUnpack(const ConstRegRows& regs, uint32_t j0, uint32_t j1, uint32_t* jt) {
    regsToJTImpl<true>(regs, j0, j1, jt);
}

void jtToRegs(const uint32_t* jt, uint32_t j0, uint32_t j1, const RegRows& regs) {
    uint32_t j = j0;
#if defined(__SSE2__)
    for (; j + 4 <= j1; j += 4)
        for (uint32_t t = 0; t < 32; t += 4) {
            const uint32_t* s = jt + size_t(j - j0) * 32 + t;
            __m128i a = load4(s), b = load4(s + 32), c = load4(s + 64), d = load4(s + 96);
            transpose4(a, b, c, d);
            store4(regs[t] + j, a), store4(regs[t + 1] + j, b), store4(regs[t + 2] + j, c);
            store4(regs[t + 3] + j, d);
        }
#endif
    for (; j < j1; ++j)
        for (uint32_t t = 0; t < 32; ++t) regs[t][j] = jt[size_t(j - j0) * 32 + t];
}

void cellsToJT(const uint32_t* cells, const int32_t* offT, const int32_t* offJ, uint32_t j0, uint32_t j1,
               bool pairs, bool contiguous, uint32_t* jt) {
    const uint32_t nj = j1 - j0;
    if (contiguous && !pairs) { // each lane's run is a row of registers already
        ConstRegRows rows{};
        for (uint32_t t = 0; t < 32; ++t) rows[t] = cells + offT[t] + offJ[0];
        return regsToJT(rows, j0, j1, jt);
    }
#if defined(__SSE2__)
    if (contiguous) { // rows of 8-byte elements (cell pairs): 2x2 blocks of them, straight from the lanes
        for (uint32_t t = 0; t < 32; t += 2) {
            const uint32_t* ra = cells + offT[t] + offJ[0];
            const uint32_t* rb = cells + offT[t + 1] + offJ[0];
            uint32_t j = j0;
            for (; j + 2 <= j1; j += 2) {
                const __m128i a = load4(ra + 2 * j), b = load4(rb + 2 * j);
                uint32_t* o = jt + (size_t(j - j0) * 32 + t) * 2;
                store4(o, _mm_unpacklo_epi64(a, b)), store4(o + 64, _mm_unpackhi_epi64(a, b));
            }
            for (; j < j1; ++j) {
                std::memcpy(jt + (size_t(j - j0) * 32 + t) * 2, ra + 2 * j, 8);
                std::memcpy(jt + (size_t(j - j0) * 32 + t + 1) * 2, rb + 2 * j, 8);
            }
        }
        return;
    }
#endif
    alignas(16) std::array<uint32_t, 4 * 2 * 128> rows; // four threads' cells, register by register
    for (uint32_t t0 = 0; t0 < 32; t0 += 4) {
        for (uint32_t q = 0; q < 4; ++q) {
            const uint32_t* c = cells + offT[t0 + q];
            uint32_t* r = rows.data() + size_t(q) * nj * (pairs ? 2 : 1);
            if (pairs && contiguous)
                std::memcpy(r, c + offJ[j0], 8 * size_t(nj));
            else if (pairs)
                for (uint32_t j = j0; j < j1; ++j, r += 2) std::memcpy(r, c + offJ[j], 8);
            else
                for (uint32_t j = j0; j < j1; ++j) *r++ = c[offJ[j]];
        }
        if (pairs) { // a register's two words stay side by side: 2x2 blocks of 8-byte elements
            for (uint32_t q = 0; q < 4; q += 2) {
                const uint32_t* ra = rows.data() + size_t(q) * nj * 2;
                const uint32_t* rb = ra + size_t(nj) * 2;
                uint32_t j = 0;
#if defined(__SSE2__)
                for (; j + 2 <= nj; j += 2) {
                    const __m128i a = load4(ra + 2 * j), b = load4(rb + 2 * j);
                    uint32_t* o = jt + (size_t(j) * 32 + t0 + q) * 2;
                    store4(o, _mm_unpacklo_epi64(a, b)), store4(o + 64, _mm_unpackhi_epi64(a, b));
                }
#endif
                for (; j < nj; ++j) {
                    std::memcpy(jt + (size_t(j) * 32 + t0 + q) * 2, ra + 2 * j, 8);
                    std::memcpy(jt + (size_t(j) * 32 + t0 + q + 1) * 2, rb + 2 * j, 8);
                }
            }
            continue;
        }
        uint32_t j = 0;
#if defined(__SSE2__)
        for (; j + 4 <= nj; j += 4) {
            __m128i a = load4(rows.data() + j), b = load4(rows.data() + nj + j);
            __m128i c = load4(rows.data() + 2 * nj + j), d = load4(rows.data() + 3 * nj + j);
            transpose4(a, b, c, d);
            uint32_t* o = jt + size_t(j) * 32 + t0;
            store4(o, a), store4(o + 32, b), store4(o + 64, c), store4(o + 96, d);
        }
#endif
        for (; j < nj; ++j)
            for (uint32_t q = 0; q < 4; ++q) jt[size_t(j) * 32 + t0 + q] = rows[size_t(q) * nj + j];
    }
}

void packRun(const uint32_t* p, uint32_t n, uint32_t* r) {
    uint32_t j = 0;
#if defined(__SSE2__)
    const __m128i mask = _mm_set1_epi32(0xFFFF);
    for (; j + 4 <= n; j += 4) {
        const __m128 v0 = _mm_castsi128_ps(load4(p + 2 * j)), v1 = _mm_castsi128_ps(load4(p + 2 * j + 4));
        const __m128i ev = _mm_castps_si128(_mm_shuffle_ps(v0, v1, _MM_SHUFFLE(2, 0, 2, 0)));
        const __m128i od = _mm_castps_si128(_mm_shuffle_ps(v0, v1, _MM_SHUFFLE(3, 1, 3, 1)));
        store4(r + j, _mm_or_si128(_mm_and_si128(ev, mask), _mm_slli_epi32(od, 16)));
    }
#endif
    for (; j < n; ++j) r[j] = (p[2 * j] & 0xFFFF) | (p[2 * j + 1] << 16);
}

void unpackRun(const uint32_t* r, uint32_t n, uint32_t* p) {
    uint32_t j = 0;
#if defined(__SSE2__)
    for (; j + 4 <= n; j += 4) storeUnpacked(p + 2 * j, load4(r + j));
#endif
    for (; j < n; ++j) p[2 * j] = r[j] & 0xFFFF, p[2 * j + 1] = r[j] >> 16;
}

} // namespace layoutscope::detail
