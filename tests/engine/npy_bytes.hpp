#pragma once
// A .npy v1.0 file in memory (the format's header, padded to 64 bytes, then `dataBytes` bytes of 0x07):
// the dump readers' tests build good and malformed ones with it.
#include <string>

namespace layoutscope::test {

inline std::string npyBytes(const std::string& descr, const std::string& shape, const std::string& fortran,
                            size_t dataBytes) {
    std::string h = "{'descr': '" + descr + "', 'fortran_order': " + fortran + ", 'shape': " + shape + ", }";
    h += std::string((64 - (10 + h.size() + 1) % 64) % 64, ' ') + "\n";
    std::string out = "\x93NUMPY\x01";
    out += '\0';
    out += static_cast<char>(h.size() & 0xFF);
    out += static_cast<char>(h.size() >> 8);
    return out + h + std::string(dataBytes, '\x07');
}

} // namespace layoutscope::test
