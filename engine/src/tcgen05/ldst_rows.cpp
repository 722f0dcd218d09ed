// Row-vector kernels of the tcgen05.ld / st bulk path for the shapes whose lanes are shared by threads
// (.16x64b, .16x128b, .16x256b; ldst_copy.hpp): each aligned run of four elements of a lane is a small block
// of threads x registers, so the move order (JT) is a few vector shuffles of the lanes, not a gather. The
// maps (tcgen05.md §4.1, closed forms in tcgen05.hpp; t = 4g + q, lanes relative to taddr's):
//   16x64b   t = 4g + 2b + c: lane g + 8c, column 2j + b        JT[j][4g..4g+3] = A[2j], B[2j], A[2j+1],
//   B[2j+1] 16x128b  j = 2m + e:      lane g + 8e, column 4m + q        JT[j][4g..4g+3] = R[4m .. 4m+3]
//   16x256b  j = 4m + 2h + e: lane g + 8h, column 8m + 2q + e   JT[j][4g..4g+3] = R[8m + e], +2, +4, +6
// (A = lane g, B = lane g + 8, R = the register's lane.) An element is a cell, or with .pack / .unpack::16b
// the pair of cells of one register (8 bytes: column k of the table is cells 2k, 2k + 1).
#include "tcgen05/ldst_copy.hpp"
#include "tcgen05/sse_words.hpp"

#include <cstring>

