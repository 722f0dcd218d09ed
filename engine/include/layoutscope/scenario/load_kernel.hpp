#pragma once
/// loadScenario with a Cancel and a progress report for the kernel a `kernel` directive runs (issue 25
/// item 3: the GUI runs it off the UI thread with a progress dialog; exec::ExecOptions::cancel / progress).
#include "layoutscope/scenario/scenario.hpp"

#include <atomic>
#include <cstdint>
#include <functional>

namespace layoutscope {

struct LoadOptions {
    /// Polled while the kernel runs (and by nothing else): once true the load fails with the executor's
    /// "run cancelled" error. nullptr: never cancelled.
    const std::atomic<bool>* cancel = nullptr;
    /// Warp instructions issued so far, from the loading thread (exec::ExecOptions::progress).
    std::function<void(uint64_t)> progress;
};

/// loadScenario(text, scenarioPath) with `options` passed to the kernel's run.
[[nodiscard]] Result<Scenario> loadScenario(std::string_view text, const std::string& scenarioPath,
                                            const LoadOptions& options);

} // namespace layoutscope
