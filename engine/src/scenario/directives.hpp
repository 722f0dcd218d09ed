#pragma once
// Internal: reading the tokens of one scenario directive (scenario_directives.cpp,
// scenario_tensormap.cpp).
#include "scenario/parse.hpp"

#include <optional>
#include <string>
#include <vector>

namespace layoutscope::scn {

/// name=value or name=[v, v, ...]
struct Option {
    const Tok* key = nullptr;
    const Tok* value = nullptr;   ///< single value, or nullptr for a list
    std::vector<const Tok*> list; ///< list values
    SourceSpan span;              ///< from the key to the end of the value
    bool isList = false;
};

struct DirectiveReader {
    Context& ctx;
    const std::vector<Tok>& toks;
    size_t i = 1; ///< toks[0] is the keyword

    const Tok* next() { return i < toks.size() ? &toks[i++] : nullptr; }
    /// Span just past the last token (where a missing token was expected).
    [[nodiscard]] SourceSpan endSpan() const {
        const SourceSpan& l = toks.back().span;
        return {l.line, l.column + l.length, 1};
    }
    /// An integer literal or a let name, in [lo, hi]; reports and returns nullopt otherwise.
    std::optional<int64_t> integer(const Tok& t, const char* what, int64_t lo, int64_t hi);
    /// A declared-name token ([A-Za-z_$][A-Za-z0-9_$]*).
    bool name(std::string& out, const char* what);
    /// The remaining tokens as options; reports the first syntax error and returns false.
    bool options(std::vector<Option>& out);
};

[[nodiscard]] std::optional<ScenarioFill> parseFill(Context& ctx, const Option& o);
void tensormap(DirectiveReader& r);

} // namespace layoutscope::scn
