// The fill generators of a scenario's global tensors (scenario.hpp: scenarioFillGenerator,
// scenarioFillBulkGenerator): each byte of a tensor from its fill pattern (zero, index, random, bytes, ...),
// one byte at a time or a whole box's rows at once.
#include "layoutscope/scenario/scenario.hpp"
#include "scenario/parse.hpp"

#include <bit>
#include <cstring>

namespace layoutscope {

namespace {

uint8_t splitmixByte(uint64_t o) {
    // splitmix64 (Steele, Lea, Flood 2014): a fixed, reproducible byte per offset.
    uint64_t z = o + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return static_cast<uint8_t>(z ^ (z >> 31));
}

// Whole elements of `es` = sizeof(U) bytes holding their own index e, e+1, ... (little-endian host:
// the bytes of U(e) in memory order are byte 0, 1, ... of the index). A loop the compiler vectorises.
template <class U>
void indexElements(uint64_t e, uint8_t* out, size_t n) {
    U v = static_cast<U>(e); // U arithmetic wraps like static_cast<U>(e + i)
    size_t i = 0;
    // 16 at a time, stored straight to `out` (through a block on the stack it cost a store and a reload).
    for (; i + 16 <= n; i += 16, v = static_cast<U>(v + 16))
        for (unsigned k = 0; k < 16; ++k) {
            const U x = static_cast<U>(v + k);
            std::memcpy(out + (i + k) * sizeof(U), &x, sizeof(U));
        }
    for (; i < n; ++i, v = static_cast<U>(v + 1)) std::memcpy(out + i * sizeof(U), &v, sizeof(U));
}

// indexElements for elements of `es` bytes on a little-endian host; nullptr for other sizes or hosts (the
// byte-by-byte fill then does it).
using IndexElementsFn = void (*)(uint64_t e, uint8_t* out, size_t n);
IndexElementsFn indexElementsOf(uint64_t es) {
    if constexpr (std::endian::native != std::endian::little) return nullptr;
    switch (es) {
    case 1:
        return indexElements<uint8_t>;
    case 2:
        return indexElements<uint16_t>;
    case 4:
        return indexElements<uint32_t>;
    case 8:
        return indexElements<uint64_t>;
    default:
        return nullptr;
    }
}

// `n` bytes of the index fill from byte offset o: element o / es holds its own index, little-endian.
// A partial first element byte by byte, then whole elements as integers, then a partial last one.
// es is 1, 2, 4 or 8 for every byte type: a shift and a mask instead of two divisions.
void indexFill(uint64_t es, uint64_t o, uint8_t* out, size_t n) {
    const bool pow2 = (es & (es - 1)) == 0;
    const int shift = std::countr_zero(es);
    uint64_t e = pow2 ? o >> shift : o / es, k = pow2 ? o & (es - 1) : o % es;
    size_t i = 0;
    for (; i < n && k != 0; ++i) {
        out[i] = static_cast<uint8_t>(e >> (8 * k));
        if (++k == es) k = 0, ++e;
    }
    const size_t whole = pow2 ? (n - i) >> shift : (n - i) / es;
    if (const IndexElementsFn run = indexElementsOf(es)) {
        run(e, out + i, whole);
        i += whole * es;
        e += whole;
    }
    for (; i < n; ++i) {
        out[i] = static_cast<uint8_t>(e >> (8 * k));
        if (++k == es) k = 0, ++e;
    }
}

// Each row of `rows` through fill(offset, out, n): one call of the generator for a whole box.
template <class Fill>
void eachRow(const ByteRows& rows, uint8_t* out, Fill fill) {
    for (uint64_t i = 0; i < rows.count; ++i)
        fill(rows.offset + i * rows.stride, out + i * rows.rowBytes, size_t(rows.rowBytes));
}

} // namespace

ByteGenerator scenarioFillGenerator(const ScenarioTensorMap& t) {
    const uint64_t es = scn::fillElementBytes(t.map.p.dataType);
    switch (t.fill) {
    case ScenarioFill::Zero:
        return nullptr;
    case ScenarioFill::Bytes:
        return [](uint64_t o) { return static_cast<uint8_t>(o & 0xFF); };
    case ScenarioFill::Random:
        return [](uint64_t o) { return splitmixByte(o); };
    case ScenarioFill::Index:
        break;
    case ScenarioFill::Data: {
        std::shared_ptr<const std::vector<uint8_t>> d = t.data;
        if (!d) return nullptr;
        return [d](uint64_t o) { return o < d->size() ? (*d)[o] : uint8_t(0); };
    }
    }
    // Element o/es holds its own index, little-endian: byte k of an element is byte k of the index.
    return [es](uint64_t o) { return static_cast<uint8_t>((o / es) >> (8 * (o % es))); };
}

BulkByteGenerator scenarioFillBulkGenerator(const ScenarioTensorMap& t) {
    const ByteGenerator one = scenarioFillGenerator(t);
    if (!one) return nullptr;
    const uint64_t es = scn::fillElementBytes(t.map.p.dataType);
    switch (t.fill) {
    case ScenarioFill::Bytes:
        return [](const ByteRows& rows, uint8_t* out) {
            eachRow(rows, out, [](uint64_t o, uint8_t* p, size_t n) {
                for (size_t i = 0; i < n; ++i) p[i] = static_cast<uint8_t>(o + i);
            });
        };
    case ScenarioFill::Random:
        return [](const ByteRows& rows, uint8_t* out) {
            eachRow(rows, out, [](uint64_t o, uint8_t* p, size_t n) {
                for (size_t i = 0; i < n; ++i) p[i] = splitmixByte(o + i);
            });
        };
    case ScenarioFill::Data:
        return [d = t.data](const ByteRows& rows, uint8_t* out) {
            eachRow(rows, out, [&](uint64_t o, uint8_t* p, size_t n) {
                for (size_t i = 0; i < n; ++i) p[i] = o + i < d->size() ? (*d)[o + i] : uint8_t(0);
            });
        };
    default:
        break;
    }
    if (t.fill != ScenarioFill::Index || es == 0)
        return [one](const ByteRows& rows, uint8_t* out) {
            eachRow(rows, out, [&](uint64_t o, uint8_t* p, size_t n) {
                for (size_t i = 0; i < n; ++i) p[i] = one(o + i);
            });
        };
    // fill_bulk_test.cpp checks every alignment and row stride against the per-byte generator.
    return [es](const ByteRows& rows, uint8_t* out) {
        // Rows of whole elements (a TMA box's rows, the commonest read): indexElements per row, without
        // indexFill's partial-element handling per row (issue 25 item 10: that was a third of the fill).
        const IndexElementsFn run = indexElementsOf(es);
        if (run && ((rows.offset | rows.stride | rows.rowBytes) & (es - 1)) == 0) {
            const int shift = std::countr_zero(es);
            const size_t n = size_t(rows.rowBytes >> shift);
            for (uint64_t i = 0; i < rows.count; ++i)
                run((rows.offset + i * rows.stride) >> shift, out + i * rows.rowBytes, n);
            return;
        }
        eachRow(rows, out, [es](uint64_t o, uint8_t* p, size_t n) { indexFill(es, o, p, n); });
    };
}

} // namespace layoutscope
