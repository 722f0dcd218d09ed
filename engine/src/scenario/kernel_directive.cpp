// The directives of kernel scenarios (issue 22 item 2; docs/exec.md "Kernel scenarios"):
//   kernel FILE.ptx --grid 1 --block 128 --arg 0=tensor:f16[64,64]:index ...   a launch, in exec's words
//   origin ptx=812 cu="02_mma_tma_sm100.cu":301 cta=0 warp=4 thread=128      the next instruction's origin
//   poke smem cta=0 addr=0x400 bytes=00ff10...                               bytes the kernel's threads
//   stored
// `kernel` is read here; loadScenario (exec/record_scenario.cpp) runs it. `origin` and `poke` are what the
// recorder writes (exec/record.cpp).
#include "scenario/parse.hpp"

#include <cctype>
#include <charconv>

namespace layoutscope::scn {
namespace {

constexpr const char* kKernelRef = "docs/exec.md (kernel scenarios)";

std::optional<int64_t> parseInt(std::string_view v) {
    int base = 10;
    if (v.size() > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) v.remove_prefix(2), base = 16;
    int64_t out = 0;
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), out, base);
    if (ec != std::errc() || p != v.data() + v.size() || v.empty()) return std::nullopt;
    return out;
}

int hexDigit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

} // namespace

std::optional<std::vector<std::string>> splitWords(std::string_view text, std::string& err) {
    std::vector<std::string> words;
    size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && (std::isspace(static_cast<unsigned char>(text[i])) ||
                                   (text[i] == '\\' && (i + 1 == text.size() || text[i + 1] == '\n' ||
                                                        text[i + 1] == '\r' || text[i + 1] == ' '))))
            ++i;
        if (i >= text.size()) break;
        std::string w;
        while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) {
            if (text[i] == '"') {
                const size_t close = text.find('"', i + 1);
                if (close == std::string_view::npos) {
                    err = "a quote opened here is never closed";
                    return std::nullopt;
                }
                w.append(text.substr(i + 1, close - i - 1));
                i = close + 1;
                continue;
            }
            w += text[i++];
        }
        words.push_back(std::move(w));
    }
    return words;
}

void kernelDirective(Context& ctx, std::string_view text, int line, int column) {
    const SourceSpan at{line, column, 6};
    std::string err;
    auto words = splitWords(text, err);
    if (!words) return ctx.error(DiagCode::Syntax, at, "kernel: " + err, kKernelRef, Provenance::ToolFormat);
    if (ctx.s.kernel)
        return ctx.error(DiagCode::InvalidValue, at,
                         "a scenario runs one kernel (the first `kernel` is at line " +
                             std::to_string(ctx.s.kernel->span.line) + ")",
                         kKernelRef, Provenance::ToolFormat);
    if (!ctx.s.instrs.empty())
        return ctx.error(DiagCode::InvalidValue, at,
                         "a kernel scenario holds no instructions of its own; the first is at line " +
                             std::to_string(ctx.s.instrs.front().span.line),
                         kKernelRef, Provenance::ToolFormat);
    if (words->size() < 2 || (*words)[1].rfind("--", 0) == 0)
        return ctx.error(DiagCode::Syntax, at,
                         "kernel takes the .ptx module first, then layoutscope-cli exec's options: kernel "
                         "FILE.ptx --grid X --block X [--entry NAME] [--arg KEY=VALUE ...]",
                         kKernelRef, Provenance::ToolFormat);
    ScenarioKernel k;
    k.path = (*words)[1];
    k.args.assign(words->begin() + 2, words->end());
    k.span = at;
    ctx.s.kernel = std::move(k);
}

void originDirective(Context& ctx, std::string_view text, int line, int column) {
    const SourceSpan at{line, column, 6};
    std::string err;
    auto words = splitWords(text, err);
    if (!words) return ctx.error(DiagCode::Syntax, at, "origin: " + err, kKernelRef, Provenance::ToolFormat);
    SourceOrigin o;
    for (size_t i = 1; i < words->size(); ++i) {
        const std::string& w = (*words)[i];
        const size_t eq = w.find('=');
        const std::string key = w.substr(0, eq), value = eq == std::string::npos ? "" : w.substr(eq + 1);
        std::optional<int64_t> v;
        if (key == "cu") { // FILE:LINE (the file may itself hold ':')
            const size_t colon = value.rfind(':');
            v = colon == std::string::npos ? std::nullopt : parseInt(value.substr(colon + 1));
            if (v) o.cudaFile = value.substr(0, colon), o.cudaLine = int(*v);
        } else if (key == "ptx" || key == "cta" || key == "warp" || key == "thread") {
            v = parseInt(value);
            if (v && (*v < 0 || *v > INT32_MAX)) v.reset();
            if (v)
                (key == "ptx"    ? o.ptxLine
                 : key == "cta"  ? o.cta
                 : key == "warp" ? o.warp
                                 : o.thread) = int(*v);
        }
        if (!v)
            return ctx.error(DiagCode::Syntax, at,
                             "origin takes ptx=LINE [cu=FILE:LINE] [cta=N] [warp=N] [thread=N], not '" + w +
                                 "'",
                             kKernelRef, Provenance::ToolFormat);
    }
    if (o.ptxLine <= 0)
        return ctx.error(DiagCode::Syntax, at, "origin needs ptx=LINE (1 or more)", kKernelRef,
                         Provenance::ToolFormat);
    ctx.pendingOrigin = std::move(o);
    ctx.s.recorded = true; // a recording: its order is the executor's interleaving (Scenario::recorded)
}

