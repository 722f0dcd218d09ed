// Lessons (lesson.hpp, docs/lessons.md): the reader's diagnostics name their rule; the engine's answers
// agree with answers derived by hand from the reference pack (tma.md §4.1-4.2, tcgen05.md §2.1, §4.1), not
// from the code.
#include "layoutscope/lesson/lesson.hpp"

#include <catch2/catch.hpp>

using namespace layoutscope;

namespace {

// 64x64 fp16 SW128 tile at sA = 0x400 (1024-aligned), and a 64x32 tile without swizzle at sN = 0x2400.
const char* kTile = R"(# Tile
scenario:
```scn
target sm_90a
tensormap A tiled FLOAT16 dims=[4096,4096] strides=[8192] box=[64,64] swizzle=128B
tensormap N tiled FLOAT16 dims=[64,64] box=[64,32]
smem sA 8192 align=1024
smem sN 4096 align=1024
mbarrier bar
mbarrier.init.shared::cta.b64 [bar], 1;
mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 12288;
cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sA], [A, {0, 0}], [bar];
cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sN], [N, {0, 0}], [bar];
```

## Where
at: instr 4
question: where A (3,5)
Caption.

## Wavefronts none
question: wavefronts read N (0..31, 5)

## Wavefronts sw128
question: wavefronts read A (0..31, 5)

## Lanes
question: lanes warp 6

## Bytes
question: bytes instr 3

## Before the load
at: instr 2
highlight: landed A (3,5)
Nothing has landed yet.
)";

struct Fixture {
    Lesson lesson;
    Run run;
};

Fixture load(const char* text) {
    auto l = parseLesson(text);
    if (!l) FAIL(formatDiagnostic(l.error()));
    REQUIRE(l->scenario);
    auto r = runScenario(*l->scenario);
    REQUIRE(r.ok());
    return Fixture{std::move(*l), std::move(*r)};
}

// Swizzle<3,4,3> as tma.md §4.2 writes it, on the absolute shared address.
uint64_t sw128(uint64_t a) {
    return a ^ (((a >> 7) & 7u) << 4);
}

// The first diagnostic of a malformed lesson.
Diagnostic errorOf(const std::string& text) {
    auto l = parseLesson(text);
    REQUIRE_FALSE(l.ok());
    return l.error();
}

const std::string kHead = "# T\nscenario: x.scn\n";

} // namespace

TEST_CASE("lesson reader: header, steps, captions and keys", "[lesson][parse]") {
    auto l = parseLesson(
        kHead + "topic: tma\nref: tma.md §4.2\nIntro text.\n\n## One\nat: instr 3\nhighlight: "
                "smem sA+16..sA+31 cta=1\npause: yes\nLine one.\n```\nkey: not a key in a fence\n```\n"
                "## Two\nquestion: where A {5,3} in smem\nanswer: smem 0x5ba\n");
    REQUIRE(l.ok());
    CHECK(l->title == "T");
    CHECK(l->topic == "tma");
    CHECK(l->refs == std::vector<std::string>{"tma.md §4.2"});
    CHECK(l->intro == "Intro text.");
    CHECK(l->scenarioPath == "x.scn");
    CHECK_FALSE(l->scenario); // a path is resolved by loadLesson
    REQUIRE(l->steps.size() == 2);
    const LessonStep& one = l->steps[0];
    CHECK(one.at.kind == LessonAt::Kind::Instr);
    CHECK(one.at.n == 3);
    CHECK(one.pause);
    CHECK(one.caption == "Line one.\n```\nkey: not a key in a fence\n```");
    REQUIRE(one.highlights.size() == 1);
    CHECK(one.highlights[0].kind == LessonSelector::Kind::Smem);
    CHECK(one.highlights[0].firstBuf == "sA");
    CHECK(one.highlights[0].first == 16);
    CHECK(one.highlights[0].last == 31);
    CHECK(one.highlights[0].cta == 1u);
    const LessonStep& two = l->steps[1];
    REQUIRE(two.question);
    CHECK(two.pause); // a question always pauses
    CHECK(two.question->kind == LessonQuestion::Kind::Where);
    CHECK(two.question->in == MemSpace::SharedCta);
    // {5,3} is PTX order (dimension 0 first): column 5, row 3.
    CHECK(two.question->selector->lo[0] == 5);
    CHECK(two.question->selector->lo[1] == 3);
    CHECK(two.question->answer == std::string("smem 0x5ba"));
}

