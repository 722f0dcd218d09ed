#pragma once
// Parsers of the one-line languages of a lesson (selectors, questions), used by the reader.
#include "lesson/detail.hpp"

namespace layoutscope {

/// A selector at the cursor; stops before any option it does not take (e.g. a question's `width=`).
[[nodiscard]] Result<LessonSelector> parseSelector(lesson_detail::Cursor& c);
/// The text after `question:`; `at` is the span of its first character.
[[nodiscard]] Result<LessonQuestion> parseQuestion(std::string_view text, SourceSpan at);

} // namespace layoutscope
