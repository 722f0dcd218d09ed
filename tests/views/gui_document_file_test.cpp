// Bytes of a scenario file <-> the editor's text (views/document_file.*): pure functions, checked
// against hand-written byte tables (no Qt; it lives in views_gui_tests because document_file.cpp is
// part of layoutscope_views).
#include "document_file.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace layoutscope::views;
using namespace std::string_literals;

namespace {
const std::string kFffd = "\xEF\xBF\xBD"; // U+FFFD in UTF-8

struct DecodeCase {
    const char* name;
    std::string bytes, text;
    bool bom;
    LineEnding ending;
    std::vector<size_t> bad;
};

std::string encodeOk(const std::string& text, const FileFormat& f) {
    const EncodeResult r = encodeFile(text, f);
    INFO((r.error ? r.error->message : std::string()));
    REQUIRE_FALSE(r.error);
    return r.bytes;
}
} // namespace

TEST_CASE("decodeFile gives the editor's text, the BOM, the line endings and the bad bytes",
          "[views][files][bytes]") {
    const DecodeCase c = GENERATE(
        DecodeCase{"LF", "a\nb\n", "a\nb\n", false, LineEnding::Lf, {}},
        DecodeCase{"CRLF", "a\r\nb\r\n", "a\nb\n", false, LineEnding::Crlf, {}},
        DecodeCase{"mixed", "a\r\nb\nc", "a\nb\nc", false, LineEnding::Mixed, {}},
        DecodeCase{"BOM + LF",
                   "\xEF\xBB\xBF"
                   "a\n",
                   "a\n",
                   true,
                   LineEnding::Lf,
                   {}},
        DecodeCase{"BOM only", "\xEF\xBB\xBF", "", true, LineEnding::None, {}},
        DecodeCase{"empty", "", "", false, LineEnding::None, {}},
        DecodeCase{"no trailing newline", "a\nb", "a\nb", false, LineEnding::Lf, {}},
        DecodeCase{"one line, no newline", "abc", "abc", false, LineEnding::None, {}},
        DecodeCase{"latin-1 e-acute", "caf\xE9\n", "caf" + kFffd + "\n", false, LineEnding::Lf, {3}},
        DecodeCase{"BOM then latin-1",
                   "\xEF\xBB\xBF"
                   "x\xE9\r\n",
                   "x" + kFffd + "\n",
                   true,
                   LineEnding::Crlf,
                   {4}},
        DecodeCase{"overlong /", "\xC0\xAF", kFffd + kFffd, false, LineEnding::None, {0, 1}},
        DecodeCase{
            "surrogate D800", "\xED\xA0\x80", kFffd + kFffd + kFffd, false, LineEnding::None, {0, 1, 2}},
        DecodeCase{"past U+10FFFF",
                   "\xF4\x90\x80\x80",
                   kFffd + kFffd + kFffd + kFffd,
                   false,
                   LineEnding::None,
                   {0, 1, 2, 3}},
        DecodeCase{
            "truncated euro sign", "ab\xE2\x82", "ab" + kFffd + kFffd, false, LineEnding::None, {2, 3}},
        DecodeCase{"valid multi-byte",
                   "\xE2\x82\xAC\xF0\x9F\x98\x80\n",
                   "\xE2\x82\xAC\xF0\x9F\x98\x80\n",
                   false,
                   LineEnding::Lf,
                   {}},
        DecodeCase{"lone CR stays in the line", "a\rb\n", "a\rb\n", false, LineEnding::Lf, {}});
    INFO(c.name);
    const DecodedFile d = decodeFile(c.bytes);
    CHECK(d.text == c.text);
    CHECK(d.format.bom == c.bom);
    CHECK(d.format.ending == c.ending);
    CHECK(d.format.badBytes == c.bad);
    SECTION("the unedited text encodes to identical bytes") {
        CHECK(encodeOk(d.text, d.format) == c.bytes);
    }
}