TEST_CASE("a lowercase word and a colon is a key only near a known key", "[lesson][parse]") {
    auto l = parseLesson(kHead + "colour: red is intro text\n## S\nignored: this is caption text\nat: end\n");
    REQUIRE(l.ok());
    CHECK(l->intro == "colour: red is intro text");
    CHECK(l->steps[0].caption == "ignored: this is caption text");
    const Diagnostic d = errorOf(kHead + "## S\nqestion: lanes warp 1\n");
    CHECK(d.ruleRef.rfind("lesson.key", 0) == 0);
    CHECK(d.message.find("did you mean 'question:'") != std::string::npos);
}

TEST_CASE("selectors: (row, col) is outermost first, {x, y} is dimension 0 first", "[lesson][parse]") {
    auto a = parseLessonSelector("global A (3, 5..7)");
    REQUIRE(a.ok());
    CHECK(a->rank == 2);
    CHECK(a->lo[0] == 5);
    CHECK(a->hi[0] == 7);
    CHECK(a->lo[1] == 3);
    auto b = parseLessonSelector("global A {5..7, 3}");
    REQUIRE(b.ok());
    CHECK(b->lo == a->lo);
    CHECK(b->hi == a->hi);
    auto t = parseLessonSelector("tmem lane 0..31 col 4 cta=1");
    REQUIRE(t.ok());
    CHECK(t->laneHi == 31);
    CHECK(t->colLo == 4);
    CHECK(t->colHi == 4);
    auto r = parseLessonSelector("reg t=5 r=1 warp=3");
    REQUIRE(r.ok());
    CHECK(r->thread == 5);
    CHECK(r->reg == 1);
    CHECK(r->warp == 3);
}

TEST_CASE("malformed lessons: each error names its rule and position", "[lesson][parse]") {
    struct Case {
        std::string text, rule;
        int line;
    };
    const auto c = GENERATE(values<Case>({
        {"scenario: x.scn\n## S\nText.\n", "lesson.title", 1},
        {"# T\n## S\nText.\n", "lesson.scenario", 1},
        {"# T\nscenario: x.scn\n", "lesson.steps", 3},
        {"# T\nscenario:\nnot a fence\n## S\nText.\n", "lesson.scenario", 2},
        {"# T\nscenario:\n```scn\ntarget sm_90a\n## S\n", "lesson.fence", 3},
        {"# T\ntopc: red\nscenario: x.scn\n## S\nText.\n", "lesson.key", 2},
        {kHead + "## S\nhightlight: smem 0\n", "lesson.key", 4},
        {kHead + "## S\nat: instr 0\nText.\n", "lesson.at", 4},
        {kHead + "## S\nat: soon\nText.\n", "lesson.at", 4},
        {kHead + "## S\nat: start\nat: end\nText.\n", "lesson.at", 5},
        {kHead + "## S\npause: maybe\nText.\n", "lesson.pause", 4},
        {kHead + "## S\nhighlight: global A 3,5\n", "lesson.selector", 4},
        {kHead + "## S\nhighlight: global A (5..3, 1)\n", "lesson.selector", 4},
        {kHead + "## S\nhighlight: tmem lane 0..200 col 0\n", "lesson.selector", 4},
        {kHead + "## S\nhighlight: vram 0x10\n", "lesson.selector", 4},
        {kHead + "## S\nquestion: how many bytes\n", "lesson.question", 4},
        {kHead + "## S\nquestion: bytes instr 0\n", "lesson.question", 4},
        {kHead + "## S\nquestion: wavefronts read smem 0\n", "lesson.question", 4},
        {kHead + "## S\nquestion: lanes warp 40\n", "lesson.question", 4},
        {kHead + "## S\nquestion: lanes warp 1\nquestion: lanes warp 2\n", "lesson.question", 5},
        {kHead + "## S\nanswer: 4\n", "lesson.answer", 4},
        {kHead + "## S\nquestion: lanes warp 1\nanswer: tmem lane 900 col 0\n", "lesson.answer", 5},
        {kHead + "## S\nquestion: fact TMEM columns\nanswer: 512\n", "lesson.fact", 4},
        {kHead + "## S\nref: the PTX manual\nText.\n", "lesson.ref", 4},
        {kHead + "## \nText.\n", "lesson.step", 3},
        {kHead + "## S\n\n", "lesson.caption", 3},
        {kHead + "## S\n# Another title\n", "lesson.title", 4},
        {kHead + "## S\nText \x01.\n", "lesson.text", 4},
    }));
    const Diagnostic d = errorOf(c.text);
    INFO(c.text << " -> " << formatDiagnostic(d));
    CHECK(d.ruleRef.rfind(c.rule + " ", 0) == 0);
    CHECK(d.span.line == c.line);
    CHECK(d.span.column >= 1);
}

