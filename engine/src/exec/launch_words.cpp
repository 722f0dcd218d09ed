// parseLaunchWords (exec.hpp): layoutscope-cli exec's options, shared by the CLI and the `kernel` directive.
#include "layoutscope/exec/exec.hpp"

namespace layoutscope::exec {
namespace {

Diagnostic usage(const std::string& msg) {
    return Diagnostic{Severity::Error,         DiagCode::Syntax,      {}, msg,
                      "docs/exec.md (Launch)", Provenance::ToolFormat};
}

} // namespace

Result<LaunchSpec> parseLaunchWords(const std::vector<std::string>& words) {
    LaunchSpec spec;
    Launch& launch = spec.launch;
    bool haveGrid = false, haveBlock = false;
    for (size_t i = 0; i < words.size(); ++i) {
        const std::string& a = words[i];
        const bool takes = a == "--entry" || a == "--grid" || a == "--block" || a == "--cluster" ||
                           a == "--cta" || a == "--dynamic-smem" || a == "--arg" || a == "--out" ||
                           a == "--expect" || a == "--tensor" || a == "--order";
        if (takes && i + 1 >= words.size()) return usage("missing value for '" + a + "'");
        if (!takes && a.rfind("--", 0) == 0) return usage("unknown option '" + a + "'");
        if (!takes) {
            if (!spec.module.empty()) return usage("one PTX module at a time ('" + a + "' is a second)");
            spec.module = a;
            continue;
        }
        const std::string& v = words[++i];
        if (a == "--entry") {
            launch.entry = v;
        } else if (a == "--grid" || a == "--block" || a == "--cluster" || a == "--cta") {
            auto d = parseDim3(v, a == "--cta");
            if (!d) return usage(a + ": " + d.error().message);
            (a == "--grid"      ? launch.grid
             : a == "--block"   ? launch.block
             : a == "--cluster" ? launch.cluster
                                : launch.cta) = *d;
            haveGrid |= a == "--grid", haveBlock |= a == "--block";
        } else if (a == "--dynamic-smem") {
            if (v.empty() || v.size() > 9 || v.find_first_not_of("0123456789") != std::string::npos)
                return usage("--dynamic-smem takes a byte count");
            launch.dynamicSmem = uint32_t(std::stoul(v));
        } else if (a == "--arg") {
            auto arg = parseExecArg(v);
            if (!arg) return arg.diagnostics();
            launch.args.push_back(std::move(arg).value());
        } else if (a == "--order") {
            if (v != "on" && v != "off") return usage("--order takes on or off");
            spec.options.order = v == "on";
        } else if (a == "--tensor") {
            auto t = parseExecTensor(v);
            if (!t) return t.diagnostics();
            launch.tensors.push_back(std::move(t).value());
        } else {
            const size_t eq = v.find('=');
            if (eq == std::string::npos || eq == 0) return usage(a + " takes NAME=VALUE");
            (a == "--out" ? spec.outs : spec.expects).emplace_back(v.substr(0, eq), v.substr(eq + 1));
        }
    }
    if (spec.module.empty()) return usage("missing the PTX module");
    if (!haveGrid || !haveBlock) return usage("--grid and --block are required");
    return spec;
}

} // namespace layoutscope::exec
