#pragma once
/// Hand-built tcgen05 fixtures for the TMEM, register and decompression views, driven through
/// Tcgen05Executor directly (no scenario file):
///   st:     tcgen05.alloc 128 columns (CTA 0), then tcgen05.st.sync.aligned.32x32b.x4.b32 by warp 1
///           at taddr (lane 32, column 0); register j of thread t holds 0x3F800000 + t*0x100 + j.
///   cp:     two CTAs; tcgen05.cp.cta_group::1.64x128b.warpx2::02_13 (CTA 0, taddr 0), shared memory
///           bytes 0..4095 = i mod 256; descriptor LBO 16 B, SBO 128 B, version 1.
///   decomp: tcgen05.cp.cta_group::1.32x128b.warpx4.b8x16.b4x16_p64 at taddr column 8 of the cp
///           fixture's CTA 0 after byte 0 was set to 0x21.
#include "scene/document.hpp"

#include <memory>

namespace layoutscope::views::test {

std::unique_ptr<Document> makeTmemStDocument();
/// makeTmemStDocument's trace followed by tcgen05.ld.sync.aligned.16x64b.x1.b32 by warp 1 at taddr (32, 0).
std::unique_ptr<Document> makeTmemStLdDocument();
std::unique_ptr<Document> makeTmemCpDocument(bool decompress = false, bool ctaPair = false);
/// A TMEM-heavy synthetic trace for benchmarks: `steps` steps of tcgen05.st 32x32b.x1 by warps 0-3
/// over the whole 128 x 512 TMEM (wrapping), plus shared memory of `smemBytes`.
std::unique_ptr<Document> makeTmemBenchDocument(uint32_t steps, uint32_t smemBytes);

} // namespace layoutscope::views::test