namespace layoutscope::detail {
namespace {

#if defined(__SSE2__)
// Both directions of one shape: ToJT reads the lanes and writes JT, else the reverse. W: words an element.
template <bool ToJT, uint32_t W>
void rows64b(uint32_t* cells, uint32_t stride, uint32_t n, uint32_t* jt) {
    constexpr uint32_t kRow = 32 * W; // words of a JT row
    for (uint32_t g = 0; g < 8; ++g) {
        uint32_t* a = cells + size_t(g) * stride;
        uint32_t* b = a + size_t(8) * stride;
        if (W == 1) {
            for (uint32_t j = 0; j < n; j += 2) { // registers j, j + 1: columns 2j .. 2j + 3 of both lanes
                uint32_t* x = jt + size_t(j) * kRow + 4 * g;
                if (ToJT) {
                    const __m128i va = load4(a + 2 * j), vb = load4(b + 2 * j);
                    store4(x, _mm_unpacklo_epi32(va, vb)), store4(x + kRow, _mm_unpackhi_epi32(va, vb));
                } else {
                    const __m128i vx = load4(x), vy = load4(x + kRow);
                    const __m128i t0 = _mm_unpacklo_epi32(vx, vy), t1 = _mm_unpackhi_epi32(vx, vy);
                    store4(a + 2 * j, _mm_unpacklo_epi32(t0, t1)),
                        store4(b + 2 * j, _mm_unpackhi_epi32(t0, t1));
                }
            }
        } else {
            for (uint32_t j = 0; j < n; ++j) { // elements 2j, 2j + 1 of both lanes
                uint32_t* x = jt + size_t(j) * kRow + 8 * g;
                if (ToJT) {
                    const __m128i va = load4(a + 4 * j), vb = load4(b + 4 * j);
                    store4(x, _mm_unpacklo_epi64(va, vb)), store4(x + 4, _mm_unpackhi_epi64(va, vb));
                } else {
                    const __m128i vx = load4(x), vy = load4(x + 4);
                    store4(a + 4 * j, _mm_unpacklo_epi64(vx, vy)),
                        store4(b + 4 * j, _mm_unpackhi_epi64(vx, vy));
                }
            }
        }
    }
}

template <bool ToJT, uint32_t W>
void rows128b(uint32_t* cells, uint32_t stride, uint32_t n, uint32_t* jt) {
    constexpr uint32_t kRow = 32 * W;
    for (uint32_t j = 0; j < n; ++j)
        for (uint32_t g = 0; g < 8; ++g) {
            uint32_t* r = cells + size_t(g + 8 * (j % 2)) * stride + 4 * W * (j / 2);
            uint32_t* x = jt + size_t(j) * kRow + 4 * W * g;
            if (ToJT)
                std::memcpy(x, r, 16 * W);
            else
                std::memcpy(r, x, 16 * W);
        }
}

template <bool ToJT, uint32_t W>
void rows256b(uint32_t* cells, uint32_t stride, uint32_t n, uint32_t* jt) {
    constexpr uint32_t kRow = 32 * W;
    for (uint32_t j = 0; j < n; j += 2) // registers j (even), j + 1: one lane, columns 8m .. 8m + 7
        for (uint32_t g = 0; g < 8; ++g) {
            uint32_t* r = cells + size_t(g + 8 * ((j / 2) % 2)) * stride + 8 * W * (j / 4);
            uint32_t* ev = jt + size_t(j) * kRow + 4 * W * g;
            uint32_t* od = ev + kRow;
            if (W == 1 && ToJT) {
                const __m128 v0 = _mm_castsi128_ps(load4(r)), v1 = _mm_castsi128_ps(load4(r + 4));
                store4(ev, _mm_castps_si128(_mm_shuffle_ps(v0, v1, _MM_SHUFFLE(2, 0, 2, 0))));
                store4(od, _mm_castps_si128(_mm_shuffle_ps(v0, v1, _MM_SHUFFLE(3, 1, 3, 1))));
            } else if (W == 1) {
                const __m128i e = load4(ev), o = load4(od);
                store4(r, _mm_unpacklo_epi32(e, o)), store4(r + 4, _mm_unpackhi_epi32(e, o));
            } else if (ToJT) {
                for (uint32_t k = 0; k < 2; ++k) { // elements 4k .. 4k + 3 of the lane
                    const __m128i w0 = load4(r + 8 * k), w1 = load4(r + 8 * k + 4);
                    store4(ev + 4 * k, _mm_unpacklo_epi64(w0, w1)),
                        store4(od + 4 * k, _mm_unpackhi_epi64(w0, w1));
                }
            } else {
                for (uint32_t k = 0; k < 2; ++k) {
                    const __m128i e = load4(ev + 4 * k), o = load4(od + 4 * k);
                    store4(r + 8 * k, _mm_unpacklo_epi64(e, o)),
                        store4(r + 8 * k + 4, _mm_unpackhi_epi64(e, o));
                }
            }
        }
}

// .pack::16b loads: JT[j][t] is the register (the low halves of its cell pair), so four elements (two
// vectors of two) become one vector of four words.
inline __m128i pack4(__m128i e01, __m128i e23) {
    const __m128 a = _mm_castsi128_ps(e01), b = _mm_castsi128_ps(e23);
    const __m128i lo = _mm_castps_si128(_mm_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0)));
    const __m128i hi = _mm_castps_si128(_mm_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1)));
    return _mm_or_si128(_mm_and_si128(lo, _mm_set1_epi32(0xFFFF)), _mm_slli_epi32(hi, 16));
}

void packed64b(const uint32_t* cells, uint32_t stride, uint32_t n, uint32_t* jt) {
    for (uint32_t g = 0; g < 8; ++g) {
        const uint32_t* a = cells + size_t(g) * stride;
        const uint32_t* b = a + size_t(8) * stride;
        for (uint32_t j = 0; j < n; ++j) {
            const __m128i va = load4(a + 4 * j), vb = load4(b + 4 * j);
            store4(jt + size_t(j) * 32 + 4 * g,
                   pack4(_mm_unpacklo_epi64(va, vb), _mm_unpackhi_epi64(va, vb)));
        }
    }
}

void packed128b(const uint32_t* cells, uint32_t stride, uint32_t n, uint32_t* jt) {
    for (uint32_t j = 0; j < n; ++j)
        for (uint32_t g = 0; g < 8; ++g) {
            const uint32_t* r = cells + size_t(g + 8 * (j % 2)) * stride + 8 * (j / 2);
            store4(jt + size_t(j) * 32 + 4 * g, pack4(load4(r), load4(r + 4)));
        }
}