TEST_CASE("an embedded scenario's errors point at lesson lines; names are checked", "[lesson][parse]") {
    SECTION("scenario error") {
        const Diagnostic d = errorOf("# T\nscenario:\n```scn\ntarget sm_90a\nsmem\n```\n## S\nText.\n");
        CHECK(d.span.line == 5); // line 2 of the scenario, which starts on lesson line 4
    }
    SECTION("unknown tensor") {
        const Diagnostic d =
            errorOf("# T\nscenario:\n```\nmbarrier bar\nmbarrier.init.shared::cta.b64 [bar], 1;\n```\n## S\n"
                    "highlight: global Q (0,0)\nText.\n");
        CHECK(d.ruleRef.rfind("lesson.selector", 0) == 0);
        CHECK(d.span.line == 8);
    }
    SECTION("wrong rank") {
        const Diagnostic d = errorOf(
            std::string(kTile).replace(std::string(kTile).find("where A (3,5)"), 13, "where A (1,3,5)"));
        CHECK(d.message.find("rank 2") != std::string::npos);
    }
    SECTION("instruction beyond the scenario") {
        const Diagnostic d = errorOf(std::string(kTile) + "\n## Late\nat: instr 9\nText.\n");
        CHECK(d.ruleRef.rfind("lesson.at", 0) == 0);
    }
}

TEST_CASE("where: element (3,5) of a 64x64 fp16 SW128 tile, derived from the swizzle definition",
          "[lesson][answer]") {
    Fixture f = load(kTile);
    // tma.md §4.1: row r at dstMem + 128 r (pitch = span); §4.2: P = A ^ (((A>>7)&7)<<4).
    const uint64_t logical = 0x400 + 3 * 128 + 5 * 2;
    const uint64_t byHand = 0x400 + 3 * 128 + (((5 * 2 / 16) ^ (3 % 8)) * 16) + (5 * 2) % 16;
    REQUIRE(sw128(logical) == byHand);
    REQUIRE(byHand == 0x5ba);
    auto a = expectedAnswer(f.lesson, f.run, 0);
    REQUIRE(a.ok());
    REQUIRE(a->kind == LessonAnswer::Kind::Places);
    REQUIRE(a->places.size() == 1);
    CHECK(a->places[0].space == MemSpace::SharedCta);
    CHECK(a->places[0].addr == byHand);
    CHECK(a->elementBytes == 2);
    CHECK(a->explanation.find("SWIZZLE_128B") != std::string::npos);

    SECTION("typed answers") {
        CHECK(checkAnswer(f.lesson, f.run, 0, "smem 0x5ba")->correct);
        CHECK(checkAnswer(f.lesson, f.run, 0, "0x5bb")->correct); // the element's second byte
        CHECK(checkAnswer(f.lesson, f.run, 0, "1466")->correct);
        CHECK_FALSE(checkAnswer(f.lesson, f.run, 0, "smem 0x58a")->correct); // the unswizzled address
        CHECK_FALSE(checkAnswer(f.lesson, f.run, 0, "cta 1 smem 0x5ba")->correct);
        CHECK_FALSE(checkAnswer(f.lesson, f.run, 0, "tmem lane 3 col 5")->correct);
        CHECK_FALSE(checkAnswer(f.lesson, f.run, 0, "smem").ok()); // malformed: a diagnostic, not a verdict
    }
    SECTION("a clicked cell") {
        LessonPlace p;
        p.space = MemSpace::SharedCta;
        p.addr = byHand + 1;
        CHECK(checkAnswer(f.lesson, f.run, 0, p)->correct);
        p.addr = byHand + 2;
        CHECK_FALSE(checkAnswer(f.lesson, f.run, 0, p)->correct);
    }
}

