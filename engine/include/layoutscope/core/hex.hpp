#pragma once
/// `0x` and lowercase hex digits of a value, as messages and recordings write addresses ("0x7f0000000000").
#include <cstdint>
#include <cstdio>
#include <string>

namespace layoutscope {

[[nodiscard]] inline std::string hex(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

} // namespace layoutscope
