// Export of the animation as an image sequence (File > Export Animation..., --export-sequence DIR
// [--steps A:B]): the step-range syntax, the frame names and that frame i shows step A+i.
#include "export_sequence.hpp"

#include <catch2/catch.hpp>

#include <QDir>
#include <QTemporaryDir>

using namespace layoutscope;
using namespace layoutscope::views;

TEST_CASE("The --steps range accepts A:B, A:, :B and A within 0..stepCount", "[views][gui][sequence]") {
    QString err;
    SECTION("valid forms") {
        const auto all = parseStepRange("", 40, &err);
        REQUIRE(all);
        CHECK((all->first == 0 && all->last == 40 && all->count() == 41));
        const auto ab = parseStepRange("3:7", 40, &err);
        REQUIRE(ab);
        CHECK((ab->first == 3 && ab->last == 7 && ab->count() == 5));
        const auto from = parseStepRange("10:", 40, &err);
        REQUIRE(from);
        CHECK((from->first == 10 && from->last == 40));
        const auto to = parseStepRange(":5", 40, &err);
        REQUIRE(to);
        CHECK((to->first == 0 && to->last == 5));
        const auto one = parseStepRange("40", 40, &err);
        REQUIRE(one);
        CHECK((one->first == 40 && one->last == 40 && one->count() == 1));
    }
    SECTION("invalid forms say why") {
        CHECK_FALSE(parseStepRange("7:3", 40, &err));
        CHECK(err.contains("A must not be after B"));
        CHECK_FALSE(parseStepRange("0:41", 40, &err));
        CHECK(err.contains("0..40"));
        CHECK_FALSE(parseStepRange("a:b", 40, &err));
        CHECK(err.contains("non-negative integers"));
        CHECK_FALSE(parseStepRange("-1:3", 40, &err));
        CHECK_FALSE(parseStepRange("1:2:3", 40, &err));
        CHECK(err.contains("one colon"));
    }
}

TEST_CASE("Sequence frames are numbered from frame_0000.png", "[views][gui][sequence]") {
    CHECK(sequenceFrameName(0) == "frame_0000.png");
    CHECK(sequenceFrameName(42) == "frame_0042.png");
    CHECK(sequenceFrameName(12345) == "frame_12345.png");
}

TEST_CASE("An exported sequence holds one frame per step, frame i showing step A+i",
          "[views][gui][sequence]") {
    qputenv("LAYOUTSCOPE_EXPORT_CPU", "1");
    auto doc = Document::fromFile(LAYOUTSCOPE_ASSETS_DIR "/scenarios/tma_tile_noswizzle.scn");
    REQUIRE(doc->hasTrace());
    REQUIRE(doc->trace().stepCount >= 3);
    QTemporaryDir tmp;
    const QString dir = tmp.filePath("seq/nested"); // created when missing
    const QSize size(320, 180);
    uint32_t calls = 0;
    const ExportResult r =
        exportSequence(*doc, dir, StepRange{1, 3}, size, 0, [&](uint32_t done, uint32_t total) {
            ++calls;
            CHECK(total == 3);
            CHECK(done == calls);
            return true;
        });
    INFO(r.message.toStdString());
    REQUIRE(r.ok);
    CHECK(calls == 3);
    CHECK(QDir(dir).entryList({"*.png"}, QDir::Files, QDir::Name) ==
          QStringList{"frame_0000.png", "frame_0001.png", "frame_0002.png"});
    for (uint32_t i = 0; i < 3; ++i) {
        const QImage frame(QDir(dir).filePath(sequenceFrameName(i)));
        const QImage single = renderDocument(*doc, 1 + i, size).image.convertToFormat(frame.format());
        INFO("frame " << i);
        CHECK(frame == single);
    }
    SECTION("the progress callback can cancel") {
        const ExportResult c = exportSequence(*doc, tmp.filePath("cancel"), StepRange{0, 5}, size, 0,
                                              [](uint32_t done, uint32_t) { return done < 2; });
        CHECK_FALSE(c.ok);
        CHECK(c.message.contains("cancelled after 2 of 6"));
    }
    qunsetenv("LAYOUTSCOPE_EXPORT_CPU");
}
