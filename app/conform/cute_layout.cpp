// Evaluating CuTe layouts as printed (see cute_layout.hpp).
#include "conform/cute_layout.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace layoutscope::conform {
namespace {

CuteTuple parseTuple(const std::string& s, size_t& i) {
    CuteTuple t;
    if (i < s.size() && s[i] == '(') {
        ++i;
        do t.children.push_back(parseTuple(s, i));
        while (i < s.size() && s[i] == ',' && ++i);
        if (i >= s.size() || s[i] != ')') throw std::runtime_error("unbalanced CuTe layout");
        ++i;
        return t;
    }
    if (i < s.size() && s[i] == '_') ++i;
    size_t j = i;
    while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
    if (j == i) throw std::runtime_error("bad CuTe layout near '" + s.substr(i, 12) + "'");
    t.value = std::stoll(s.substr(i, j - i));
    i = j;
    return t;
}

void leaves(const CuteTuple& t, std::vector<int64_t>& out) {
    if (t.children.empty()) out.push_back(t.value);
    for (const CuteTuple& c : t.children) leaves(c, out);
}

} // namespace

int64_t cuteOffset(const CuteTuple& shape, const CuteTuple& stride, int64_t x) {
    std::vector<int64_t> sh, st;
    leaves(shape, sh);
    leaves(stride, st);
    int64_t off = 0;
    for (size_t n = 0; n < sh.size() && n < st.size(); ++n) off += (x % sh[n]) * st[n], x /= sh[n];
    return off;
}

namespace {
int64_t flatOffset(const std::vector<std::pair<int64_t, int64_t>>& leaves, int64_t x) {
    int64_t off = 0;
    for (const auto& [size, stride] : leaves) off += (x % size) * stride, x /= size;
    return off;
}
std::vector<std::pair<int64_t, int64_t>> zipLeaves(const CuteTuple& shape, const CuteTuple& stride) {
    std::vector<int64_t> sh, st;
    leaves(shape, sh);
    leaves(stride, st);
    if (sh.size() != st.size()) throw std::runtime_error("CuTe layout shape and stride differ in rank");
    std::vector<std::pair<int64_t, int64_t>> out;
    for (size_t n = 0; n < sh.size(); ++n) out.emplace_back(sh[n], st[n]);
    return out;
}
} // namespace

int64_t CuteLayout::operator()(int64_t x) const {
    return flatOffset(flat, x);
}

int64_t CuteLayout::mode(size_t m, int64_t x) const {
    return flatOffset(modes.at(m), x);
}

int64_t CuteLayout::modeSize(size_t m) const {
    int64_t n = 1;
    for (const auto& leaf : modes.at(m)) n *= leaf.first;
    return n;
}

CuteLayout parseCuteLayout(std::string text) {
    text.erase(std::remove(text.begin(), text.end(), ' '), text.end());
    const size_t o = text.rfind('o');
    if (o != std::string::npos) text = text.substr(o + 1);
    size_t i = 0;
    CuteLayout l;
    l.shape = parseTuple(text, i);
    if (i >= text.size() || text[i] != ':') throw std::runtime_error("CuTe layout has no ':'");
    ++i;
    l.stride = parseTuple(text, i);
    l.flat = zipLeaves(l.shape, l.stride);
    if (l.shape.children.empty()) l.modes.push_back(l.flat);
    for (size_t m = 0; m < l.shape.children.size(); ++m)
        l.modes.push_back(zipLeaves(l.shape.children[m], l.stride.children.at(m)));
    return l;
}

} // namespace layoutscope::conform
