#include "scene/source_origin.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace layoutscope::views {

int32_t instrOfStep(const Trace& t, uint32_t step) {
    const auto& ins = t.instrs;
    if (ins.empty()) return -1;
    // The first instruction with endStep >= step; it led to `step` when it starts before it.
    auto it = std::lower_bound(ins.begin(), ins.end(), step,
                               [](const TraceInstr& in, uint32_t s) { return in.endStep < s; });
    if (it != ins.end() && it->firstStep < step) return int32_t(it - ins.begin());
    // Else the last instruction that starts at or before the step (one that moved nothing, or step 0).
    auto le = std::upper_bound(ins.begin(), ins.end(), step,
                               [](uint32_t s, const TraceInstr& in) { return s < in.firstStep; });
    return le == ins.begin() ? 0 : int32_t(le - ins.begin()) - 1;
}

std::string originText(const SourceOrigin& o) {
    if (!o.known()) return "no line info";
    std::string s = "PTX line " + std::to_string(o.ptxLine);
    if (!o.cudaFile.empty() && o.cudaLine > 0) {
        const size_t slash = o.cudaFile.find_last_of('/');
        s += ", " + (slash == std::string::npos ? o.cudaFile : o.cudaFile.substr(slash + 1)) + ":" +
             std::to_string(o.cudaLine);
    } else {
        s += " (no CUDA line info)";
    }
    if (o.warp >= 0)
        s += ", warp " + std::to_string(o.warp) + " of CTA " + (o.cta >= 0 ? std::to_string(o.cta) : "?");
    return s;
}

std::string resolveSourcePath(const std::string& written, const std::string& ptxPath) {
    if (written.empty()) return {};
    namespace fs = std::filesystem;
    auto readable = [](const fs::path& p) {
        std::error_code ec;
        return fs::is_regular_file(p, ec); // status only: never opens a FIFO or a device
    };
    const fs::path w(written);
    if (readable(w)) return w.string();
    if (w.is_relative() && !ptxPath.empty()) {
        const fs::path beside = fs::path(ptxPath).parent_path() / w;
        if (readable(beside)) return beside.string();
    }
    return {};
}

} // namespace layoutscope::views
