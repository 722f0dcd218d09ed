#pragma once
/// Bounded diagnostics (issue 25 item 4): a malformed input can break one rule a million times (16 MiB of
/// `;`, a 120 KB instruction with 60,000 bad operands). A DiagnosticCap keeps the first few of each kind
/// (same severity, code and rule) and counts the rest, so memory and output stay proportional to the kinds
/// of error, not to the input; one Note per capped kind says "and N more like this".
#include "layoutscope/core/result.hpp"

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace layoutscope {

/// Diagnostics of one kind kept in full; the rest are counted.
inline constexpr size_t kDiagnosticsPerKind = 20;

class DiagnosticCap {
  public:
    explicit DiagnosticCap(size_t perKind = kDiagnosticsPerKind) : m_perKind(perKind) {}
    /// True when `d` is kept; otherwise it is counted against its kind.
    bool admit(const Diagnostic& d);
    /// Drops from ds[from, end) every diagnostic not admitted (order kept); O(removed + kept).
    void filter(std::vector<Diagnostic>& ds, size_t from = 0);
    /// One Note per kind that dropped some: "and N more like this (first K shown) [rule]", at the span of
    /// the last one dropped.
    void appendNotes(std::vector<Diagnostic>& out) const;
    [[nodiscard]] size_t dropped() const { return m_dropped; }

  private:
    struct Kind {
        size_t seen = 0;
        size_t dropped = 0;
        Diagnostic last; ///< the last dropped (its span and rule for the note)
    };
    size_t m_perKind;
    size_t m_dropped = 0;
    std::map<std::string, Kind> m_kinds;
};

/// `ds` with at most `perKind` of each kind, then the notes for what was dropped.
[[nodiscard]] std::vector<Diagnostic> capDiagnostics(std::vector<Diagnostic> ds,
                                                     size_t perKind = kDiagnosticsPerKind);

} // namespace layoutscope
