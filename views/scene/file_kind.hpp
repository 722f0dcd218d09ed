#pragma once
/// notRegularFile: whether a path names something the GUI must not read (issue 25 item 2). Plain C++.
#include "layoutscope/core/result.hpp"

#include <optional>
#include <string>

namespace layoutscope::views {

/// Why `path` must not be read (nullopt: a regular file, or one that does not exist, whose open then
/// says why): a FIFO, a device such as /dev/zero or /dev/stdin, a socket or a directory. Asked of the
/// file's status only, never by opening it, so a FIFO cannot block the GUI before its window appears.
[[nodiscard]] std::optional<Diagnostic> notRegularFile(const std::string& path);

} // namespace layoutscope::views
