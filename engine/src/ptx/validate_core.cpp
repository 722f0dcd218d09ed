// The checker every per-instruction table runs through: qualifier matching (unknown, illegal,
// duplicate, conflicting, gated, missing), operand kinds looked up in a PtxEnvironment, and
// diagnostics with spans, valid-target lists and "did you mean" hints.
#include "ptx/rules.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iterator>

namespace layoutscope::ptx {

// [SECTION] Targets ----------------------------------------------------------------------------

// Lowest .version per target: measured with CUDA 13.0 ptxas and a trivial kernel (golden/ptxas
// README "Configurations"; sm_90a 8.0 re-checked: 7.8 is rejected; the plain targets measured the
// same way: sm_90 7.8, sm_100 8.6, sm_103 8.8, sm_110 9.0, sm_120 8.7; the family targets sm_103f 8.8
// and sm_110f 9.0, issue 21; the pre-Hopper targets likewise: sm_75 6.3, sm_80 7.0, sm_86 7.1, sm_87 7.4,
// sm_88 7.3, sm_89 7.8).
static const TargetInfo kTargets[] = {
    {"sm_75", kSm75, 63},     {"sm_80", kSm80, 70},     {"sm_86", kSm86, 71},     {"sm_87", kSm87, 74},
    {"sm_88", kSm88, 73},     {"sm_89", kSm89, 78},     {"sm_90", kSm90, 78},     {"sm_90a", kSm90a, 80},
    {"sm_100", kSm100, 86},   {"sm_100a", kSm100a, 86}, {"sm_100f", kSm100f, 88}, {"sm_103", kSm103, 88},
    {"sm_103a", kSm103a, 88}, {"sm_103f", kSm103f, 88}, {"sm_110", kSm110, 90},   {"sm_110a", kSm110a, 90},
    {"sm_110f", kSm110f, 90}, {"sm_120", kSm120, 87},   {"sm_120a", kSm120a, 87}, {"sm_120f", kSm120f, 88},
    {"sm_121", kSm121, 88},   {"sm_121a", kSm121a, 88}, {"sm_121f", kSm121f, 88},
};

const TargetInfo* findTarget(std::string_view sm) {
    for (const auto& t : kTargets)
        if (sm == t.name) return &t;
    return nullptr;
}

std::string targetList(TargetMask m) {
    std::string s;
    for (const auto& t : kTargets) {
        if (!(m & t.bit)) continue;
        if (!s.empty()) s += ", ";
        s += t.name;
    }
    return s.empty() ? "no modelled target" : s;
}

// [SECTION] Words ------------------------------------------------------------------------------

const char* valueKindWords(uint32_t k) {
    switch (k) {
    case kR16:
        return "a 16-bit register";
    case kR32:
        return "a 32-bit register";
    case kR64:
        return "a 64-bit register";
    case kPred:
        return "a predicate register";
    case kImm:
        return "an immediate";
    case kSharedSym:
        return "a .shared variable";
    case kParamSym:
        return "a .param variable";
    case kGlobalSym:
        return "a .global variable";
    case kSink:
        return "the sink `_`";
    case kOpenSym:
        return "a symbol";
    case kUndeclared:
        return "an undeclared name";
    case kVectorKind:
        return "a vector {…}";
    case kAddressKind:
        return "an address […]";
    case kPairKind:
        return "a pair `d|p`";
    case kR128:
        return "a 128-bit register";
    default:
        return "an operand";
    }
}

std::string acceptedWords(uint32_t mask) {
    std::vector<std::string> parts;
    for (uint32_t b = 1; b <= kR128; b <<= 1)
        if ((mask & b) && b != kOpenSym) parts.push_back(valueKindWords(b));
    std::string s;
    for (size_t i = 0; i < parts.size(); ++i) {
        if (i) s += i + 1 == parts.size() ? " or " : ", ";
        s += parts[i];
    }
    return s;
}

int editDistance(std::string_view a, std::string_view b) {
    const size_t n = a.size(), m = b.size();
    std::vector<std::vector<int>> d(n + 1, std::vector<int>(m + 1));
    for (size_t i = 0; i <= n; ++i) d[i][0] = static_cast<int>(i);
    for (size_t j = 0; j <= m; ++j) d[0][j] = static_cast<int>(j);
    for (size_t i = 1; i <= n; ++i)
        for (size_t j = 1; j <= m; ++j) {
            const int cost = a[i - 1] == b[j - 1] ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[n][m];
}

std::string closest(std::string_view word, const std::vector<std::string>& candidates) {
    std::string best;
    int bestD = 1 << 30;
    for (const auto& c : candidates) {
        const int dist = editDistance(word, c);
        if (dist < bestD) {
            bestD = dist;
            best = c;
        }
    }
    const int limit = std::max<int>(1, static_cast<int>(word.size()) / 3);
    return bestD > 0 && bestD <= limit ? best : "";
}

const char* article(std::string_view word) {
    if (word.empty()) return "a";
    const char c = word[0];
    // An acronym or a name like "L2" is read letter by letter: "an L2", "an SM", "a CTA".
    if (std::isupper(static_cast<unsigned char>(c)) &&
        (word.size() == 1 || std::isupper(static_cast<unsigned char>(word[1])) ||
         std::isdigit(static_cast<unsigned char>(word[1]))))
        return std::string_view("AEFHILMNORSX").find(c) != std::string_view::npos ? "an" : "a";
    const char l = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (l == 'u')
        return word.size() > 2 && (word.substr(1, 2) == "ni" || word.substr(1, 2) == "se") ? "a" : "an";
    return std::string_view("aeio").find(l) != std::string_view::npos ? "an" : "a";
}

namespace {

/// The qualifier with the same spelling except for its number (`.x256` -> `.x128`, `.cta_group::3`
/// -> `.cta_group::2`), numerically nearest; "" when no candidate has that form.
std::string sameFormNearest(std::string_view word, const std::vector<std::string>& candidates) {
    auto split = [](std::string_view w, std::string& stem, long& n) {
        size_t d = w.size();
        while (d > 0 && std::isdigit(static_cast<unsigned char>(w[d - 1]))) --d;
        if (d == w.size() || w.size() - d > 9) return false;
        stem = std::string(w.substr(0, d));
        n = std::stol(std::string(w.substr(d)));
        return true;
    };
    std::string stem, s;
    long n = 0, m = 0;
    if (!split(word, stem, n)) return "";
    std::string best;
    long bestD = 0;
    for (const auto& c : candidates)
        if (split(c, s, m) && s == stem && (best.empty() || std::labs(m - n) < bestD))
            best = c, bestD = std::labs(m - n);
    return best;
}

} // namespace

// [SECTION] Checker ----------------------------------------------------------------------------

Checker::Checker(const ParsedInstr& i, const PtxTarget& t, const PtxEnvironment& e, const InstrSpec& s)
    : in(i), target(t), env(e), spec(s) {
    if (const TargetInfo* ti = findTarget(t.sm)) bit = ti->bit;
    ptx = ptxValue(t);
}

SourceSpan Checker::opcodeSpan() const {
    if (in.opcode.empty()) return in.span;
    SourceSpan s = in.opcode.front().span;
    const auto& last = in.opcode[std::min(in.opcode.size(), spec.nameTokens.size()) - 1].span;
    if (last.line == s.line) s.length = last.column + last.length - s.column;
    return s;
}

void Checker::error(DiagCode code, SourceSpan span, std::string message, std::string ref, Provenance prov) {
    diags.push_back(Diagnostic{Severity::Error, code, span, std::move(message), std::move(ref), prov});
}

void Checker::warning(SourceSpan span, std::string message, std::string ref, Provenance prov) {
    diags.push_back(Diagnostic{Severity::Warning, DiagCode::TargetMismatch, span, std::move(message),
                               std::move(ref), prov});
}

/// "sm_90 and every later target (sm_90 ... sm_121f)" for a mask that holds every modelled target from a
/// pre-Hopper or Hopper one on (kTargets is in that order); else the list.
static std::string validTargetWords(TargetMask m) {
    TargetMask suffix = 0;
    for (size_t i = std::size(kTargets); i-- > 0;) {
        suffix |= kTargets[i].bit;
        if (m == suffix && kTargets[i].bit & (kPreHopper | kSm90))
            return std::string(kTargets[i].name) + " and every later target (" + kTargets[i].name + " ... " +
                   kTargets[std::size(kTargets) - 1].name + ")";
    }
    return targetList(m);
}

void Checker::targetError(SourceSpan span, const std::string& what, TargetMask valid, std::string ref,
                          Provenance prov) {
    std::string msg =
        what + " is not available on " + target.sm + "; it is valid on " + validTargetWords(valid);
    // A plain target (sm_100) where the arch-specific one (sm_100a / sm_100f) has the feature: say so.
    if (bit & kPlainTargets) {
        std::string fix;
        for (const char* suffix : {"a", "f"})
            if (const TargetInfo* t = findTarget(target.sm + suffix); t && (valid & t->bit))
                fix += (fix.empty() ? "`" : " or `") + target.sm + suffix + "`";
        if (!fix.empty()) msg += " (" + target.sm + " lacks the arch-specific features: write " + fix + ")";
    }
    error(DiagCode::TargetMismatch, span, std::move(msg), std::move(ref), prov);
}

bool Checker::matchQualifiers() {
    const size_t before = diags.size();
    const std::string instr = std::string("`") + spec.name + "`";
    if (!(spec.targets & bit)) {
        targetError(opcodeSpan(), instr, spec.targets, spec.ref, Provenance::Ptxas);
    } else if (ptx < spec.minPtx) {
        error(DiagCode::TargetMismatch, opcodeSpan(),
              instr + " needs PTX ISA " + ptxText(spec.minPtx) + " or later; this kernel declares .version " +
                  ptxText(ptx),
              spec.ref, Provenance::PtxText);
    }
    const bool instrOk = diags.size() == before;
    // ptxas 13.0 knows .b8x16/.b6x16_p32/.b4x16_p64 as "format conversion" qualifiers on every
    // instruction: where the instruction has no use for them (all but tcgen05.cp) they are accepted
    // and ignored, at most two of them (checked by hand with ptxas; README departure 8 for TMA).
    static const char* kFormats[] = {".b8x16", ".b6x16_p32", ".b4x16_p64"};
    int ignoredFormats = 0;
    std::vector<const QualGroup*> misspelt; ///< groups an unknown qualifier was probably meant for
    for (size_t i = spec.nameTokens.size(); i < in.opcode.size(); ++i) {
        const OpcodeToken& tok = in.opcode[i];
        const QualGroup* group = nullptr;
        const QualSpec* qs = nullptr;
        for (const auto& g : spec.groups)
            for (const auto& v : g.values)
                if (tok.text == v.text) group = &g, qs = &v;
        if (!group && std::any_of(std::begin(kFormats), std::end(kFormats),
                                  [&](const char* f) { return tok.text == f; })) {
            if (++ignoredFormats == 3)
                error(DiagCode::InvalidValue, tok.span,
                      "at most two format-conversion qualifiers (`.b8x16`, `.b6x16_p32`, `.b4x16_p64`) may "
                      "be written; " +
                          instr + " ignores them, so remove them",
                      "ptxas 13.0 (format-conversion qualifier count)", Provenance::Ptxas);
            continue;
        }
        if (!group) {
            auto ill = std::find_if(spec.illegal.begin(), spec.illegal.end(),
                                    [&](const IllegalQual& q) { return tok.text == q.text; });
            if (ill != spec.illegal.end()) {
                error(DiagCode::InvalidValue, tok.span,
                      "`" + tok.text + "` is not allowed on " + instr + ": " + ill->why, spec.ref,
                      Provenance::Ptxas);
                continue;
            }
            std::vector<std::string> cands;
            for (const auto& g : spec.groups)
                for (const auto& v : g.values) cands.emplace_back(v.text);
            std::string msg = "unknown qualifier `" + tok.text + "` on " + instr;
            // A number off (`.x3`, `.cta_group::3`): the numerically nearest of the same spelling
            // (`.x2`, `.cta_group::2`) before the first one a letter away (`.x1`).
            std::string near = sameFormNearest(tok.text, cands);
            if (near.empty()) near = closest(tok.text, cands);
            if (!near.empty()) {
                msg += "; did you mean `" + near + "`?";
                for (const auto& g : spec.groups)
                    for (const auto& v : g.values)
                        if (near == v.text) misspelt.push_back(&g);
            }
            error(DiagCode::InvalidValue, tok.span, std::move(msg), spec.ref, Provenance::Ptxas);
            continue;
        }
        auto prev =
            std::find_if(quals.begin(), quals.end(), [&](const Matched& m) { return m.group == group; });
        if (prev != quals.end() && group->repeatsIgnored && prev->tok->text == tok.text) continue;
        if (prev != quals.end() && !group->repeatable) {
            if (prev->tok->text == tok.text)
                error(DiagCode::InvalidValue, tok.span, "`" + tok.text + "` is written twice; remove one",
                      group->ref, Provenance::Ptxas);
            else
                error(DiagCode::InvalidValue, tok.span,
                      "`" + prev->tok->text + "` and `" + tok.text + "` both set the " + group->name +
                          " of " + instr + "; keep one",
                      group->ref, Provenance::Ptxas);
            continue;
        }
        quals.push_back(Matched{group, qs, &tok, i});
        if (instrOk && !(qs->targets & bit))
            targetError(tok.span, "`" + tok.text + "` on " + instr, qs->targets & spec.targets, group->ref,
                        Provenance::Ptxas);
        else if (instrOk && ptx < qs->minPtx)
            error(DiagCode::TargetMismatch, tok.span,
                  "`" + tok.text + "` on " + instr + " needs PTX ISA " + ptxText(qs->minPtx) +
                      " or later; this kernel declares .version " + ptxText(ptx),
                  group->ref, Provenance::Ptxas);
    }
    for (const auto& g : spec.groups) {
        // A misspelt value of the group was already reported with its "did you mean": say it once.
        if (!g.required || find(g.name) || std::find(misspelt.begin(), misspelt.end(), &g) != misspelt.end())
            continue;
        std::string choices;
        for (size_t k = 0; k < g.values.size(); ++k) {
            if (k) choices += k + 1 == g.values.size() ? " or " : ", ";
            choices += std::string("`") + g.values[k].text + "`";
        }
        error(DiagCode::InvalidValue, opcodeSpan(),
              instr + " needs " + article(g.name) + " " + g.name + " qualifier: add " + choices, g.ref,
              Provenance::Ptxas);
    }
    return diags.size() == before;
}

const Matched* Checker::find(std::string_view groupName) const {
    for (const auto& m : quals)
        if (groupName == m.group->name) return &m;
    return nullptr;
}

std::string Checker::value(std::string_view groupName) const {
    const Matched* m = find(groupName);
    return m ? m->tok->text : std::string();
}

bool Checker::has(std::string_view text) const {
    return std::any_of(quals.begin(), quals.end(), [&](const Matched& m) { return m.tok->text == text; });
}

SourceSpan Checker::spanOf(std::string_view groupName) const {
    const Matched* m = find(groupName);
    return m ? m->tok->span : opcodeSpan();
}

Status Checker::finish() {
    if (diags.empty()) return okStatus();
    std::stable_sort(diags.begin(), diags.end(),
                     [](const Diagnostic& a, const Diagnostic& b) { return a.severity < b.severity; });
    if (diags.front().severity != Severity::Error) return okStatus();
    return diags;
}

} // namespace layoutscope::ptx
