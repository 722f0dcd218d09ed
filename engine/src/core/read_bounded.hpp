#pragma once
// A bounded file read shared by the scenario reader and the dump reader: at most `limit` + 1 bytes, counted
// as they arrive (devices and pipes have no size), so /dev/zero ends in a diagnostic instead of reading
// forever.
#include <algorithm>
#include <cstdint>
#include <fstream>
#include <optional>
#include <string>

namespace layoutscope::core {

enum class ReadStatus { Ok, CannotOpen, TooLarge, ReadError };

/// Reads `path` into `out`; TooLarge once more than `limit` bytes arrived (out then holds limit + 1 bytes).
inline ReadStatus readBounded(const std::string& path, uint64_t limit, std::string& out) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return ReadStatus::CannotOpen;
    out.clear();
    constexpr size_t kChunk = size_t(1) << 16;
    for (;;) {
        const size_t at = out.size();
        const size_t want = static_cast<size_t>(std::min<uint64_t>(kChunk, limit + 1 - at));
        out.resize(at + want);
        in.read(out.data() + at, static_cast<std::streamsize>(want));
        const auto got = static_cast<size_t>(in.gcount());
        out.resize(at + got);
        if (out.size() > limit) return ReadStatus::TooLarge;
        if (got < want) break;
    }
    return in.bad() ? ReadStatus::ReadError : ReadStatus::Ok;
}

} // namespace layoutscope::core
