// Scenario directives: target, ptx, cluster, cta, let, smem, mbarrier, fill (tensormap is in
// scenario_tensormap.cpp). Grammar and defaults: docs/scenario-format.md.
#include "scenario/directives.hpp"
#include "ptx/lex.hpp"

#include <algorithm>
#include <bit>

namespace layoutscope::scn {

namespace {

void unknownOption(Context& ctx, const Option& o, const char* directive, const char* known) {
    ctx.error(DiagCode::InvalidValue, o.key->span,
              "unknown option '" + quoted(o.key->text) + "' for " + directive + " (options: " + known + ")");
}

bool expectEnd(DirectiveReader& r) {
    if (const Tok* t = r.next()) {
        r.ctx.error(DiagCode::Syntax, t->span,
                    "unexpected '" + quoted(t->text) + "' at column " + std::to_string(t->span.column) +
                        " after '" + r.toks[0].text + "'");
        return false;
    }
    return true;
}

// target sm_90a | .target sm_90a
void target(DirectiveReader& r) {
    Context& ctx = r.ctx;
    const Tok* t = r.next();
    if (!t || t->kind != Tok::Word) {
        ctx.error(DiagCode::Syntax, t ? t->span : r.endSpan(), "expected a target such as sm_90a or sm_100a");
        return;
    }
    // sm_<digits>[a|f]
    const std::string& s = t->text;
    size_t n = 3;
    while (n < s.size() && lex::isDigit(s[n])) ++n;
    const bool shape = s.rfind("sm_", 0) == 0 && n > 3 && n <= 6 &&
                       (n == s.size() || (n + 1 == s.size() && (s[n] == 'a' || s[n] == 'f')));
    if (!shape) {
        ctx.error(DiagCode::InvalidValue, t->span,
                  "expected a target such as sm_90a or sm_100a, found '" + quoted(s) + "'",
                  "PTX ISA 9.2 §11.3 (.target)", Provenance::PtxText);
        return;
    }
    const int sm = std::stoi(s.substr(3, n - 3));
    if (sm < 90) {
        ctx.error(DiagCode::TargetMismatch, t->span,
                  "cp.async.bulk.tensor needs sm_90 or later; " + s + " has no tensor memory accelerator",
                  "PTX ISA 9.2 §9.7.9.25.5.2 (target notes)", Provenance::PtxText);
        return;
    }
    ctx.s.target = s;
    ctx.arch = sm >= 120   ? TmaArch::Sm120
               : sm == 103 ? TmaArch::Sm103
               : sm >= 100 ? TmaArch::Sm100
                           : TmaArch::Sm90;
    expectEnd(r);
}

// ptx 8.7 | .version 8.7
void ptx(DirectiveReader& r) {
    Context& ctx = r.ctx;
    const Tok* t = r.next();
    const std::string s = t ? t->text : "";
    const size_t dot = s.find('.');
    const bool shape = dot != std::string::npos && dot > 0 && dot <= 2 && dot + 2 == s.size() &&
                       lex::isDigit(s[0]) && (dot == 1 || lex::isDigit(s[1])) && lex::isDigit(s[dot + 1]);
    if (!shape) {
        ctx.error(DiagCode::Syntax, t ? t->span : r.endSpan(),
                  "expected a PTX ISA version such as 8.7 or 9.0");
        return;
    }
    ctx.s.ptxMajor = std::stoi(s.substr(0, dot));
    ctx.s.ptxMinor = s[dot + 1] - '0';
    expectEnd(r);
}

// cluster 2 | cluster 2x1x1
void cluster(DirectiveReader& r) {
    Context& ctx = r.ctx;
    const Tok* t = r.next();
    if (!t || t->kind != Tok::Word) {
        ctx.error(DiagCode::Syntax, t ? t->span : r.endSpan(), "expected a cluster size such as 2 or 2x1x1");
        return;
    }
    uint64_t product = 1;
    size_t start = 0;
    int parts = 0;
    // A whole integer literal first: 0x10 is sixteen CTAs, not the shape 0 x 10.
    if (const lex::IntLiteral whole = lex::parseIntLiteral(t->text); whole.status == lex::IntStatus::Ok) {
        if (whole.value < 1) {
            ctx.error(DiagCode::InvalidValue, t->span,
                      "expected a cluster size N or AxBxC with positive integers, found '" + quoted(t->text) +
                          "'");
            return;
        }
        product = static_cast<uint64_t>(whole.value);
        start = std::string::npos;
    }
    while (start != std::string::npos) {
        const size_t x = t->text.find('x', start);
        const std::string part =
            t->text.substr(start, x == std::string::npos ? std::string::npos : x - start);
        const lex::IntLiteral v = lex::parseIntLiteral(part);
        if (v.status != lex::IntStatus::Ok || v.value < 1 || v.value > 1024 || ++parts > 3) {
            ctx.error(DiagCode::InvalidValue, t->span,
                      "expected a cluster size N or AxBxC with positive integers, found '" + quoted(t->text) +
                          "'");
            return;
        }
        product *= static_cast<uint64_t>(v.value);
        start = x == std::string::npos ? x : x + 1;
    }
    if (product > kMaxClusterCtas) {
        ctx.error(DiagCode::InvalidValue, t->span,
                  "a cluster has at most " + std::to_string(kMaxClusterCtas) +
                      " CTAs (non-portable size); '" + t->text + "' has " + std::to_string(product),
                  "CUDA C++ Programming Guide, Thread Block Clusters (8 portable, 16 non-portable)",
                  Provenance::PtxText);
        return;
    }
    ctx.s.clusterSize = static_cast<uint32_t>(product);
    expectEnd(r);
}

// cta N: the CTA that issues the following instructions.
void cta(DirectiveReader& r) {
    const Tok* t = r.next();
    if (!t) {
        r.ctx.error(DiagCode::Syntax, r.endSpan(), "expected a CTA rank after 'cta'");
        return;
    }
    if (auto v = r.integer(*t, "CTA rank", 0, r.ctx.s.clusterSize - 1))
        r.ctx.issuingCta = static_cast<uint32_t>(*v);
    expectEnd(r);
}

// let NAME = VALUE
void let(DirectiveReader& r) {
    std::string n;
    if (!r.name(n, "a name")) return;
    const SourceSpan nameSpan = r.toks[1].span;
    const Tok* eq = r.next();
    if (!eq || eq->text != "=") {
        r.ctx.error(DiagCode::Syntax, eq ? eq->span : r.endSpan(), "expected '=' after 'let " + n + "'");
        return;
    }
    const Tok* v = r.next();
    if (!v) {
        r.ctx.error(DiagCode::Syntax, r.endSpan(), "expected a value after 'let " + n + " ='");
        return;
    }
    // A let may hold a 64-bit descriptor (what `desc encode` prints, e.g. 0xc000404000010040 for
    // swizzle=32B): a hex literal in (INT64_MAX, UINT64_MAX] is kept as its bit pattern, as the `desc`
    // directive keeps an encoded descriptor. A decimal literal there is still refused: it reads as a count,
    // and a count above INT64_MAX is a mistake.
    std::optional<int64_t> value;
    const bool hex = v->text.size() > 2 && v->text[0] == '0' && (v->text[1] == 'x' || v->text[1] == 'X');
    if (const lex::IntLiteral lit = lex::parseIntLiteral(v->text);
        hex && lit.status == lex::IntStatus::Ok && lit.value < 0)
        value = lit.value;
    else
        value = r.integer(*v, "value", INT64_MIN, INT64_MAX);
    if (!value || !expectEnd(r)) return;
    r.ctx.declare(n, NameKind::Let, nameSpan, *value);
}

std::optional<uint32_t> ctaOption(DirectiveReader& r, const Option& o) {
    if (!o.value) {
        r.ctx.error(DiagCode::InvalidValue, o.span, "cta= takes one CTA rank");
        return std::nullopt;
    }
    auto v = r.integer(*o.value, "CTA rank", 0, r.ctx.s.clusterSize - 1);
    if (!v) return std::nullopt;
    return static_cast<uint32_t>(*v);
}

// Place `size` bytes at `align` in CTA `cta`'s shared memory; false (and a diagnostic) if it overflows.
bool place(Context& ctx, uint32_t cta, uint64_t size, uint64_t align, SourceSpan span, uint32_t& addr) {
    const uint64_t a = (uint64_t{ctx.smemCursor[cta]} + align - 1) / align * align;
    if (a + size > kSmemBytesPerCta) {
        ctx.error(
            DiagCode::InvalidValue, span,
            "shared memory of CTA " + std::to_string(cta) + " would end at byte " + std::to_string(a + size) +
                ", beyond the " + std::to_string(kSmemBytesPerCta / 1024) + " KiB (" +
                std::to_string(kSmemBytesPerCta) + " B) a CTA can use (the first " +
                std::to_string(ctx.s.smemBase) + " B are reserved)",
            "CUDA C++ Programming Guide, compute capability 9.0/10.0: 228 KB shared memory per SM, 1 KB "
            "reserved per block",
            Provenance::PtxText);
        return false;
    }
    addr = static_cast<uint32_t>(a);
    ctx.smemCursor[cta] = static_cast<uint32_t>(a + size);
    return true;
}

// smem NAME BYTES [align=N] [cta=N]
void smem(DirectiveReader& r) {
    Context& ctx = r.ctx;
    ScenarioBuffer b;
    if (!r.name(b.name, "a buffer name")) return;
    b.span = r.toks[1].span;
    const Tok* sz = r.next();
    if (!sz || sz->kind != Tok::Word) {
        ctx.error(DiagCode::Syntax, sz ? sz->span : r.endSpan(),
                  "expected the buffer size in bytes after 'smem " + b.name + "'");
        return;
    }
    auto size = r.integer(*sz, "buffer size in bytes", 1, kSmemBytesPerCta);
    if (!size) return;
    b.size = static_cast<uint32_t>(*size);
    b.align = 128;
    std::optional<uint32_t> at;
    std::vector<Option> opts;
    if (!r.options(opts)) return;
    for (const Option& o : opts) {
        if (o.key->text == "align" && o.value) {
            auto a = r.integer(*o.value, "alignment", 1, kSmemBytesPerCta);
            if (!a) return;
            if (!std::has_single_bit(static_cast<uint64_t>(*a))) {
                ctx.error(DiagCode::InvalidValue, o.value->span,
                          "alignment must be a power of two, not " + o.value->text);
                return;
            }
            b.align = static_cast<uint32_t>(*a);
        } else if (o.key->text == "cta") {
            auto c = ctaOption(r, o);
            if (!c) return;
            b.cta = *c;
        } else if (o.key->text == "at" && o.value) {
            auto a = r.integer(*o.value, "shared::cta address", 0, kSmemBytesPerCta - 1);
            if (!a) return;
            at = static_cast<uint32_t>(*a);
        } else {
            unknownOption(ctx, o, "smem", "align=N, cta=N, at=ADDR");
            return;
        }
    }
    if (at) { // a recorded kernel's own layout (docs/exec.md): the address it used, not the layout pass's
        if (uint64_t{*at} + b.size > kSmemBytesPerCta || *at % b.align != 0) {
            ctx.error(DiagCode::InvalidValue, r.toks[0].span,
                      "smem " + b.name + " at=" + std::to_string(*at) +
                          " must be a multiple of its alignment " + std::to_string(b.align) +
                          " and end within " + std::to_string(kSmemBytesPerCta) + " B");
            return;
        }
        b.addr = *at;
    } else if (!place(ctx, b.cta, b.size, b.align, r.toks[0].span, b.addr))
        return;
    if (ctx.declare(b.name, NameKind::Buffer, b.span)) ctx.s.buffers.push_back(b);
}

// mbarrier NAME [cta=N]: 8 bytes, 8-byte aligned (PTX ISA 9.2 §9.7.13.15.1).
void mbarrier(DirectiveReader& r) {
    Context& ctx = r.ctx;
    ScenarioBarrier b;
    if (!r.name(b.name, "a barrier name")) return;
    b.span = r.toks[1].span;
    std::optional<uint32_t> at;
    std::vector<Option> opts;
    if (!r.options(opts)) return;
    for (const Option& o : opts) {
        if (o.key->text == "cta") {
            auto c = ctaOption(r, o);
            if (!c) return;
            b.cta = *c;
        } else if (o.key->text == "at" && o.value) {
            auto a = r.integer(*o.value, "shared::cta address", 0, kSmemBytesPerCta - 8);
            if (!a) return;
            if (*a % 8 != 0) {
                ctx.error(DiagCode::InvalidValue, o.value->span,
                          "an mbarrier is 8-byte aligned (PTX ISA 9.2 §9.7.13.15.1), not at " +
                              o.value->text);
                return;
            }
            at = static_cast<uint32_t>(*a);
        } else {
            unknownOption(ctx, o, "mbarrier", "cta=N, at=ADDR");
            return;
        }
    }
    if (at)
        b.addr = *at;
    else if (!place(ctx, b.cta, 8, 8, r.toks[0].span, b.addr))
        return;
    if (ctx.declare(b.name, NameKind::Barrier, b.span)) ctx.s.barriers.push_back(b);
}

// fill NAME pattern=index|zero|bytes|random
void fill(DirectiveReader& r) {
    Context& ctx = r.ctx;
    std::string n;
    if (!r.name(n, "a tensor map name")) return;
    const Tok& nameTok = r.toks[1];
    std::vector<Option> opts;
    if (!r.options(opts)) return;
    ScenarioTensorMap* t = ctx.tensorMap(n);
    if (!t) {
        ctx.error(DiagCode::UnknownName, nameTok.span, "'" + n + "' is not a tensor map declared above");
        return;
    }
    if (opts.empty()) {
        ctx.error(DiagCode::Syntax, r.endSpan(),
                  "expected pattern=index|zero|bytes|random after 'fill " + n + "'");
        return;
    }
    for (const Option& o : opts) {
        if (o.key->text != "pattern") {
            unknownOption(ctx, o, "fill", "pattern=index|zero|bytes|random");
            return;
        }
        auto f = parseFill(ctx, o);
        if (!f) return;
        t->fill = *f;
    }
}

} // namespace

void applyDirectiveTo(Context& ctx, const std::vector<Tok>& toks);

void applyDirective(Context& ctx, const std::vector<Tok>& toks) {
    if (toks.empty()) return;
    const size_t before = ctx.diags.size();
    applyDirectiveTo(ctx, toks);
    // A failed declaration poisons its name, so its uses do not add a second diagnostic.
    const std::string& k = toks[0].text;
    if (ctx.diags.size() > before && toks.size() > 1 && !ctx.lookup(toks[1].text) &&
        (k == "tensormap" || k == "smem" || k == "mbarrier" || k == "let" || k == "desc"))
        ctx.poisoned.insert(toks[1].text);
}

void applyDirectiveTo(Context& ctx, const std::vector<Tok>& toks) {
    DirectiveReader r{ctx, toks, 1};
    const std::string& k = toks[0].text;
    if (k == "target" || k == ".target") {
        if (ctx.seen["target"].line) {
            ctx.error(DiagCode::InvalidValue, toks[0].span,
                      "target is given twice (first at line " + std::to_string(ctx.seen["target"].line) +
                          ")");
            return;
        }
        ctx.seen["target"] = toks[0].span;
        target(r);
    } else if (k == "ptx" || k == ".version") {
        if (ctx.seen["ptx"].line) {
            ctx.error(DiagCode::InvalidValue, toks[0].span,
                      "ptx is given twice (first at line " + std::to_string(ctx.seen["ptx"].line) + ")");
            return;
        }
        ctx.seen["ptx"] = toks[0].span;
        ptx(r);
    } else if (k == "cluster") {
        if (ctx.seen["cluster"].line) {
            ctx.error(DiagCode::InvalidValue, toks[0].span,
                      "cluster is given twice (first at line " + std::to_string(ctx.seen["cluster"].line) +
                          ")");
            return;
        }
        ctx.seen["cluster"] = toks[0].span;
        cluster(r);
    } else if (k == "cta") {
        cta(r);
    } else if (k == "let") {
        let(r);
    } else if (k == "warp") {
        warpDirective(ctx, toks); // scenario_tcgen05.cpp
    } else if (k == "regs") {
        regsDirective(ctx, toks);
    } else if (k == "desc") {
        descDirective(ctx, toks);
    } else if (k == "expect") {
        expectDirective(ctx, toks); // scenario_wgmma.cpp
    } else if (k == "observe") {
        observeDirective(ctx, toks); // scenario/observe.cpp
    } else if (k == "poke") {
        pokeDirective(ctx, toks); // scenario/kernel_directive.cpp
    } else if (k == "smem") {
        smem(r);
    } else if (k == "mbarrier") {
        mbarrier(r);
    } else if (k == "fill") {
        fill(r);
    } else if (k == "tensormap") {
        tensormap(r);
    }
}

} // namespace layoutscope::scn
