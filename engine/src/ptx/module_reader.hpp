#pragma once
/// Internal to the PTX module reader: the reader's state, shared by module_read.cpp (statements,
/// directives, the module header) and module_body.cpp (functions, declarations, scopes, instructions
/// and register origins).
#include "ptx/lex.hpp"
#include "ptx/module_internal.hpp"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace layoutscope::ptxmod {

using lex::Cursor;

constexpr size_t kMaxDepth = 256;

[[nodiscard]] bool isLineDirective(std::string_view d);

struct Reader {
    Cursor c;
    PtxModule mod;
    std::optional<Diagnostic> error;
    PtxFunction* fn = nullptr;         // the function whose body is open
    std::vector<PtxDeclaration> decls; // visible names: module, params, open scopes
    std::vector<size_t> marks;         // decls.size() at each open '{'
    std::vector<SourceSpan> opens;     // where each open '{' is
    std::vector<int> scopeIds;         // the open blocks of the current function (PtxStatement::scopeId)
    size_t moduleDecls = 0;
    bool envDirty = true;
    bool sawTarget = false;
    std::map<std::string, PtxRegOrigin> origin; // register -> what the last mov/cvta put in it
    int locFile = 0, locLine = 0;               // the last `.loc` in the open function
    // Record a body statement (PtxFunction::body) when a function body is open.
    void record(PtxStatement::Kind k, std::string_view text, const Cursor& at);

    bool fail(SourceSpan at, std::string msg);
    static std::string where(SourceSpan s);
    // Blanks and comments. An unterminated /* is an error at its start.
    bool skipBlank();
    std::string word();
    // Up to the end of the line (a line directive), comments skipped.
    std::string_view restOfLine();
    // A statement from `start` to its ';' (consumed). Quotes and comments are skipped; a '}' before the
    // ';' or the end of the file means the ';' is missing. Returns the text without the ';'.
    std::optional<std::string_view> toSemicolon(const Cursor& start, const char* what);
    void declare(const ptxmod::Decl& d, std::vector<PtxVariable>* vars, bool moduleScope);
    bool declaration(const Cursor& start, std::vector<PtxVariable>* vars);
    bool versionDirective(const Cursor& start);
    bool targetDirective(const Cursor& start);
    // `( param, ... )` of an .entry/.func; each parameter is a declaration.
    bool paramList(PtxFunction* f);
    bool function(bool isEntry);
    bool openScope();
    void closeScope();
    bool directive();
    // `.section .debug_xxx { ... }` (nvcc -G): skipped with its braces.
    bool section(const Cursor& start);
    bool instruction(const Cursor& start);
    // Origins: `mov`/`cvta` of a symbol, an immediate or a register with a known origin; any other
    // instruction whose first operand is a register forgets that register's origin.
    void track(std::string_view head, std::string_view text, size_t opcodeEnd, int line);
    void addOrigins(PtxModuleInstr& mi, const std::vector<Operand>& ops);
    bool statement();
    bool module();
};

} // namespace layoutscope::ptxmod
