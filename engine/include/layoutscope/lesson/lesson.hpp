#pragma once
/// Lessons: a scenario plus narration (issue 16; format and examples: docs/lessons.md).
///
/// [SECTION] index: places and cells · selectors · questions and answers · steps · lesson · API
///
/// A `.lesson` file is Markdown-like text: a `# Title`, header keys (`topic:`, `ref:`, `scenario:` with a
/// path or a fenced ```scn block), then steps, each opened by a `## Heading`, with keys (`at:`, `highlight:`,
/// `pause:`, `question:`, `answer:`, `ref:`) and a Markdown caption (every other line). Answers to questions
/// are computed from the scenario's trace by the engine; an answer the author writes is checked against it.
#include "layoutscope/core/move_table.hpp"
#include "layoutscope/core/result.hpp"
#include "layoutscope/scenario/scenario.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace layoutscope {

// [SECTION] places and cells ------------------------------------------------------------------------

/// One byte (or the bits of a sub-byte element in it) somewhere in the machine.
struct LessonPlace {
    MemSpace space = MemSpace::None; ///< Global, SharedCta, TensorMemory or Register
    uint32_t cta = 0;                ///< %cluster_ctarank (not used for Global)
    /// Global: virtual address. SharedCta: shared::cta byte address. TensorMemory: lane << 16 | column.
    /// Register: threadInCta << 16 | (register * 4 + byte) (tcgen05/exec.hpp conventions).
    uint64_t addr = 0;
    uint32_t byte = 0; ///< TensorMemory: byte 0..3 of the 32-bit cell (little-endian)
    uint32_t bit = 0;  ///< first bit of the element inside that byte (sub-byte elements)
    uint32_t bits = 8; ///< bits of the element inside that byte (8 = the whole byte)
    friend bool operator==(const LessonPlace&, const LessonPlace&) = default;
};
/// "smem 0x0580", "cta 1 smem 0x0580", "tmem lane 3 col 5 byte 2", "global 0x7f0000000010", "reg t5.r1.b0".
[[nodiscard]] std::string placeText(const LessonPlace& p);

/// Cells a highlight covers. Global / SharedCta: bytes [addr, addr + bytes). TensorMemory: 32-bit cells of
/// lanes [lane, lane + lanes) x columns [column, column + columns). Register: bytes of one thread's registers
/// (addr as in LessonPlace, `bytes` long).
struct LessonCells {
    MemSpace space = MemSpace::None;
    uint32_t cta = 0;
    uint64_t addr = 0;
    uint64_t bytes = 0;
    uint32_t lane = 0, lanes = 0;
    uint32_t column = 0, columns = 0;
    friend bool operator==(const LessonCells&, const LessonCells&) = default;
};

// [SECTION] selectors -------------------------------------------------------------------------------

/// What a `highlight:` names, and what a `where` / `wavefronts read` question starts from.
///   global A (3,5)            element row 3, column 5 of tensor map A: indices outermost first, as C's
///   A[3][5] global A {5,3}            the same element in PTX coordinate order (dimension 0 first) global A
///   (0..31, 5)       inclusive ranges per index landed A (3,5)            every shared / Tensor Memory byte
///   that element was copied to by then smem 0x400..0x43f [cta=N] shared::cta bytes, inclusive; `smem sA`,
///   `smem sA+64..sA+127` name a buffer tmem lane 0..31 col 0..7 [cta=N]   Tensor Memory cells, inclusive reg
///   t=5 r=1 [warp=W] [cta=N]       register r of thread t of warp W (bytes 0..3)
struct LessonSelector {
    enum class Kind : uint8_t { Global, Landed, Smem, Tmem, Reg };
    Kind kind = Kind::Global;
    std::string tensor;                ///< Global / Landed: tensor map name
    uint32_t rank = 0;                 ///< Global / Landed: indices given
    std::array<int64_t, 5> lo{}, hi{}; ///< Global / Landed: per dimension, dim 0 first
    std::string firstBuf, lastBuf; ///< Smem: the buffer each end is relative to ("" = an absolute address)
    int64_t first = 0, last = 0;   ///< Smem: inclusive byte range (offsets from firstBuf / lastBuf)
    bool wholeBuffer = false;      ///< Smem: `smem sA`, every byte of the buffer
    uint32_t laneLo = 0, laneHi = 0, colLo = 0, colHi = 0; ///< Tmem: inclusive
    uint32_t thread = 0, reg = 0, warp = 0;                ///< Reg
    std::optional<uint32_t> cta;
    std::string text; ///< as written
    SourceSpan span;
};

