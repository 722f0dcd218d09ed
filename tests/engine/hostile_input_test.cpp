// Hostile input (issue 25): the engine's readers never block on a special file and stay within their limits
// (the truth: what a FIFO, /dev/zero and a directory are, POSIX), dumps that hold no well-formed bytes are
// refused rather than "matching" (the .npy format spec: a shape is a tuple of non-negative ints), `let` takes
// the 64-bit descriptors `desc encode` prints (the bit layout of smem_descriptor.hpp, decoded by hand),
// lessons are UTF-8 (RFC 3629) within their documented caps, and scaffold survives an unchecked module.
#include "layoutscope/analysis/observed.hpp"
#include "layoutscope/core/diagnostic_cap.hpp"
#include "layoutscope/core/file_read.hpp"
#include "layoutscope/core/memory.hpp"
#include "layoutscope/lesson/lesson.hpp"
#include "layoutscope/ptx/module.hpp"
#include "layoutscope/scenario/scaffold.hpp"
#include "layoutscope/scenario/scenario.hpp"

#include "npy_bytes.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

using namespace layoutscope;
namespace fs = std::filesystem;

namespace {

// A fresh folder holding a FIFO (no writer: a blocking open would wait forever) and a regular file.
struct SpecialFiles {
    fs::path dir;
    std::string fifo, regular;
    SpecialFiles() {
        dir = fs::temp_directory_path() / ("layoutscope_hostile_" + std::to_string(::getpid()));
        fs::create_directories(dir);
        fifo = (dir / "fifo").string();
        regular = (dir / "file.txt").string();
        ::unlink(fifo.c_str());
        REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
        std::ofstream(regular) << "0x00 0x01 0x02 0x03\n";
    }
    ~SpecialFiles() {
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
};

bool mentionsRegular(const Diagnostic& d) {
    return d.message.find("not a regular file") != std::string::npos && d.ruleRef == kFileInputRule;
}

} // namespace

TEST_CASE("file reader: regular files only, never blocking, within the limit", "[hostile][io]") {
    SpecialFiles f;
    std::string out;
    SECTION("a FIFO with no writer is refused at once (the open does not wait)") {
        CHECK(readRegularFile(f.fifo, 1 << 20, out) == FileReadStatus::NotRegular);
    }
    SECTION("character devices: /dev/zero never ends, /dev/null is not a file") {
        CHECK(readRegularFile("/dev/zero", 1 << 20, out) == FileReadStatus::NotRegular);
        CHECK(readRegularFile("/dev/null", 1 << 20, out) == FileReadStatus::NotRegular);
    }
    SECTION("a directory") {
        CHECK(readRegularFile(f.dir.string(), 1 << 20, out) == FileReadStatus::NotRegular);
    }
    SECTION("a missing file") {
        CHECK(readRegularFile((f.dir / "nope").string(), 1 << 20, out) == FileReadStatus::CannotOpen);
    }
    SECTION("a regular file: its bytes; over the limit: TooLarge with at most limit + 1 bytes held") {
        REQUIRE(readRegularFile(f.regular, 1 << 20, out) == FileReadStatus::Ok);
        CHECK(out == "0x00 0x01 0x02 0x03\n");
        CHECK(readRegularFile(f.regular, 4, out) == FileReadStatus::TooLarge);
        CHECK(out.size() <= 5);
    }
    SECTION("/proc/self/mem is a regular file whose read fails: an error, not a hang or 0 bytes of success") {
        const FileReadStatus s = readRegularFile("/proc/self/mem", 1 << 20, out);
        CHECK((s == FileReadStatus::ReadError || s == FileReadStatus::CannotOpen));
    }
}

TEST_CASE("every engine reader refuses a FIFO by the same rule", "[hostile][io]") {
    SpecialFiles f;
    SECTION("scenario") {
        auto r = readScenarioFile(f.fifo);
        REQUIRE_FALSE(r);
        CHECK(mentionsRegular(r.error()));
    }
    SECTION("PTX module") {
        auto r = readPtxModuleFile(f.fifo);
        REQUIRE_FALSE(r);
        CHECK(mentionsRegular(r.error()));
    }
    SECTION("dump") {
        auto r = readObservedFile(f.fifo);
        REQUIRE_FALSE(r);
        CHECK(mentionsRegular(r.error()));
    }
    SECTION("lesson") {
        auto r = loadLesson(f.fifo);
        REQUIRE_FALSE(r);
        CHECK(mentionsRegular(r.error()));
    }
    SECTION("a lesson's scenario: path") {
        const std::string lesson = (f.dir / "l.lesson").string();
        std::ofstream(lesson) << "# T\nscenario: fifo\n\n## S\nat: start\nCaption.\n";
        auto r = loadLesson(lesson);
        REQUIRE_FALSE(r);
        CHECK(r.error().message.find("not a regular file") != std::string::npos);
    }
}

TEST_CASE("dumps that hold no well-formed bytes are refused, not compared", "[hostile][observed]") {
    auto npy = [](const std::string& shape, size_t dataBytes) {
        return test::npyBytes("|u1", shape, "False", dataBytes);
    };
    SECTION(".npy shapes that are not tuples of non-negative integers") {
        for (const char* shape : {"(-4, -16)", "(-1,)", "('a', 16)", "(16 16)", "(16)", "16"}) {
            INFO(shape);
            auto r = parseObservedBytes(npy(shape, 64));
            REQUIRE_FALSE(r);
            CHECK(r.error().message.find("shape") != std::string::npos);
        }
    }
    SECTION("well-formed shapes still read: (4, 16), (64,), ( 8 , 8 )") {
        for (const char* shape : {"(4, 16)", "(64,)", "( 8 , 8 )"}) {
            INFO(shape);
            auto r = parseObservedBytes(npy(shape, 64));
            REQUIRE(r);
            CHECK(r->bytes.size() == 64);
        }
    }
    SECTION("a cuda-gdb command with no output, an .npy of shape (0,): no bytes") {
        auto gdb = parseObservedBytes("(cuda-gdb) x/16xw $smem_base\n");
        REQUIRE_FALSE(gdb);
        CHECK(gdb.error().message.find("no bytes") != std::string::npos);
        auto empty = parseObservedBytes(npy("(0,)", 0));
        REQUIRE_FALSE(empty);
        CHECK(empty.error().message.find("no bytes") != std::string::npos);
    }
    SECTION("8-digit words beside 16-digit ones are x/xw beside x/xg output: ambiguous, refused") {
        auto r = parseObservedBytes("0x0706050403020100 0x0b0a0908\n");
        REQUIRE_FALSE(r);
        CHECK(r.error().message.find("mixed word sizes") != std::string::npos);
        CHECK(r.error().span.column == 20); // the 8-digit word
    }
}

TEST_CASE("let holds any 64-bit descriptor desc encode prints", "[hostile][scenario]") {
    // 0xc000404000010040, decoded by hand (PTX ISA tcgen05 shared memory descriptor): bits [61,64) = 6
    // (SWIZZLE_32B), bit 46 = 1 (version), bits [32,46) = 0x40 (SBO 1024), bits [16,30) = 1 (LBO 16),
    // bits [0,14) = 0x40 (start 1024). It is above INT64_MAX; a `let` used to refuse it.
    const std::string run = "mbarrier bar\nmbarrier.init.shared::cta.b64 [bar], 1;\n";
    auto ok =
        parseScenario("target sm_100a\nlet sd = 0xc000404000010040\nlet m = 0xFFFFFFFFFFFFFFFF\n" + run);
    if (!ok) FAIL(formatDiagnostic(ok.error()));
    SECTION("beyond 64 bits is still refused") {
        auto r = parseScenario("target sm_100a\nlet sd = 0x10000000000000000\n" + run);
        REQUIRE_FALSE(r);
        CHECK(r.error().span.line == 2);
    }
    SECTION("negative values keep their meaning") {
        CHECK(parseScenario("let x = -5\n" + run));
    }
}

TEST_CASE("lessons are UTF-8 text within their documented caps", "[hostile][lesson]") {
    const std::string head = "# T\nscenario: x.scn\n\n## S\nat: start\n";
    SECTION("valid UTF-8 (2, 3 and 4-byte forms) is accepted") {
        CHECK(parseLesson(head + "caf\xC3\xA9 \xE2\x86\x92 \xF0\x9F\x99\x82\n"));
    }
    SECTION("malformed UTF-8 is refused at its byte") {
        for (const char* bad :
             {"\xC3(", "\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xFF", "\xE2\x86"}) {
            auto r = parseLesson(head + "x" + bad + "\n");
            REQUIRE_FALSE(r);
            CHECK(r.error().message.find("UTF-8") != std::string::npos);
            CHECK(r.error().span.line == 6);
            CHECK(r.error().span.column == 2);
        }
    }
    SECTION("a global selector over more than 65,536 elements, a landed one over 16,384") {
        auto g = parseLesson(head + "highlight: global A (0..256, 0..255)\n");
        REQUIRE_FALSE(g);
        CHECK(g.error().message.find("more than 65536 elements") != std::string::npos);
        auto l = parseLesson(head + "highlight: landed A (0..128, 0..127)\n");
        REQUIRE_FALSE(l);
        CHECK(l.error().message.find("more than 16384 elements") != std::string::npos);
        CHECK(parseLesson(head + "highlight: landed A (0..127, 0..127)\nCaption.\n")); // exactly 16,384
    }
}

TEST_CASE("scaffold does not trust that the module was checked", "[hostile][scaffold]") {
    const std::string ptx =
        ".version 8.7\n.target sm_90a\n.address_size 64\n\n.visible .entry k()\n{\n"
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes;\n"
        "mbarrier.arrive.expect_tx.shared::cta.b64 _, [], %r1;\n"
        "cp.async.bulk.tensor.1d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes "
        "[%r1], [%rd1, {%r1}], [%r2], {};\nret;\n}\n";
    auto m = readPtxModule(ptx);
    if (!m) FAIL(formatDiagnostic(m.error()));
    auto r = scaffoldScenario(*m, ScaffoldOptions{"k", "t.ptx"}); // no crash, whatever the verdict
    const std::string verdict = r.ok() ? "scaffolded" : formatDiagnostic(r.error());
    SUCCEED(verdict);
}

TEST_CASE("diagnostics are capped per rule and the rest counted", "[hostile][diagnostics]") {
    SECTION("100,000 empty statements: at most kDiagnosticsPerKind errors of a kind and a note of the rest") {
        auto r = parseScenario(std::string(100000, ';'));
        REQUIRE_FALSE(r);
        size_t errors = 0, notes = 0;
        for (const Diagnostic& d : r.diagnostics()) {
            errors += d.severity == Severity::Error;
            notes += d.severity == Severity::Note;
        }
        CHECK(errors <= 2 * kDiagnosticsPerKind); // the statements' kind, and at most one other
        REQUIRE(notes >= 1);
        bool counted = false; // every statement is accounted for: shown + "N more" = 100,000
        for (const Diagnostic& d : r.diagnostics())
            if (d.severity == Severity::Note &&
                d.message.find("and " + std::to_string(100000 - kDiagnosticsPerKind) + " more like this") !=
                    std::string::npos)
                counted = true;
        CHECK(counted);
    }
    SECTION("capDiagnostics keeps order, the first of each kind, one note per capped kind") {
        std::vector<Diagnostic> ds;
        for (int i = 0; i < 30; ++i) {
            ds.push_back(Diagnostic{Severity::Error, DiagCode::Syntax, {1, i + 1, 1}, "a", "rule A", {}});
            ds.push_back(Diagnostic{Severity::Error, DiagCode::Syntax, {2, i + 1, 1}, "b", "rule B", {}});
        }
        ds.push_back(Diagnostic{Severity::Error, DiagCode::Syntax, {3, 1, 1}, "c", "rule C", {}});
        const auto capped = capDiagnostics(ds, 5);
        REQUIRE(capped.size() == 5 + 5 + 1 + 2);
        CHECK(capped[0].span.column == 1);
        CHECK(capped[1].ruleRef == "rule B");
        CHECK(capped[10].ruleRef == "rule C");
        CHECK(capped[11].severity == Severity::Note);
        CHECK(capped[11].message.find("and 25 more like this") != std::string::npos);
        CHECK(capped[11].span.column == 30); // the last one dropped
    }
}

TEST_CASE("global regions: one lookup when disjoint, the first declared when they overlap",
          "[hostile][memory]") {
    GlobalMemory g;
    for (uint64_t i = 0; i < 1000; ++i) // declared out of address order
        g.addRegion(((i * 7919) % 1000) * 4096, 4096, [i](uint64_t) { return uint8_t(i); });
    CHECK(g.readByte(((5 * 7919) % 1000) * 4096 + 17) == 5);
    CHECK(g.readByte(1000 * 4096) == 0); // past every region: unmapped
    CHECK_FALSE(g.isMapped(1000 * 4096, 1));
    g.addRegion(100, 8192, [](uint64_t) { return uint8_t(0xEE); }); // overlaps two earlier regions
    CHECK(g.readByte(((5 * 7919) % 1000) * 4096 + 17) == 5);
    const uint64_t first = 0; // region i = 0 sits at 0; it was declared first, so it wins over the new one
    CHECK(g.readByte(first + 200) == 0);
}

TEST_CASE("tensor overlap is found by an ordered lookup, whatever the declaration order",
          "[hostile][scenario]") {
    // 64x64 FLOAT16 tensors are 8192 bytes; explicit addresses declared out of order, then one overlapping
    // the middle of the second declared (by hand: [0x20000, 0x22000) meets [0x21000, 0x23000)).
    const std::string head = "target sm_90a\n"
                             "tensormap A tiled FLOAT16 dims=[64,64] box=[64,64] address=0x40000\n"
                             "tensormap B tiled FLOAT16 dims=[64,64] box=[64,64] address=0x20000\n"
                             "tensormap C tiled FLOAT16 dims=[64,64] box=[64,64] address=0x30000\n";
    const std::string run = "mbarrier bar\nmbarrier.init.shared::cta.b64 [bar], 1;\n";
    CHECK(parseScenario(head + run)); // disjoint
    SECTION("overlapping the middle of B") {
        auto r = parseScenario(head + "tensormap D tiled FLOAT16 dims=[64,64] box=[64,64] address=0x21000\n" +
                               run);
        REQUIRE_FALSE(r);
        CHECK(r.error().message.find("overlaps tensor B") != std::string::npos);
    }
    SECTION("ending one byte into C, and touching A without overlap") {
        auto r = parseScenario(head + "tensormap D tiled UINT8 dims=[8193] box=[64] address=0x2E000\n" + run);
        REQUIRE_FALSE(r);
        CHECK(r.error().message.find("overlaps tensor C") != std::string::npos);
        CHECK(parseScenario(head + "tensormap E tiled UINT8 dims=[8192] box=[64] address=0x3E000\n" + run));
    }
}
