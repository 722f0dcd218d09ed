#include "scene/kernel_launch.hpp"

#include <cctype>

namespace layoutscope::views {

namespace {

Diagnostic launchError(std::string msg) {
    return Diagnostic{Severity::Error, DiagCode::Syntax,        {},
                      std::move(msg),  "docs/exec.md (Launch)", Provenance::Assumption};
}

std::string trim(const std::string& s) {
    size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
    return s.substr(b, e - b);
}

/// 1 to 3 comma-separated decimal integers, each >= `min`.
bool isDims(const std::string& s, unsigned long long min) {
    size_t n = 0, i = 0;
    while (i <= s.size()) {
        const size_t j = std::min(s.find(',', i), s.size());
        const std::string part = s.substr(i, j - i);
        if (part.empty() || part.size() > 10) return false;
        for (char c : part)
            if (!std::isdigit(static_cast<unsigned char>(c))) return false;
        if (std::stoull(part) < min) return false;
        ++n;
        i = j + 1;
    }
    return n >= 1 && n <= 3;
}

bool isCount(const std::string& s) {
    if (s.empty() || s.size() > 12) return false;
    for (char c : s)
        if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    return true;
}

} // namespace

std::vector<std::string> defaultArgLines(const PtxFunction& f) {
    std::vector<std::string> lines;
    for (const PtxParam& p : f.params) {
        std::string type = p.type.empty() ? "(no type)" : p.type;
        const uint64_t elem = type == ".b8" || type == ".u8" || type == ".s8" ? 1 : 0;
        if (elem && p.bytes > 1) type += "[" + std::to_string(p.bytes) + "]"; // a by-value struct
        if (p.align) type += " align " + std::to_string(p.align);
        lines.push_back("--arg " + p.name + "=    # " + type);
    }
    return lines;
}

std::string quoteLaunchWord(const std::string& word) {
    if (word.find_first_of(" \t#\\") == std::string::npos && !word.empty()) return word;
    return "\"" + word + "\"";
}

Result<std::vector<std::string>> launchLineWords(const std::string& raw) {
    // The comment: from a `#` outside double quotes.
    std::string line, comment;
    bool quoted = false;
    for (size_t i = 0; i < raw.size(); ++i) {
        if (raw[i] == '"') quoted = !quoted;
        if (raw[i] == '#' && !quoted) {
            comment = trim(raw.substr(i));
            break;
        }
        line += raw[i];
    }
    if (quoted) return launchError("a double quote is not closed");
    line = trim(line);
    if (line.empty()) return std::vector<std::string>{};
    if (line.rfind("--", 0) != 0)
        return launchError("`" + line +
                           "` is not an option: expected `--arg KEY=VALUE` or `--tensor NAME=SPEC`");
    const size_t sp = line.find_first_of(" \t");
    const std::string opt = line.substr(0, sp);
    std::string value = sp == std::string::npos ? std::string() : trim(line.substr(sp));
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
        value = value.substr(1, value.size() - 2);
    if (value.find('"') != std::string::npos)
        return launchError("`" + opt + "`: a value holds a double quote (quotes group the whole value only)");
    if (value.empty()) return launchError("`" + opt + "` has no value");
    if (const size_t eq = value.find('='); eq != std::string::npos && eq + 1 == value.size())
        return launchError("`" + opt + " " + value + "` has no value after `=`" +
                           (comment.empty() ? std::string() : " (" + comment + ")"));
    return std::vector<std::string>{opt, value};
}

Result<std::string> composeKernelScenario(const KernelLaunch& l) {
    if (l.ptxPath.empty()) return launchError("no PTX module named");
    if (!isDims(l.grid, 1)) return launchError("grid `" + l.grid + "` is not X[,Y[,Z]] (positive integers)");
    if (!isDims(l.block, 1))
        return launchError("block `" + l.block + "` is not X[,Y[,Z]] (positive integers)");
    if (!l.cluster.empty() && !isDims(l.cluster, 1))
        return launchError("cluster `" + l.cluster + "` is not X[,Y[,Z]] (positive integers)");
    if (!l.cta.empty() && !isDims(l.cta, 0))
        return launchError("CTA `" + l.cta + "` is not X[,Y[,Z]] (non-negative integers)");
    if (!l.dynamicSmem.empty() && !isCount(l.dynamicSmem))
        return launchError("dynamic shared memory `" + l.dynamicSmem + "` is not a number of bytes");
    std::vector<std::string> opts; // one option (name and value) per directive line
    if (!l.entry.empty()) opts.push_back("--entry " + quoteLaunchWord(l.entry));
    std::string shape = "--grid " + l.grid + " --block " + l.block;
    if (!l.cluster.empty()) shape += " --cluster " + l.cluster;
    if (!l.cta.empty()) shape += " --cta " + l.cta;
    opts.push_back(shape);
    if (!l.dynamicSmem.empty()) opts.push_back("--dynamic-smem " + l.dynamicSmem);
    for (size_t i = 0; i < l.argLines.size(); ++i) {
        auto words = launchLineWords(l.argLines[i]);
        if (!words) {
            Diagnostic d = words.diagnostics().front();
            d.message = "argument line " + std::to_string(i + 1) + ": " + d.message;
            return d;
        }
        if (words->empty()) continue;
        const std::string& opt = (*words)[0];
        std::string why; // the kernel directive takes exec's launch options, less what shows results
        if (opt == "--out" || opt == "--expect")
            why = "`" + opt + "` belongs to layoutscope-cli exec: a kernel scenario shows the run instead";
        else if (opt == "--entry" || opt == "--grid" || opt == "--block" || opt == "--cluster" ||
                 opt == "--cta" || opt == "--dynamic-smem")
            why = "`" + opt + "` has its own field above";
        else if (opt != "--arg" && opt != "--tensor" && opt != "--order")
            why = "unknown option `" + opt + "` (expected --arg, --tensor or --order)";
        if (!why.empty()) return launchError("argument line " + std::to_string(i + 1) + ": " + why);
        opts.push_back((*words)[0] + " " + quoteLaunchWord((*words)[1]));
    }
    const size_t slash = l.ptxPath.find_last_of('/');
    const std::string file = slash == std::string::npos ? l.ptxPath : l.ptxPath.substr(slash + 1);
    std::string label = l.entryLabel.empty() ? l.entry : l.entryLabel;
    if (label.size() > 100) label = label.substr(0, 97) + "..."; // CuTe's template names run to pages
    std::string text =
        "# A launch of kernel " + label + " of " + file +
        " (File > Open; docs/exec.md): the executor runs it and records every byte it moves.\n";
    text += "kernel " + quoteLaunchWord(l.ptxPath);
    for (const std::string& o : opts) text += " \\\n    " + o;
    return text + "\n";
}

} // namespace layoutscope::views