// [SECTION] questions and answers -------------------------------------------------------------------

/// A question of a step. The engine computes every answer but `fact`'s.
///   where SEL [in smem|tmem]   where a global element / register lands (the last copy, or the last in that
///   space) wavefronts instr N         bank wavefronts of the scenario's N-th instruction
///   (ld.shared/st.shared/ldmatrix) wavefronts read SEL [width=B]  a warp whose thread t reads the t-th
///   element of SEL where it landed in smem bytes instr N              bytes moved by the N-th instruction
///   (1-based, as `run` numbers them) metric NAME                a row of scenarioMetrics
///   (analysis/metrics.hpp), e.g. `metric OOB-filled bytes` value smem ADDR [bytes=1|2|4|8] [cta=N]
///   little-endian value at the step value tmem lane L col C [cta=N]          32-bit cell at the step lanes
///   warp W               the TMEM lanes tcgen05.ld/st of warp W may touch ("32..63") fact TEXT a number from
///   the reference pack: needs `answer:` and `ref:`; not computed
struct LessonQuestion {
    enum class Kind : uint8_t { Where, Wavefronts, Bytes, Metric, Value, Lanes, Fact };
    Kind kind = Kind::Where;
    std::string text;                       ///< after `question:`
    std::optional<LessonSelector> selector; ///< Where / Wavefronts read / Value
    MemSpace in = MemSpace::None;           ///< Where `in smem|tmem`
    uint32_t instr = 0;                     ///< Wavefronts / Bytes: 1-based instruction number
    uint32_t width = 0;                     ///< Wavefronts read: bytes per thread (0: the element size)
    uint32_t valueBytes = 4;                ///< Value smem
    uint32_t warp = 0;                      ///< Lanes
    std::string metric;                     ///< Metric
    std::optional<std::string> answer;      ///< the author's `answer:` (checked against the engine)
    SourceSpan span, answerSpan;
};

/// An answer, computed or typed. Places (Where) match when the learner names any byte of the element in any
/// of the listed places; numbers exactly; ranges by their ends; text case-insensitively.
struct LessonAnswer {
    enum class Kind : uint8_t { Number, Places, Range, Text };
    Kind kind = Kind::Number;
    int64_t number = 0;              ///< Number; Range: first
    int64_t last = 0;                ///< Range: last (inclusive)
    std::vector<LessonPlace> places; ///< Places: the first byte of the element in each place it landed
    uint32_t elementBytes = 1;       ///< Places: bytes of the element (a click on any of them is right)
    std::string text;                ///< Text
    std::string explanation;         ///< how the engine got it, with each rule's reference and provenance
    bool unverified = false;         ///< a rule on the way is not verified (provenance Assumption)
    [[nodiscard]] std::string display() const; ///< "smem 0x0580", "4", "32..63", the text
};

struct LessonVerdict {
    bool correct = false;
    LessonAnswer expected;
    std::string explanation; ///< "right: ..." / "not quite: ..." plus the expected answer's explanation
};

// [SECTION] steps -----------------------------------------------------------------------------------

/// Where in the trace a step stands (`at:`): after instruction N, at the instruction on scenario line N, at
/// trace step N, the start or the end. Default: where the previous step stood (the start for the first).
struct LessonAt {
    enum class Kind : uint8_t { Inherit, Start, End, Instr, Line, Step };
    Kind kind = Kind::Inherit;
    uint32_t n = 0;
    SourceSpan span;
};

struct LessonStep {
    std::string title;   ///< the `## Heading`
    std::string caption; ///< Markdown: every line of the step that is not a key, trimmed of blank edges
    LessonAt at;
    std::vector<LessonSelector> highlights;
    bool pause = false; ///< `pause: yes`; a step with a question always pauses
    std::optional<LessonQuestion> question;
    std::vector<std::string> refs; ///< `ref:` lines of the step (reference-pack sections)
    SourceSpan span;
};

