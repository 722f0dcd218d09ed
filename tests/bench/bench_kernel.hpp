#pragma once
// engine_bench's `kernel` case (kernel_bench.cpp): per-instruction speed against glibc memcpy.
#include <string>

namespace layoutscope::bench {

/// part: "" every row; "tma", "tma-on", "tma-off" the 8 KiB tile load (both, trace on, trace off), "tma32"
/// the 32 KiB one, "ld", "st", "cp" the tcgen05 rows. Returns 1 when a row missed its goal or did not run.
int kernelBench(const std::string& part);

} // namespace layoutscope::bench
