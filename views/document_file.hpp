#pragma once
/// The bytes of a scenario file <-> the text the editor shows, without losing what the editor does
/// not show (issue 15, item 2). Pure functions, standard C++ only, so they are tested by tables.
///
/// decodeFile(bytes) gives the editor's text (LF line breaks, no BOM, each byte that is not UTF-8
/// shown as U+FFFD) plus a FileFormat: the BOM, every line's original bytes and line ending, and the
/// offsets of the bytes that are not UTF-8. encodeFile(text, format) is its inverse: a line of the
/// text equal to an original line (matched in order, as a line diff does) is written with that line's
/// original bytes and ending; a new or edited line gets the file's usual ending (the most common one;
/// LF when the file had none); the BOM is kept. So an unedited text gives identical bytes.
///
/// A line that held bytes that are not UTF-8 and was edited cannot be written as it was: encodeFile
/// refuses (EncodeError names the original byte offset) unless `replaceInvalid` is set, in which
/// case the edited line is written as UTF-8, its bad bytes as U+FFFD (EF BF BD).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace layoutscope::views {

enum class LineEnding { None, Lf, Crlf, Mixed }; ///< None: no line break in the file

struct FileLine {
    std::string bytes;    ///< the line as on disk, without its ending (and without the BOM)
    std::string text;     ///< as the editor shows it (UTF-8; bad bytes as U+FFFD)
    std::string ending;   ///< "\n", "\r\n" or "" (the last line)
    size_t offset = 0;    ///< byte offset of the line in the file
    bool invalid = false; ///< holds bytes that are not UTF-8
};

struct FileFormat {
    bool bom = false; ///< starts with EF BB BF
    LineEnding ending = LineEnding::None;
    std::vector<FileLine> lines;  ///< the file split at '\n' (the last piece has no ending)
    std::vector<size_t> badBytes; ///< offset of each byte (first of a run) that is not UTF-8
    /// Ending a new line gets: the most common one (CRLF wins only when more lines use it); "\n" when none.
    [[nodiscard]] std::string_view newLineEnding() const;
};

struct DecodedFile {
    std::string text; ///< what the editor shows
    FileFormat format;
};

/// bytes -> text + format. Never fails (every byte sequence has a text).
[[nodiscard]] DecodedFile decodeFile(std::string_view bytes);

struct EncodeError {
    size_t byteOffset = 0; ///< offset in the original file of the first lost byte that is not UTF-8
    int line = 0;          ///< 1-based line of the original file that held it
    uint8_t byte = 0;      ///< its value
    std::string message;   ///< "line 3 held byte 0xE9 at offset 41 that is not UTF-8 ..."
};
struct EncodeResult {
    std::string bytes;
    std::optional<EncodeError> error; ///< set (bytes empty) when a bad byte would be lost
};

/// text + format -> bytes (see the header comment). `text` uses '\n' line breaks.
[[nodiscard]] EncodeResult encodeFile(std::string_view text, const FileFormat& format,
                                      bool replaceInvalid = false);

/// "LF", "CRLF", "mixed" or "none" (status bar, messages).
[[nodiscard]] const char* lineEndingName(LineEnding e);

/// Offsets of the bytes of `bytes` that start an ill-formed UTF-8 sequence (a run of them counts once
/// per byte). Overlong forms, surrogates and code points past U+10FFFF are ill-formed.
[[nodiscard]] std::vector<size_t> invalidUtf8Offsets(std::string_view bytes);

} // namespace layoutscope::views
