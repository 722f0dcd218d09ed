// Descriptor addresses against CuTe's own layouts: for every example of golden/cute/umma_smem_desc.json,
// evaluate the printed CuTe smem_layout (Sw<B,M,S> o _0 o shape:stride, element units, the swizzle acting on
// byte addresses) for every (mn, k) of every k-block and compare with elementAddress(decoded descriptor).
// This covers every row and column of the MMA block, beyond the 16-row sample the conform runner checks.
#include "layoutscope/tcgen05/smem_descriptor.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

using namespace layoutscope;

namespace {

/// A CuTe int-tuple: a leaf value or a list of sub-tuples.
struct Tuple {
    int64_t value = 0;
    std::vector<Tuple> children;
    [[nodiscard]] bool leaf() const { return children.empty(); }
};

Tuple parseTuple(const std::string& s, size_t& i) {
    Tuple t;
    if (s[i] == '(') {
        ++i;
        while (true) {
            t.children.push_back(parseTuple(s, i));
            if (s[i] == ',')
                ++i;
            else
                break;
        }
        REQUIRE(s[i] == ')');
        ++i;
        return t;
    }
    if (s[i] == '_') ++i;
    size_t j = i;
    while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
    t.value = std::stoll(s.substr(i, j - i));
    i = j;
    return t;
}

void leaves(const Tuple& t, std::vector<int64_t>& out) {
    if (t.leaf()) out.push_back(t.value);
    for (const Tuple& c : t.children) leaves(c, out);
}

/// Offset of the 1-D (colexicographic) coordinate x inside mode (shape, stride).
int64_t modeOffset(const Tuple& shape, const Tuple& stride, int64_t x) {
    std::vector<int64_t> sh, st;
    leaves(shape, sh);
    leaves(stride, st);
    REQUIRE(sh.size() == st.size());
    int64_t off = 0;
    for (size_t n = 0; n < sh.size(); ++n) {
        off += (x % sh[n]) * st[n];
        x /= sh[n];
    }
    return off;
}

} // namespace

TEST_CASE("descriptor element addresses equal CuTe's smem layouts for every element", "[descriptor][cute]") {
    std::ifstream in(std::string(LAYOUTSCOPE_GOLDEN_DIR) + "/cute/umma_smem_desc.json");
    REQUIRE(in);
    const nlohmann::json doc = nlohmann::json::parse(in);
    for (const auto& ex : doc.at("examples")) {
        const std::string label = ex.at("label");
        INFO(label);
        std::string layout = ex.at("smem_layout");
        layout.erase(std::remove(layout.begin(), layout.end(), ' '), layout.end());
        const size_t o = layout.rfind('o');
        const std::string body = layout.substr(o + 1);
        size_t i = 0;
        const Tuple shape = parseTuple(body, i);
        REQUIRE(body[i] == ':');
        ++i;
        const Tuple stride = parseTuple(body, i);
        unsigned b = 0, m = 0, sh = 0;
        REQUIRE(std::sscanf(layout.c_str(), "Sw<%u,%u,%u>", &b, &m, &sh) == 3);
        const CuteSwizzle sw{b, m, sh};
        const uint32_t bits = ex.at("sizeof_bits");
        const auto major = ex.at("major") == "K" ? MatrixMajor::K : MatrixMajor::MN;
        const uint32_t mmaM = ex.at("mma_block")[0], mmaK = ex.at("mma_block")[1];
        // mode 0 = ((M-part, K-part)) of one MMA block; mode 2 = k-block
        const Tuple& mk = shape.children.at(0);
        const Tuple& mkStride = stride.children.at(0);
        REQUIRE(mk.children.size() == 2);
        size_t mismatches = 0;
        for (const auto& d : ex.at("descriptors")) {
            const uint32_t kb = d.at("k_block");
            const SmemDescriptor desc =
                decodeSmemDescriptor(std::stoull(d.at("desc_hex").get<std::string>(), nullptr, 16));
            for (uint32_t mn = 0; mn < mmaM; ++mn)
                for (uint32_t k = 0; k < mmaK; ++k) {
                    const int64_t elem = modeOffset(mk.children[0], mkStride.children[0], mn) +
                                         modeOffset(mk.children[1], mkStride.children[1], k) +
                                         modeOffset(shape.children.at(2), stride.children.at(2), kb);
                    const uint32_t cute = sw.apply(static_cast<uint32_t>(elem * bits / 8));
                    const uint32_t mine = elementAddress(desc, major, bits, mn, k);
                    if (cute != mine && mismatches++ < 3)
                        FAIL_CHECK("k_block " << kb << " (mn " << mn << ", k " << k << "): CuTe " << cute
                                              << ", engine " << mine);
                }
        }
        CHECK(mismatches == 0);
    }
}
