// libFuzzer target: arbitrary bytes through the CUtensorMap readers (issue 13 item 3). Nothing may
// crash, hang or trip a sanitizer, and whatever decodes must re-encode to the very same bytes.
//   text -> parseTensorMapText -> decodeTensorMap -> tensorMapDirective -> parseScenario, tensorMapJson
//   bytes -> tensorMapFromBinary; the first 128 bytes -> decodeTensorMap (raw blobs, like --file)
//   bytes -> parseObservedBytes (the dump reader of `diff` / `observe`: .npy, cuda-gdb hex, raw; issue 13
//   item 4)
#include "layoutscope/analysis/observed.hpp"
#include "layoutscope/scenario/scenario.hpp"
#include "layoutscope/tma/tensor_map_decode.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

using namespace layoutscope;

namespace {

void decodeAndPrint(const TensorMapImage& image) {
    auto d = decodeTensorMap(image);
    if (!d) return;
    if (tensorMapBytes(d->map) != image)
        std::abort(); // decode accepted bytes that its parameters do not encode
    (void)tensorMapJson(*d);
    (void)parseScenario(tensorMapDirective(*d) + "mbarrier bar\nmbarrier.init.shared::cta.b64 [bar], 1;\n");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    if (auto image = parseTensorMapText(text)) decodeAndPrint(*image);
    (void)tensorMapFromBinary(text);
    (void)parseObservedBytes(text);
    if (size >= 128) {
        TensorMapImage raw;
        for (size_t i = 0; i < 128; ++i) raw[i] = data[i];
        decodeAndPrint(raw);
    }
    return 0;
}