void packed256b(const uint32_t* cells, uint32_t stride, uint32_t n, uint32_t* jt) {
    for (uint32_t j = 0; j < n; j += 2)
        for (uint32_t g = 0; g < 8; ++g) {
            const uint32_t* r = cells + size_t(g + 8 * ((j / 2) % 2)) * stride + 16 * (j / 4);
            const __m128i w0 = load4(r), w1 = load4(r + 4), w2 = load4(r + 8), w3 = load4(r + 12);
            uint32_t* ev = jt + size_t(j) * 32 + 4 * g;
            store4(ev, pack4(_mm_unpacklo_epi64(w0, w1), _mm_unpacklo_epi64(w2, w3)));
            store4(ev + 32, pack4(_mm_unpackhi_epi64(w0, w1), _mm_unpackhi_epi64(w2, w3)));
        }
}

template <bool ToJT>
void rows(LdStShape shape, uint32_t* cells, uint32_t stride, uint32_t n, bool pairs, uint32_t* jt) {
    if (shape == LdStShape::k16x64b)
        pairs ? rows64b<ToJT, 2>(cells, stride, n, jt) : rows64b<ToJT, 1>(cells, stride, n, jt);
    else if (shape == LdStShape::k16x128b)
        pairs ? rows128b<ToJT, 2>(cells, stride, n, jt) : rows128b<ToJT, 1>(cells, stride, n, jt);
    else
        pairs ? rows256b<ToJT, 2>(cells, stride, n, jt) : rows256b<ToJT, 1>(cells, stride, n, jt);
}
#endif

} // namespace

bool lanesTake(LdStShape shape, uint32_t n, bool pairs) {
#if defined(__SSE2__)
    // .16x64b of single cells and .16x256b move two registers a vector (their counts are even but for
    // .16x64b.x1); .16x128b moves one.
    return (shape == LdStShape::k16x64b && (pairs || n % 2 == 0)) || shape == LdStShape::k16x128b ||
           (shape == LdStShape::k16x256b && n % 2 == 0);
#else
    (void)shape, (void)n, (void)pairs;
    return false;
#endif
}

#if defined(__SSE2__)
void lanesToJT(LdStShape shape, const uint32_t* cells, uint32_t stride, uint32_t n, bool pairs,
               uint32_t* jt) {
    LAYOUTSCOPE_ASSERT(lanesTake(shape, n, pairs));
    rows<true>(shape, const_cast<uint32_t*>(cells), stride, n, pairs, jt); // reads cells only
}

void lanesToJTPacked(LdStShape shape, const uint32_t* cells, uint32_t stride, uint32_t n, uint32_t* jt) {
    LAYOUTSCOPE_ASSERT(lanesTake(shape, n, true));
    if (shape == LdStShape::k16x64b)
        packed64b(cells, stride, n, jt);
    else if (shape == LdStShape::k16x128b)
        packed128b(cells, stride, n, jt);
    else
        packed256b(cells, stride, n, jt);
}

void jtToLanes(LdStShape shape, const uint32_t* jt, uint32_t stride, uint32_t n, bool pairs,
               uint32_t* cells) {
    LAYOUTSCOPE_ASSERT(lanesTake(shape, n, pairs));
    rows<false>(shape, cells, stride, n, pairs, const_cast<uint32_t*>(jt)); // reads jt only
}
#else
void lanesToJT(LdStShape, const uint32_t*, uint32_t, uint32_t, bool, uint32_t*) {
    LAYOUTSCOPE_ASSERT(false);
}
void lanesToJTPacked(LdStShape, const uint32_t*, uint32_t, uint32_t, uint32_t*) {
    LAYOUTSCOPE_ASSERT(false);
}
void jtToLanes(LdStShape, const uint32_t*, uint32_t, uint32_t, bool, uint32_t*) {
    LAYOUTSCOPE_ASSERT(false);
}
#endif

} // namespace layoutscope::detail
