#pragma once
/// Internal to the PTX module reader (module_read.cpp, module_decl.cpp, module_check.cpp).
#include "layoutscope/ptx/module.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace layoutscope::ptxmod {

constexpr const char* kModuleRef = "PTX ISA 9.2 §11 (directives), §4 (syntax)";
constexpr const char* kDeclRef = "PTX ISA 9.2 §5.1 (state spaces), §5.4 (variables)";

/// One declared name of a declaration statement: `%r<48>` is {"%r", 48}, `tile[16384]` is {"tile", 0,
/// 16384 elements}, `x` is {"x", 0, 1}.
struct DeclName {
    std::string name;
    int count = 0;         ///< `<N>` register range, else 0
    uint64_t elements = 1; ///< product of the array extents; 0 for `[]`
    SourceSpan span;
};

/// A parsed declaration statement: `.shared .align 8 .u64 bar;`, `.reg .b32 %r<48>;`, a `.param`.
struct Decl {
    std::string space;      ///< ".reg", ".shared", ".global", ".const", ".local", ".param", ...
    std::string type;       ///< ".b32", ".pred", ... ("" if none)
    uint64_t typeBytes = 0; ///< element size including a .v2/.v4/.v8 vector; 0 if unknown (.pred too)
    int vector = 1;
    uint64_t align = 0;
    std::vector<DeclName> names;
};

/// Parse one declaration (its text without the ';'; comments already blanked). `line`/`column`
/// give the position of text[0] in the file. An error names the offending token.
[[nodiscard]] Result<Decl> parseDecl(std::string_view text, int line, int column);

/// The validator's view of a declared name, or nullopt when it has none (a .b8 or vector register,
/// a .tex / .surf reference).
[[nodiscard]] std::optional<PtxValueKind> valueKindOf(const Decl& d);

/// The data-movement family of an instruction the validator does not model, by its PTX ISA name
/// ("cp.reduce.async.bulk.tensor", "wgmma.mma_async", "ld.shared::cta", "mbarrier.arrive"), or ""
/// for an instruction that moves no data through shared/tensor memory (module_families.cpp).
[[nodiscard]] std::string dataMovementFamily(std::string_view opcode);

/// `text` with // and /* */ comments replaced by blanks (newlines kept, so positions do not move).
[[nodiscard]] std::string blankComments(std::string_view text);

} // namespace layoutscope::ptxmod