TEST_CASE("An edited text keeps the file's line endings, BOM and the bytes of untouched lines",
          "[views][files][bytes]") {
    struct EditCase {
        const char* name;
        std::string original, editedText, expected;
    };
    const EditCase c = GENERATE(
        EditCase{"CRLF: a changed and an added line get CRLF", "a\r\nb\r\n", "a\nB\nc\n", "a\r\nB\r\nc\r\n"},
        EditCase{"LF stays LF", "a\nb\n", "a\nx\nb\n", "a\nx\nb\n"},
        EditCase{"mixed, CRLF more common: a new line gets CRLF, old lines their own", "a\r\nb\nc\r\n",
                 "a\nx\nb\nc\n", "a\r\nx\r\nb\nc\r\n"},
        EditCase{"mixed, a tie: a new line gets LF", "a\r\nb\n", "a\nb\nz\n", "a\r\nb\nz\n"},
        EditCase{"BOM kept on an edited first line",
                 "\xEF\xBB\xBF"
                 "a\r\n",
                 "b\n",
                 "\xEF\xBB\xBF"
                 "b\r\n"},
        EditCase{"no trailing newline stays absent", "a\nb", "a\nc", "a\nc"},
        EditCase{"a trailing newline added", "a\nb", "a\nb\n", "a\nb\n"},
        EditCase{"a trailing newline removed (CRLF)", "a\r\nb\r\n", "a\nb", "a\r\nb"},
        EditCase{"latin-1 line untouched keeps its byte", "caf\xE9\nx\n", "caf" + kFffd + "\ny\n",
                 "caf\xE9\ny\n"},
        EditCase{"latin-1 line deleted by the user", "caf\xE9\nx\n", "x\n", "x\n"},
        EditCase{"a line moved past an edit keeps its CRLF among LF lines", "1\n2\r\n3\n4\n",
                 "1\nnew\n2\n3\n4\n", "1\nnew\n2\r\n3\n4\n"},
        EditCase{"lines deleted around kept ones", "a\r\nb\nc\r\nd\n", "b\nd\n", "b\nd\n"});
    INFO(c.name);
    const DecodedFile d = decodeFile(c.original);
    CHECK(encodeOk(c.editedText, d.format) == c.expected);
}

TEST_CASE("Saving an edited line that held bytes that are not UTF-8 is refused, naming the offset",
          "[views][files][bytes]") {
    SECTION("latin-1 e-acute at offset 3, line 1") {
        const DecodedFile d = decodeFile("caf\xE9\nx\n");
        const EncodeResult r = encodeFile("caf" + kFffd + "!\nx\n", d.format);
        REQUIRE(r.error);
        CHECK(r.error->byteOffset == 3);
        CHECK(r.error->line == 1);
        CHECK(r.error->byte == 0xE9);
        CHECK(r.error->message.find("offset 3") != std::string::npos);
        CHECK(r.error->message.find("0xE9") != std::string::npos);
        CHECK(r.bytes.empty());
        // Asked to, the edited line is written as UTF-8 with U+FFFD; the other line is kept.
        const EncodeResult forced = encodeFile("caf" + kFffd + "!\nx\n", d.format, true);
        CHECK_FALSE(forced.error);
        CHECK(forced.bytes == "caf" + kFffd + "!\nx\n");
    }
    SECTION("after a BOM and a CRLF line the offset counts every byte of the file") {
        // EF BB BF 'o' 'k' CR LF 'a' 0xFF -> 0xFF is byte 8, on line 2.
        const DecodedFile d = decodeFile("\xEF\xBB\xBFok\r\na\xFF\r\n");
        const EncodeResult r = encodeFile("ok\na" + kFffd + "b\n", d.format);
        REQUIRE(r.error);
        CHECK(r.error->byteOffset == 8);
        CHECK(r.error->line == 2);
        CHECK(r.error->byte == 0xFF);
    }
    SECTION("an edit elsewhere in the file is no loss") {
        const DecodedFile d = decodeFile("caf\xE9\nx\n");
        CHECK(encodeOk("caf" + kFffd + "\nx\ny\n", d.format) == "caf\xE9\nx\ny\n");
    }
}

TEST_CASE("invalidUtf8Offsets and lineEndingName", "[views][files][bytes]") {
    CHECK(invalidUtf8Offsets("ok") == std::vector<size_t>{});
    CHECK(invalidUtf8Offsets("a\x80"
                             "b\xFE") == std::vector<size_t>{1, 3});
    CHECK(std::string(lineEndingName(LineEnding::Crlf)) == "CRLF");
    CHECK(std::string(lineEndingName(LineEnding::Mixed)) == "mixed");
}
