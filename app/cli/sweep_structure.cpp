// Structural sweep options (sweep_structure.hpp): rewrite a tensor map's boxDim and the one load of it.
#include "cli/sweep_structure.hpp"

#include "layoutscope/tma/tensor_map.hpp"

#include <regex>
#include <sstream>

namespace layoutscope::cli {
namespace {

std::vector<std::string> words(const std::string& line) {
    std::stringstream ss(line);
    std::vector<std::string> w;
    for (std::string x; ss >> x;) w.push_back(x);
    return w;
}

/// "[64,128]" or "64,128" -> {64, 128}; false on anything else (a number 1..2^31).
bool parseList(std::string s, std::vector<int64_t>& out) {
    if (s.size() >= 2 && s.front() == '[' && s.back() == ']') s = s.substr(1, s.size() - 2);
    std::stringstream ss(s);
    out.clear();
    for (std::string x; std::getline(ss, x, ',');) {
        const auto b = x.find_first_not_of(' '), e = x.find_last_not_of(' ');
        if (b == std::string::npos) return false;
        x = x.substr(b, e - b + 1);
        if (x.empty() || x.size() > 10 || x.find_first_not_of("0123456789") != std::string::npos)
            return false;
        out.push_back(std::stoll(x));
        if (out.back() < 1 || out.back() > (int64_t(1) << 31)) return false;
    }
    return !out.empty();
}

std::string listText(const std::vector<int64_t>& v) {
    std::string s = "[";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
    return s + "]";
}

} // namespace

bool isStructuralOption(const std::string& option) {
    return option == "boxes" || option == "loads";
}

bool applyStructure(std::vector<std::string>& lines, const std::string& map, const std::string& option,
                    const std::string& value, std::string& why) {
    const std::string what = map + "." + option + ": ";
    // The tensor map: tiled, its element type and its box (the tile).
    std::string* mapLine = nullptr;
    for (std::string& l : lines) {
        const auto w = words(l);
        if (w.size() >= 2 && w[0] == "tensormap" && w[1] == map) mapLine = &l;
    }
    if (!mapLine) return why = what + "no tensormap named " + map, false;
    const auto w = words(*mapLine);
    if (w.size() < 4 || w[2] != "tiled")
        return why = what + "only a tiled tensor map has a box to vary", false;
    const auto type = parseDataType(w[3]);
    if (!type) return why = what + "unknown element type " + w[3], false;
    const uint32_t bits = elementBits(*type);
    if (bits < 8) return why = what + "sub-byte element types are not varied structurally", false;
    const size_t boxAt = mapLine->find(" box=");
    std::vector<int64_t> tile;
    if (boxAt == std::string::npos ||
        !parseList(mapLine->substr(boxAt + 5, mapLine->find_first_of(" \t#", boxAt + 5) - boxAt - 5), tile))
        return why = what + "the tensormap line has no box=[...] to start from", false;
    // The new box.
    std::vector<int64_t> box = tile;
    if (option == "loads") {
        std::vector<int64_t> n;
        if (!parseList(value, n) || n.size() != 1) return why = what + "loads takes a count", false;
        if (tile.back() % n[0] != 0)
            return why = what + "the tile's outermost dimension (" + std::to_string(tile.back()) +
                         ") is not a multiple of " + std::to_string(n[0]) + " loads",
                   false;
        box.back() = tile.back() / n[0];
    } else {
        if (!parseList(value, box)) return why = what + "boxes takes a box [b0,b1,...]", false;
        if (box.size() != tile.size())
            return why = what + "the box has " + std::to_string(box.size()) + " dimensions, the tensor map " +
                         std::to_string(tile.size()),
                   false;
        for (size_t d = 0; d < tile.size(); ++d)
            if (tile[d] % box[d] != 0)
                return why = what + "tile dimension " + std::to_string(d) + " (" + std::to_string(tile[d]) +
                             ") is not a multiple of box dimension " + std::to_string(d) + " (" +
                             std::to_string(box[d]) + "): the boxes would not cover the tile exactly",
                       false;
    }
    // The one load of MAP: cp.async.bulk.tensor.Nd.shared*.global... [dst], [MAP, {c0, ...}], rest;
    static const std::regex load(
        R"(^(\s*cp\.async\.bulk\.tensor\.\d+d\.shared\S*\.global\S*)\s+\[\s*([A-Za-z_]\w*)\s*(?:\+\s*(\d+)\s*)?\]\s*,\s*\[\s*(\w+)\s*,\s*\{([^}]*)\}\s*\](.*)$)");
    size_t loadLine = lines.size(), count = 0;
    std::smatch m;
    for (size_t i = 0; i < lines.size(); ++i) {
        std::smatch mi;
        if (lines[i].find("[" + map) == std::string::npos && lines[i].find(map + ",") == std::string::npos)
            continue;
        if (lines[i].find("cp.async.bulk.tensor") == std::string::npos) continue;
        if (!std::regex_match(lines[i], mi, load) || mi[4] != map) {
            if (lines[i].find(".global.shared") != std::string::npos) continue; // a store of MAP: kept
            return why = what + "line " + std::to_string(i + 1) + ": a load of " + map +
                         " whose destination is not NAME or NAME+BYTES",
                   false;
        }
        ++count, loadLine = i, m = mi;
    }
    if (count != 1)
        return why = what + "the scenario loads " + map + " " + std::to_string(count) +
                     " times; a structural sweep rewrites exactly one load",
               false;
    std::vector<int64_t> coord;
    {
        std::stringstream ss(m[5].str());
        for (std::string x; std::getline(ss, x, ',');) {
            const auto b = x.find_first_not_of(' '), e = x.find_last_not_of(' ');
            const std::string t = b == std::string::npos ? "" : x.substr(b, e - b + 1);
            const bool neg = !t.empty() && t[0] == '-';
            const std::string digits = neg ? t.substr(1) : t;
            if (digits.empty() || digits.size() > 10 ||
                digits.find_first_not_of("0123456789") != std::string::npos)
                return why = what + "coordinate '" + t + "' of the load is not an integer literal", false;
            coord.push_back(neg ? -std::stoll(digits) : std::stoll(digits));
        }
    }
    if (coord.size() != tile.size())
        return why = what + "the load names " + std::to_string(coord.size()) + " coordinates for a rank-" +
                     std::to_string(tile.size()) + " tensor map",
               false;
    // Box k starts where box k - 1's shared-memory image ends: with a swizzle, rows shorter than its
    // span are padded to it (tma.md §4.1), so the image is rows x max(inner bytes, span).
    int64_t span = 0;
    if (const size_t sw = mapLine->find(" swizzle="); sw != std::string::npos) {
        std::string v = mapLine->substr(sw + 9, mapLine->find_first_of(" \t#", sw + 9) - sw - 9);
        if (v.rfind("CU_TENSOR_MAP_SWIZZLE_", 0) == 0) v = v.substr(22);
        if (!v.empty() && v[0] >= '1' && v[0] <= '9')
            span = std::stoll(v.substr(0, v.find_first_not_of("0123456789")));
    }
    const int64_t inner = box[0] * int64_t(bits / 8);
    int64_t boxBytes = span > 0 ? (inner + span - 1) / span * span : inner;
    for (size_t d = 1; d < box.size(); ++d) boxBytes *= box[d];
    std::vector<int64_t> n(tile.size());
    size_t loads = 1;
    for (size_t d = 0; d < tile.size(); ++d) n[d] = tile[d] / box[d], loads *= size_t(n[d]);
    if (loads > 256) return why = what + std::to_string(loads) + " loads (at most 256)", false;
    const int64_t dst0 = m[3].matched ? std::stoll(m[3].str()) : 0;
    std::vector<std::string> out;
    for (size_t k = 0; k < loads; ++k) {
        size_t r = k;
        std::string c;
        for (size_t d = 0; d < tile.size(); ++d) {
            const int64_t i = int64_t(r % size_t(n[d]));
            r /= size_t(n[d]);
            c += (d ? ", " : "") + std::to_string(coord[d] + i * box[d]);
        }
        const int64_t off = dst0 + int64_t(k) * boxBytes;
        out.push_back(m[1].str() + " [" + m[2].str() + (off ? "+" + std::to_string(off) : "") + "], [" + map +
                      ", {" + c + "}]" + m[6].str());
    }
    const size_t end = mapLine->find_first_of(" \t#", boxAt + 5);
    mapLine->replace(boxAt + 5, (end == std::string::npos ? mapLine->size() : end) - boxAt - 5,
                     listText(box));
    lines.erase(lines.begin() + std::ptrdiff_t(loadLine)); // after the last use of mapLine
    lines.insert(lines.begin() + std::ptrdiff_t(loadLine), out.begin(), out.end());
    return true;
}

} // namespace layoutscope::cli