// [SECTION] lesson ----------------------------------------------------------------------------------

struct Lesson {
    std::string title; ///< `# Title`
    std::string topic;
    std::vector<std::string> refs; ///< header `ref:` lines: reference-pack provenance of the whole lesson
    std::string intro;             ///< Markdown text of the header (lines that are not keys)
    std::string
        scenarioPath; ///< `scenario: PATH` as written (relative to the lesson file); empty if embedded
    std::string scenarioText;         ///< embedded text, or the file's text after loadLesson
    int scenarioLine = 0;             ///< 1-based lesson line where an embedded scenario starts (its line 1)
    std::optional<Scenario> scenario; ///< parsed by parseLesson (embedded) or loadLesson (path)
    std::vector<LessonStep> steps;
};

/// Largest lesson accepted (1 MiB; lessons are hand-written).
inline constexpr uint64_t kMaxLessonBytes = uint64_t(1) << 20;

// [SECTION] API -------------------------------------------------------------------------------------

/// Parse a lesson. An embedded scenario is parsed too (its diagnostics are moved to lesson lines); a
/// `scenario: PATH` is left for loadLesson. Every diagnostic has line:col and names its rule
/// (`lesson.<rule>`, docs/lessons.md "Rules").
[[nodiscard]] Result<Lesson> parseLesson(std::string_view text);
/// Read and parse a lesson file and load its scenario (a path relative to the lesson's folder).
[[nodiscard]] Result<Lesson> loadLesson(const std::string& path);

/// The trace step a lesson step stands at (Replay::seek's argument: the state after all steps before it).
[[nodiscard]] Result<uint32_t> lessonTraceStep(const Lesson& l, const Run& run, size_t stepIndex);
/// The scenario instruction (0-based) a lesson step is about, if it names one (`at: instr` / `at: line`).
[[nodiscard]] std::optional<uint32_t> lessonInstr(const Lesson& l, const Run& run, size_t stepIndex);
/// The cells a selector covers at trace step `traceStep` (Global: the tensor's bytes, in-bounds only).
[[nodiscard]] Result<std::vector<LessonCells>> resolveSelector(const Lesson& l, const Run& run,
                                                               const LessonSelector& s, uint32_t traceStep);
/// Every highlight of step `stepIndex` resolved at that step's position, in order (the first error stops it).
[[nodiscard]] Result<std::vector<LessonCells>> resolveStepHighlights(const Lesson& l, const Run& run,
                                                                     size_t stepIndex);
/// The engine's answer to step `stepIndex`'s question (error: no question, or not computable).
[[nodiscard]] Result<LessonAnswer> expectedAnswer(const Lesson& l, const Run& run, size_t stepIndex);
/// Check a typed answer ("smem 0x580", "0x580", "tmem lane 3 col 5", "4", "32..63").
[[nodiscard]] Result<LessonVerdict> checkAnswer(const Lesson& l, const Run& run, size_t stepIndex,
                                                std::string_view answer);
/// Check a clicked cell (the GUI): right when it holds part of the element.
[[nodiscard]] Result<LessonVerdict> checkAnswer(const Lesson& l, const Run& run, size_t stepIndex,
                                                const LessonPlace& clicked);
/// Parse an answer as typed (the same forms as `answer:`).
[[nodiscard]] Result<LessonAnswer> parseLessonAnswer(std::string_view text);
/// Parse one selector (the `highlight:` grammar); names are checked when it is resolved. `at`: the span of
/// its first character (diagnostics point into it).
[[nodiscard]] Result<LessonSelector> parseLessonSelector(std::string_view text, SourceSpan at = {});
/// Check names and ranges of every selector and question against the lesson's scenario (loadLesson and
/// parseLesson with an embedded scenario call it): unknown tensor / buffer, wrong rank, no such instruction.
[[nodiscard]] Status checkLessonNames(const Lesson& l);
/// The learner-facing question, e.g. "Where does A (3,5) land in shared memory?".
[[nodiscard]] std::string questionPrompt(const LessonQuestion& q);

} // namespace layoutscope
