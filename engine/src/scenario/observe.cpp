// The `observe` directive (issue 13 item 4; docs/observed.md): bytes dumped from a real kernel, compared
// with the engine's prediction by `layoutscope-cli diff` and marked in the GUI.
//   observe smem NAME file=PATH [cta=N]
//   observe global NAME file=PATH
//   observe tmem file=PATH [cta=N] [lanes=A:B] [cols=C:D]
#include "scenario/directives.hpp"

namespace layoutscope::scn {
namespace {

constexpr const char* kUsage =
    "expected 'observe smem NAME file=PATH [cta=N]', 'observe global NAME file=PATH' or "
    "'observe tmem file=PATH [cta=N] [lanes=A:B] [cols=C:D]'";

/// `A:B` with 0 <= A < B <= hi.
bool range(Context& ctx, const Tok& v, uint32_t hi, uint32_t& first, uint32_t& count) {
    const size_t colon = v.text.find(':');
    try {
        if (colon == std::string::npos) throw 0;
        const unsigned long a = std::stoul(v.text.substr(0, colon)), b = std::stoul(v.text.substr(colon + 1));
        if (a >= b || b > hi) throw 0;
        first = static_cast<uint32_t>(a);
        count = static_cast<uint32_t>(b - a);
        return true;
    } catch (...) {
        ctx.error(DiagCode::InvalidValue, v.span,
                  "'" + quoted(v.text) + "': expected FIRST:END with FIRST < END <= " + std::to_string(hi));
        return false;
    }
}

} // namespace

void observeDirective(Context& ctx, const std::vector<Tok>& toks) {
    Observation o;
    o.cta = ctx.issuingCta;
    size_t i = 2;
    if (toks.size() < 2 || (toks[1].text != "smem" && toks[1].text != "global" && toks[1].text != "tmem")) {
        ctx.error(DiagCode::Syntax, toks.size() > 1 ? toks[1].span : toks[0].span, kUsage);
        return;
    }
    o.span = toks[0].span;
    o.space = toks[1].text == "smem"     ? Observation::Space::Smem
              : toks[1].text == "global" ? Observation::Space::Global
                                         : Observation::Space::Tmem;
    if (o.space != Observation::Space::Tmem) {
        const NameInfo* ni = toks.size() > 2 ? ctx.lookup(toks[2].text) : nullptr;
        const NameKind want = o.space == Observation::Space::Smem ? NameKind::Buffer : NameKind::TensorMap;
        if (!ni || ni->kind != want) {
            ctx.error(DiagCode::UnknownName, toks.size() > 2 ? toks[2].span : toks[1].span,
                      std::string("observe ") + toks[1].text + ": expected the name of a " +
                          (want == NameKind::Buffer ? "shared-memory buffer" : "tensor map") +
                          " declared above");
            return;
        }
        o.name = toks[2].text;
        i = 3;
    }
    for (; i < toks.size(); i += 3) {
        if (i + 2 >= toks.size() || toks[i + 1].text != "=") {
            ctx.error(DiagCode::Syntax, toks[i].span, kUsage);
            return;
        }
        const std::string& k = toks[i].text;
        const Tok& v = toks[i + 2];
        if (k == "file") {
            o.path = v.text;
        } else if (k == "cta" && o.space != Observation::Space::Global) {
            try {
                o.cta = static_cast<uint32_t>(std::stoul(v.text));
            } catch (...) {
                o.cta = ~0u;
            }
            if (o.cta >= ctx.s.clusterSize) {
                ctx.error(DiagCode::InvalidValue, v.span,
                          "cta=" + quoted(v.text) + " is outside the cluster of " +
                              std::to_string(ctx.s.clusterSize));
                return;
            }
        } else if (k == "lanes" && o.space == Observation::Space::Tmem) {
            if (!range(ctx, v, 128, o.lane0, o.lanes)) return;
        } else if (k == "cols" && o.space == Observation::Space::Tmem) {
            if (!range(ctx, v, 512, o.col0, o.cols)) return;
        } else {
            ctx.error(DiagCode::InvalidValue, toks[i].span,
                      "unknown option '" + quoted(k) + "' for observe " + toks[1].text + "; " + kUsage);
            return;
        }
    }
    if (o.path.empty()) {
        ctx.error(DiagCode::Syntax, toks.back().span, "observe needs file=PATH (a .bin, .npy or hex dump)");
        return;
    }
    ctx.s.observations.push_back(std::move(o));
}

} // namespace layoutscope::scn
