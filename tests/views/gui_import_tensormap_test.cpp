// File > Import tensor map (issue 13 item 3, GUI): the golden encode_0000 CUtensorMap (FLOAT16 64x32,
// box 64x8, SWIZZLE_128B, address 0x7f9d6fe00000; shared/golden/tma encode sweep, copied in
// tests/data/tensormap) pasted as cuda-gdb x/16xg output or opened as the raw blob decodes to the directive
// the CLI prints; bad input says what is wrong and offers nothing to insert.
#include "import_tensormap_dialog.hpp"

#include <catch2/catch.hpp>

#include <QFile>

using namespace layoutscope::views;

namespace {
const QString kData = QStringLiteral(LAYOUTSCOPE_TEST_DATA_DIR) + "/tensormap/";
const QString kDirective =
    "tensormap T tiled FLOAT16 dims=[64,32] strides=[128] box=[64,8] swizzle=128B address=0x7f9d6fe00000\n";
} // namespace

TEST_CASE("Import tensor map: cuda-gdb text or a raw blob becomes a scenario directive",
          "[views][gui][import]") {
    ImportTensorMapDialog dlg;
    SECTION("x/16xg text with its address prefixes") {
        QFile f(kData + "encode_0000.x16xg.txt");
        REQUIRE(f.open(QIODevice::ReadOnly));
        dlg.setInput(QString::fromUtf8(f.readAll()));
        CHECK(dlg.directive() == kDirective);
    }
    SECTION("the raw 128-byte blob") {
        QFile f(kData + "encode_0000.bin");
        REQUIRE(f.open(QIODevice::ReadOnly));
        dlg.setBinary(f.readAll());
        CHECK(dlg.directive() == kDirective);
    }
    SECTION("truncated text: an error that says so, nothing to insert") {
        dlg.setInput("0x00007f9d6fe00000 0x0000000800006310 0x0");
        CHECK(dlg.directive().isEmpty());
        CHECK(dlg.status().contains("3 0x-prefixed words"));
    }
    SECTION("a blob of the wrong length") {
        dlg.setBinary(QByteArray(100, '\0'));
        CHECK(dlg.directive().isEmpty());
        CHECK(dlg.status().contains("128"));
    }
}
