// layoutscope-cli validate [--target sm_100a] [--ptx 9.0] 'INSTR' ['INSTR' ...]
// Prints "ok" or every diagnostic (file:line:col form) with a caret line under the offending token.
// Several instructions are validated together as one kernel (kernel-wide .cta_group rule).
#include "cli/commands.hpp"
#include "layoutscope/core/diagnostic_cap.hpp"
#include "layoutscope/ptx/validate.hpp"

#include <algorithm>

#include <optional>
#include <ostream>

namespace layoutscope::cli {

namespace {

void usage(std::ostream& err) {
    err << usageOf("validate");
} // usage.cpp

// The instruction with a caret under the span. A long line is quoted as a window of at most kWindow
// characters around the span (issue 25 item 4: 60,000 errors must not reprint a 120 KB line each).
void caret(std::ostream& out, const std::string& text, const SourceSpan& span) {
    if (!span.valid() || span.column < 1 || static_cast<size_t>(span.column) > text.size() + 1) return;
    constexpr size_t kWindow = 120;
    const size_t col = static_cast<size_t>(span.column - 1);
    size_t from = 0;
    if (text.size() > kWindow && col > kWindow / 2) from = std::min(col - kWindow / 2, text.size() - kWindow);
    const bool cutLeft = from > 0, cutRight = from + kWindow < text.size();
    const std::string shown = (cutLeft ? "..." : "") + text.substr(from, kWindow) + (cutRight ? "..." : "");
    const size_t at = col - from + (cutLeft ? 3 : 0);
    const size_t tilde = std::min<size_t>(static_cast<size_t>(std::max(span.length, 1) - 1), kWindow);
    out << "    " << shown << "\n    " << std::string(at, ' ') << '^' << std::string(tilde, '~') << "\n";
}

/// Where the ';' belongs when `text` (parsed as `in`) has none: just after its last token.
/// parseInstruction takes the ';' as optional; ptxas does not.
std::optional<SourceSpan> missingSemicolon(const std::string& text, const ParsedInstr& in) {
    const std::string body = text.substr(0, text.find("//")); // after ';' only a comment may follow
    if (body.find(';') != std::string::npos || in.opcode.empty()) return std::nullopt;
    const SourceSpan& s = in.operands.empty() ? in.opcode.back().span : in.operands.back().span;
    return SourceSpan{s.line, s.column + s.length, 1};
}

} // namespace

int cmdValidate(const Args& args, std::ostream& out, std::ostream& err) {
    PtxTarget target;
    target.sm = "sm_100a";
    target.ptxMajor = 9;
    target.ptxMinor = 0;
    std::vector<std::string> texts;
    for (size_t i = 1; i < args.size(); ++i) {
        if ((args[i] == "--target" || args[i] == "--ptx") && i + 1 < args.size()) {
            const std::string v = args[++i];
            if (args[i - 1] == "--target") {
                target.sm = v;
            } else {
                const size_t dot = v.find('.');
                try {
                    target.ptxMajor = std::stoi(v.substr(0, dot));
                    target.ptxMinor = dot == std::string::npos ? 0 : std::stoi(v.substr(dot + 1));
                } catch (...) {
                    err << "validate: --ptx wants MAJOR.MINOR, e.g. 8.8\n";
                    return 2;
                }
            }
        } else if (args[i] == "-h" || args[i] == "--help") {
            usage(out);
            return 0;
        } else {
            texts.push_back(args[i]);
        }
    }
    if (texts.empty()) {
        usage(err);
        return 2;
    }
    std::vector<ParsedInstr> instrs;
    std::vector<std::pair<Diagnostic, int>> diags; // diagnostic, line index into texts
    for (size_t i = 0; i < texts.size(); ++i) {
        auto p = parseInstruction(texts[i], static_cast<int>(i + 1), 1);
        if (!p) {
            for (const auto& d : p.diagnostics()) diags.emplace_back(d, static_cast<int>(i));
            continue;
        }
        if (const auto end = missingSemicolon(texts[i], *p)) {
            const char* msg =
                "expected ';' at the end of the instruction (every PTX instruction ends with ';')";
            const char* ref = "PTX ISA 9.2 §4 (statements end with ';')";
            diags.emplace_back(
                Diagnostic{Severity::Error, DiagCode::Syntax, *end, msg, ref, Provenance::PtxText},
                static_cast<int>(i));
            continue;
        }
        instrs.push_back(std::move(p.value()));
    }
    if (diags.empty()) {
        Status s = validateKernel(instrs, target);
        if (s) {
            out << "ok (" << target.sm << ", PTX " << target.ptxMajor << "." << target.ptxMinor << ")\n";
            return 0;
        }
        for (const auto& d : s.diagnostics()) diags.emplace_back(d, d.span.line - 1);
    }
    DiagnosticCap cap;                    // the first few of each rule, then "and N more like this"
    for (const auto& [d, line] : diags) { // diagnostics (with their caret lines) on stderr
        if (!cap.admit(d)) continue;
        err << formatDiagnostic(d, "<instr>") << "\n";
        if (line >= 0 && static_cast<size_t>(line) < texts.size())
            caret(err, texts[static_cast<size_t>(line)], d.span);
    }
    std::vector<Diagnostic> notes;
    cap.appendNotes(notes);
    for (const Diagnostic& d : notes) err << formatDiagnostic(d, "<instr>") << "\n";
    return kExitDiagnostics;
}

} // namespace layoutscope::cli