TEST_CASE("wavefronts of a column read: 32 without swizzle, 4 with SW128", "[lesson][answer]") {
    Fixture f = load(kTile);
    // No swizzle: element (t,5) at 0x2400 + 128 t + 10, bank ((0x2400 + 128t + 10)/4) % 32 = 2 for every t:
    // 32 distinct words in one bank (banks.hpp) = 32 wavefronts.
    auto none = expectedAnswer(f.lesson, f.run, 1);
    REQUIRE(none.ok());
    CHECK(none->number == 32);
    // SW128: chunk 0 ^ (t % 8) -> bank 4 (t % 8) + 2: 8 banks with 4 distinct words each = 4 wavefronts.
    auto sw = expectedAnswer(f.lesson, f.run, 2);
    REQUIRE(sw.ok());
    CHECK(sw->number == 4);
    CHECK(checkAnswer(f.lesson, f.run, 2, "4")->correct);
    CHECK_FALSE(checkAnswer(f.lesson, f.run, 2, "32")->correct);
}

TEST_CASE("lanes a warp may touch: quarter warp % 4 (tcgen05.md §2.1)", "[lesson][answer]") {
    Fixture f = load(kTile);
    auto a = expectedAnswer(f.lesson, f.run, 3);
    REQUIRE(a.ok());
    CHECK(a->kind == LessonAnswer::Kind::Range);
    CHECK(a->number == 64); // warp 6: 6 % 4 = 2
    CHECK(a->last == 95);
    CHECK(checkAnswer(f.lesson, f.run, 3, "64..95")->correct);
    CHECK_FALSE(checkAnswer(f.lesson, f.run, 3, "192..223")->correct);
}

TEST_CASE("bytes of an instruction and selectors resolved at a step", "[lesson][answer]") {
    Fixture f = load(kTile);
    CHECK(expectedAnswer(f.lesson, f.run, 4)->number == 64 * 64 * 2); // box bytes (tma.md §6)
    CHECK_FALSE(expectedAnswer(f.lesson, f.run, 5).ok());             // no question
    // Before the load (step 6 stands after instr 2) element (3,5) has landed nowhere.
    auto step = lessonTraceStep(f.lesson, f.run, 5);
    REQUIRE(step.ok());
    CHECK_FALSE(resolveSelector(f.lesson, f.run, f.lesson.steps[5].highlights[0], *step).ok());
    auto after = lessonTraceStep(f.lesson, f.run, 0);
    auto cells = resolveSelector(f.lesson, f.run, f.lesson.steps[5].highlights[0], *after);
    REQUIRE(cells.ok());
    REQUIRE(cells->size() == 1);
    CHECK((*cells)[0].space == MemSpace::SharedCta);
    CHECK((*cells)[0].addr == 0x5ba);
    CHECK((*cells)[0].bytes == 2);
    SECTION("all highlights of a step") {
        auto all = resolveStepHighlights(f.lesson, f.run, 5);
        CHECK_FALSE(all.ok()); // before the load
    }
    SECTION("global range of a row: 64 contiguous elements = one 128-byte range") {
        auto row = parseLessonSelector("global A (3, 0..63)");
        REQUIRE(row.ok());
        auto g = resolveSelector(f.lesson, f.run, *row, 0);
        REQUIRE(g.ok());
        REQUIRE(g->size() == 1);
        CHECK((*g)[0].bytes == 128);
        CHECK((*g)[0].addr == f.lesson.scenario->findTensorMap("A")->map.p.globalAddress + 3 * 8192);
    }
    SECTION("a shared buffer range") {
        auto s = parseLessonSelector("smem sN+16..sN+31");
        REQUIRE(s.ok());
        auto r = resolveSelector(f.lesson, f.run, *s, 0);
        REQUIRE(r.ok());
        CHECK((*r)[0].addr == 0x2410);
        CHECK((*r)[0].bytes == 16);
    }
}