void pokeDirective(Context& ctx, const std::vector<Tok>& toks) {
    const SourceSpan at = toks[0].span;
    auto bad = [&](const std::string& why) {
        ctx.error(DiagCode::Syntax, at,
                  "poke smem|global|regs [cta=N] ADDR=HEX ...: " + why + " (written by the kernel recorder)",
                  kKernelRef, Provenance::ToolFormat);
    };
    if (toks.size() < 2 || (toks[1].text != "smem" && toks[1].text != "global" && toks[1].text != "regs"))
        return bad("smem, global or regs first");
    ScenarioPoke p;
    p.global = toks[1].text == "global";
    p.regs = toks[1].text == "regs";
    bool warpGiven = false;
    size_t total = 0;
    for (size_t i = 2; i < toks.size(); i += 3) {
        if (i + 2 >= toks.size() || toks[i + 1].text != "=") return bad("ranges are ADDR=HEX");
        const std::string& key = toks[i].text;
        const std::string& value = toks[i + 2].text;
        const bool field = key == "cta" || (p.regs && key == "warp");
        auto v = parseInt(field ? value : key);
        if (!v || *v < 0)
            return bad("'" + key + "=" + value.substr(0, 16) + "' is not a range ADDR=HEX or cta=N");
        if (key == "cta") {
            if (*v >= int64_t(ctx.s.clusterSize)) return bad("cta=" + value + " is outside the cluster");
            p.cta = uint32_t(*v);
            continue;
        }
        if (key == "warp") {
            if (*v >= 32) return bad("warp=" + value + " is not a warp of a CTA (0..31)");
            p.warp = uint32_t(*v), warpGiven = true;
            continue;
        }
        if (value.size() % 2 || value.empty()) return bad("a range's bytes are two hex digits each");
        ScenarioPoke::Range r;
        r.addr = uint64_t(*v);
        r.bytes.reserve(value.size() / 2);
        for (size_t k = 0; k < value.size(); k += 2) {
            const int hi = hexDigit(value[k]), lo = hexDigit(value[k + 1]);
            if (hi < 0 || lo < 0) return bad("a range's bytes are hex digits");
            r.bytes.push_back(uint8_t(hi << 4 | lo));
        }
        if (p.regs) { // R=HEX: registers r[R, R+k) of 32 threads, 4 bytes each
            if (!p.ranges.empty()) return bad("regs takes one range R=HEX");
            if (r.bytes.size() % 128) return bad("regs bytes are 32 threads x k registers x 4 bytes");
            if (r.addr + r.bytes.size() / 128 > kScenarioRegsPerThread)
                return bad("registers end past r" + std::to_string(kScenarioRegsPerThread - 1));
        } else if (!p.global && r.addr + r.bytes.size() > kSmemBytesPerCta)
            return bad("a range ends past shared memory");
        if (!p.ranges.empty() && r.addr < p.ranges.back().addr + p.ranges.back().bytes.size())
            return bad("ranges are ascending and disjoint");
        total += r.bytes.size();
        p.ranges.push_back(std::move(r));
    }
    if (p.ranges.empty()) return bad("at least one range ADDR=HEX");
    if (p.regs && !warpGiven) return bad("regs needs warp=W");
    ScenarioInstr in;
    if (p.regs) {
        const uint64_t r0 = p.ranges[0].addr, k = total / 128;
        in.text = "poke regs cta=" + std::to_string(p.cta) + " warp=" + std::to_string(p.warp) + ": r" +
                  std::to_string(r0) + "..r" + std::to_string(r0 + k - 1) + " of 32 threads";
    } else {
        in.text = std::string("poke ") + (p.global ? "global" : "smem cta=" + std::to_string(p.cta)) + ": " +
                  std::to_string(total) + " B in " + std::to_string(p.ranges.size()) + " range(s)";
    }
    in.span = at;
    in.kind = ScenarioInstrKind::Poke;
    in.cta = p.cta;
    in.warp = p.warp;
    in.poke = std::move(p);
    ctx.s.instrs.push_back(std::move(in));
}

} // namespace layoutscope::scn
