// DiagnosticCap (layoutscope/core/diagnostic_cap.hpp): the first few diagnostics of each kind, a count of
// the rest.
#include "layoutscope/core/diagnostic_cap.hpp"

namespace layoutscope {

namespace {
std::string kindKey(const Diagnostic& d) {
    return std::to_string(int(d.severity)) + ":" + std::to_string(int(d.code)) + ":" + d.ruleRef;
}
} // namespace

bool DiagnosticCap::admit(const Diagnostic& d) {
    Kind& k = m_kinds[kindKey(d)];
    if (++k.seen <= m_perKind) return true;
    ++k.dropped, ++m_dropped;
    k.last = Diagnostic{d.severity, d.code, d.span, {}, d.ruleRef, d.provenance};
    return false;
}

void DiagnosticCap::filter(std::vector<Diagnostic>& ds, size_t from) {
    size_t keep = from;
    for (size_t i = from; i < ds.size(); ++i)
        if (admit(ds[i])) {
            if (keep != i) ds[keep] = std::move(ds[i]);
            ++keep;
        }
    ds.resize(keep);
}

void DiagnosticCap::appendNotes(std::vector<Diagnostic>& out) const {
    for (const auto& [key, k] : m_kinds) {
        if (!k.dropped) continue;
        Diagnostic n = k.last;
        n.severity = Severity::Note;
        n.message = "and " + std::to_string(k.dropped) + " more like this (the first " +
                    std::to_string(m_perKind) + " " +
                    (k.last.severity == Severity::Error ? "errors" : "diagnostics") +
                    " of this rule are listed; this is the last one's place)";
        out.push_back(std::move(n));
    }
}

std::vector<Diagnostic> capDiagnostics(std::vector<Diagnostic> ds, size_t perKind) {
    DiagnosticCap cap(perKind);
    cap.filter(ds);
    cap.appendNotes(ds);
    return ds;
}

} // namespace layoutscope