TEST_CASE("tcgen05.st .16x64b register to cell, by the tcgen05.md §4.1 table", "[lesson][answer]") {
    Fixture f = load(R"(# St
scenario:
```scn
target sm_100a
ptx 8.8
smem taddrBuf 16
let tmem = 0
regs pattern=index
tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [taddrBuf], 32;
tcgen05.st.sync.aligned.16x64b.x2.b32 [tmem], {%r0, %r1};
tcgen05.dealloc.cta_group::1.sync.aligned.b32 tmem, 32;
```
## S
at: instr 2
question: where reg t=7 r=1
## V
question: value tmem lane 9 col 2
)");
    // lane = (t>>2) + 8 (t&1) = 1 + 8 = 9; col = 2 j + ((t>>1)&1) = 2 + 1 = 3.
    auto a = expectedAnswer(f.lesson, f.run, 0);
    REQUIRE(a.ok());
    REQUIRE(a->places.size() == 1);
    CHECK(a->places[0].space == MemSpace::TensorMemory);
    CHECK(a->places[0].addr == tmemAddress(9, 3));
    CHECK(checkAnswer(f.lesson, f.run, 0, "tmem lane 9 col 3")->correct);
    // Cell (9, 2): thread t with (t>>2) + 8(t&1) = 9 and (t>>1)&1 = 0 is t = 5; j = 1: value 5 << 16 | 1.
    CHECK(expectedAnswer(f.lesson, f.run, 1)->number == (5 << 16 | 1));
}

TEST_CASE("tcgen05.cp .32x128b.warpx4: one source byte, four lanes, any is right", "[lesson][answer]") {
    // tcgen05.md §5.2: row r -> lanes r + 32w (w = 0..3), byte b -> column b/4, byte b%4. Row 3 of the
    // dense 16-B rows at sA = 0x400 starts at 0x430; byte 5 is 0x435: lanes 3, 35, 67, 99, column 1, byte 1.
    Fixture f = load(R"(# Cp
scenario:
```scn
target sm_100a
ptx 8.8
tensormap F tiled UINT8 dims=[16,32] box=[16,32]
smem sA 512 align=128
smem taddrBuf 16
mbarrier bar
desc sd start=sA lbo=16 sbo=128 swizzle=none
let tmem = 0
mbarrier.init.shared::cta.b64 [bar], 1;
mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 512;
cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [sA], [F, {0, 0}], [bar];
tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [taddrBuf], 32;
tcgen05.cp.cta_group::1.32x128b.warpx4 [tmem], sd;
tcgen05.dealloc.cta_group::1.sync.aligned.b32 tmem, 32;
```
## Where
at: instr 5
question: where smem 0x435
## From a register back
question: where F (3,5) in smem
)");
    auto a = expectedAnswer(f.lesson, f.run, 0);
    REQUIRE(a.ok());
    REQUIRE(a->places.size() == 4);
    for (uint32_t w = 0; w < 4; ++w) {
        CHECK(a->places[w].space == MemSpace::TensorMemory);
        CHECK(a->places[w].addr == tmemAddress(3 + 32 * w, 1));
        CHECK(a->places[w].byte == 1);
        CHECK(checkAnswer(f.lesson, f.run, 0, "tmem lane " + std::to_string(3 + 32 * w) + " col 1")->correct);
    }
    CHECK_FALSE(checkAnswer(f.lesson, f.run, 0, "tmem lane 4 col 1")->correct);
    CHECK_FALSE(checkAnswer(f.lesson, f.run, 0, "tmem lane 3 col 0")->correct);
    auto s = expectedAnswer(f.lesson, f.run, 1);
    REQUIRE(s.ok());
    REQUIRE(s->places.size() == 1);
    CHECK(s->places[0].addr == 0x435);
}

TEST_CASE("answers as typed", "[lesson][parse]") {
    auto r = parseLessonAnswer("reg t=5 r=11 warp=2");
    REQUIRE(r.ok());
    CHECK(r->kind == LessonAnswer::Kind::Places);
    CHECK(r->places[0].space == MemSpace::Register);
    CHECK(r->places[0].addr == ((uint64_t(2 * 32 + 5) << 16) | 44));
    CHECK(placeText(r->places[0]) == "reg t=5 r=11 warp=2");
    auto c = parseLessonAnswer("cta 1 smem 0x5ba");
    REQUIRE(c.ok());
    CHECK(c->places[0].cta == 1);
    CHECK(placeText(c->places[0]) == "cta 1 smem 0x05ba");
    CHECK(parseLessonAnswer("32..63")->kind == LessonAnswer::Kind::Range);
    CHECK(parseLessonAnswer("0x7ff7")->number == 0x7ff7);
    CHECK(parseLessonAnswer("Bank 2")->kind == LessonAnswer::Kind::Text);
    CHECK_FALSE(parseLessonAnswer("tmem lane 3").ok());
    CHECK_FALSE(parseLessonAnswer("  ").ok());
}
