#pragma once
/// The progress of the kernel that a Document being built runs (a `kernel` scenario, issue 25 item 3): the
/// GUI builds it on a worker thread and shows the warp instructions issued so far in a progress dialog.
/// Scoped to the building thread, so Document::fromText keeps its signature (and the editor's re-checks,
/// on their own threads, report nowhere).
#include <atomic>
#include <cstdint>

namespace layoutscope::views {

/// While alive, Document::fromText on this thread stores the kernel's warp instructions issued so far
/// in `sink` (exec::ExecOptions::progress).
class KernelProgressScope {
  public:
    explicit KernelProgressScope(std::atomic<uint64_t>* sink) : m_prev(s_sink) { s_sink = sink; }
    ~KernelProgressScope() { s_sink = m_prev; }
    KernelProgressScope(const KernelProgressScope&) = delete;
    KernelProgressScope& operator=(const KernelProgressScope&) = delete;
    [[nodiscard]] static std::atomic<uint64_t>* current() { return s_sink; }

  private:
    std::atomic<uint64_t>* m_prev;
    static inline thread_local std::atomic<uint64_t>* s_sink = nullptr;
};

} // namespace layoutscope::views
