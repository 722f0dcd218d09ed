// Reading the tokens of a directive: integers (or let names), declared names, name=value options.
#include "ptx/lex.hpp"
#include "scenario/directives.hpp"

#include <algorithm>

namespace layoutscope::scn {

std::optional<int64_t> DirectiveReader::integer(const Tok& t, const char* what, int64_t lo, int64_t hi) {
    const lex::IntLiteral v = lex::parseIntLiteral(t.text);
    if (v.status == lex::IntStatus::Malformed) {
        if (const NameInfo* n = ctx.lookup(t.text); n && n->kind == NameKind::Let) {
            if (n->value < lo || n->value > hi) {
                ctx.error(DiagCode::InvalidValue, t.span,
                          std::string(what) + " '" + t.text + "' = " + std::to_string(n->value) +
                              " is outside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
                return std::nullopt;
            }
            return n->value;
        }
        if (ctx.poisoned.count(t.text)) return std::nullopt; // its declaration was already reported
        ctx.error(DiagCode::Syntax, t.span,
                  "expected " + std::string(what) + " (an integer) at column " +
                      std::to_string(t.span.column) + ", found '" + quoted(t.text) + "'");
        return std::nullopt;
    }
    // Literals above INT64_MAX arrive as negative patterns; a leading '-' tells them apart.
    const bool negLiteral = !t.text.empty() && t.text[0] == '-';
    if (v.status == lex::IntStatus::OutOfRange || (!negLiteral && v.value < 0) || v.value < lo ||
        v.value > hi) {
        ctx.error(DiagCode::InvalidValue, t.span,
                  std::string(what) + " " + quoted(t.text) + " is outside [" + std::to_string(lo) + ", " +
                      std::to_string(hi) + "]");
        return std::nullopt;
    }
    return v.value;
}

bool DirectiveReader::name(std::string& out, const char* what) {
    const Tok* t = next();
    if (!t || t->kind != Tok::Word || !lex::isIdentStart(t->text[0]) ||
        !std::all_of(t->text.begin(), t->text.end(), lex::isIdentChar)) {
        ctx.error(DiagCode::Syntax, t ? t->span : endSpan(),
                  "expected " + std::string(what) + " (a name like sA or tmap_1) after '" + toks[0].text +
                      "'" + (t ? ", found '" + quoted(t->text) + "'" : std::string()));
        return false;
    }
    out = t->text;
    return true;
}

bool DirectiveReader::options(std::vector<Option>& out) {
    while (const Tok* key = next()) {
        if (key->kind != Tok::Word) {
            ctx.error(DiagCode::Syntax, key->span,
                      "expected an option name=value, found '" + key->text + "'");
            return false;
        }
        const Tok* eq = next();
        if (!eq || eq->text != "=") {
            ctx.error(DiagCode::Syntax, eq ? eq->span : endSpan(),
                      "expected '=' after option '" + quoted(key->text) + "'");
            return false;
        }
        Option o{key, nullptr, {}, key->span};
        const Tok* v = next();
        if (v && v->text == "[") {
            for (;;) {
                const Tok* e = next();
                if (e && e->text == "]" && o.list.empty()) break; // empty list, reported by its user
                if (!e || e->kind != Tok::Word) {
                    ctx.error(DiagCode::Syntax, e ? e->span : endSpan(),
                              "expected a value in the list of '" + key->text + "'" +
                                  (e ? ", found '" + quoted(e->text) + "'" : " before the end of the line"));
                    return false;
                }
                o.list.push_back(e);
                const Tok* sep = next();
                if (sep && sep->text == "]") break;
                if (!sep || sep->text != ",") {
                    ctx.error(
                        DiagCode::Syntax, sep ? sep->span : endSpan(),
                        "expected ',' or ']' in the list of '" + key->text + "'" +
                            (sep ? ", found '" + quoted(sep->text) + "'" : " before the end of the line"));
                    return false;
                }
            }
            o.isList = true;
            o.span.length = toks[i - 1].span.column + toks[i - 1].span.length - key->span.column;
        } else if (v && v->kind == Tok::Word) {
            o.value = v;
            o.span.length = v->span.column + v->span.length - key->span.column;
        } else {
            ctx.error(DiagCode::Syntax, v ? v->span : endSpan(),
                      "expected a value after '" + quoted(key->text) + "='");
            return false;
        }
        out.push_back(o);
    }
    return true;
}

std::optional<ScenarioFill> parseFill(Context& ctx, const Option& o) {
    const std::string v = o.value ? o.value->text : "";
    if (v == "index") return ScenarioFill::Index;
    if (v == "zero") return ScenarioFill::Zero;
    if (v == "bytes") return ScenarioFill::Bytes;
    if (v == "random") return ScenarioFill::Random;
    ctx.error(DiagCode::InvalidValue, o.value ? o.value->span : o.span,
              "unknown fill pattern '" + quoted(v) + "' (index, zero, bytes or random)");
    return std::nullopt;
}

} // namespace layoutscope::scn
