// The launch dialog's text (issue 22 item 4): the `kernel` directive composed from a launch, checked
// against hand-written text in docs/exec.md's form (a trailing `\` continues the line, double quotes
// group a word), and the parameter lines a kernel starts from.
#include "layoutscope/scenario/scenario.hpp"
#include "scene/kernel_launch.hpp"

#include <catch2/catch.hpp>

using namespace layoutscope;
using namespace layoutscope::views;

TEST_CASE("A launch composes the kernel directive docs/exec.md describes", "[views][kernel]") {
    KernelLaunch l;
    l.ptxPath = "/data/k.ptx";
    l.entry = "0";
    l.entryLabel = "gemm(int)";
    l.grid = "1,1,1";
    l.block = "128";
    l.dynamicSmem = "49280";
    l.argLines = {"--arg 0=fields:0=s32:128",
                  "--arg 3=tensormap:tiled FLOAT16 dims=[128,256] box=[64,8] address=A   # the map, bare",
                  "",
                  "   # a comment line",
                  "--arg \"5=tensormap:tiled FLOAT16 dims=[8,8] box=[8,8] address=B\"",
                  "--tensor A=tensor:f16[128,256]:int:1"};
    SECTION("every option on its own continued line; values with spaces quoted") {
        const auto text = composeKernelScenario(l);
        REQUIRE(text.ok());
        CHECK(*text ==
              "# A launch of kernel gemm(int) of k.ptx (File > Open; docs/exec.md): the executor runs it "
              "and records every byte it moves.\n"
              "kernel /data/k.ptx \\\n"
              "    --entry 0 \\\n"
              "    --grid 1,1,1 --block 128 \\\n"
              "    --dynamic-smem 49280 \\\n"
              "    --arg 0=fields:0=s32:128 \\\n"
              "    --arg \"3=tensormap:tiled FLOAT16 dims=[128,256] box=[64,8] address=A\" \\\n"
              "    --arg \"5=tensormap:tiled FLOAT16 dims=[8,8] box=[8,8] address=B\" \\\n"
              "    --tensor A=tensor:f16[128,256]:int:1\n");
    }
    SECTION("the engine's scenario reader reads back the same words (its kernel directive)") {
        const auto text = composeKernelScenario(l);
        REQUIRE(text.ok());
        const auto sc = parseScenario(*text);
        REQUIRE(sc.ok());
        REQUIRE(sc->kernel);
        CHECK(sc->kernel->path == "/data/k.ptx");
        CHECK(sc->kernel->span.line == 2);
        CHECK(sc->kernel->args ==
              std::vector<std::string>{"--entry", "0", "--grid", "1,1,1", "--block", "128", "--dynamic-smem",
                                       "49280", "--arg", "0=fields:0=s32:128", "--arg",
                                       "3=tensormap:tiled FLOAT16 dims=[128,256] box=[64,8] address=A",
                                       "--arg", "5=tensormap:tiled FLOAT16 dims=[8,8] box=[8,8] address=B",
                                       "--tensor", "A=tensor:f16[128,256]:int:1"});
    }
    SECTION("cluster and CTA when given; a module path with a space is quoted") {
        l.ptxPath = "/my data/k.ptx";
        l.cluster = "2,1,1";
        l.cta = "1,0,0";
        l.dynamicSmem.clear();
        l.argLines = {"--arg 0=1"};
        const auto text = composeKernelScenario(l);
        REQUIRE(text.ok());
        CHECK_THAT(*text, Catch::Contains("kernel \"/my data/k.ptx\" \\\n"));
        CHECK_THAT(*text, Catch::Contains("    --grid 1,1,1 --block 128 --cluster 2,1,1 --cta 1,0,0 \\\n"));
        CHECK_THAT(*text, Catch::EndsWith("    --arg 0=1\n"));
        CHECK_THAT(*text, !Catch::Contains("--dynamic-smem"));
    }
}

TEST_CASE("A launch that cannot be composed says which field or line is wrong", "[views][kernel]") {
    KernelLaunch l;
    l.ptxPath = "/data/k.ptx";
    l.grid = "1";
    l.block = "128";
    auto error = [&l] {
        const auto r = composeKernelScenario(l);
        return r.ok() ? std::string("(composed)") : r.error().message;
    };
    SECTION("grid, block, cluster, CTA, shared memory") {
        l.grid = "0";
        CHECK_THAT(error(), Catch::Contains("grid `0`"));
        l.grid = "1,2,3,4";
        CHECK_THAT(error(), Catch::Contains("grid `1,2,3,4`"));
        l.grid = "1";
        l.block = "a";
        CHECK_THAT(error(), Catch::Contains("block `a`"));
        l.block = "128";
        l.cluster = "2,";
        CHECK_THAT(error(), Catch::Contains("cluster `2,`"));
        l.cluster.clear();
        l.cta = "0,0,0";
        CHECK(error() == "(composed)"); // a CTA index may be 0
        l.cta = "-1";
        CHECK_THAT(error(), Catch::Contains("CTA `-1`"));
        l.cta.clear();
        l.dynamicSmem = "48K";
        CHECK_THAT(error(), Catch::Contains("dynamic shared memory `48K`"));
    }
    SECTION("an argument line left as prefilled, not an option, an open quote") {
        l.argLines = {"--arg 0=1", "--arg k_param_1=    # .u64"};
        CHECK(error() == "argument line 2: `--arg k_param_1=` has no value after `=` (# .u64)");
        l.argLines = {"0=1"};
        CHECK_THAT(error(), Catch::StartsWith("argument line 1: `0=1` is not an option"));
        l.argLines = {"--arg \"3=tensormap:tiled"};
        CHECK(error() == "argument line 1: a double quote is not closed");
        l.argLines = {"--tensor"};
        CHECK(error() == "argument line 1: `--tensor` has no value");
        l.argLines = {"--arg 0=1", "--expect C=gemm(A,B)"};
        CHECK(error() ==
              "argument line 2: `--expect` belongs to layoutscope-cli exec: a kernel scenario shows the "
              "run instead");
        l.argLines = {"--grid 2"};
        CHECK(error() == "argument line 1: `--grid` has its own field above");
        l.argLines = {"--args 0=1"};
        CHECK_THAT(error(), Catch::StartsWith("argument line 1: unknown option `--args`"));
    }
}

TEST_CASE("A kernel's launch starts with one --arg line per parameter, by name", "[views][kernel]") {
    const auto m =
        readPtxModule(".version 8.0\n.target sm_90a\n.address_size 64\n\n"
                      ".visible .entry k(\n    .param .u64 k_param_0,\n    .param .f32 k_param_1,\n"
                      "    .param .align 64 .b8 k_param_2[128]\n)\n{\n    ret;\n}\n");
    REQUIRE(m.ok());
    REQUIRE(m->entries().size() == 1);
    const std::vector<std::string> lines = defaultArgLines(*m->entries()[0]);
    CHECK(lines == std::vector<std::string>{"--arg k_param_0=    # .u64", "--arg k_param_1=    # .f32",
                                            "--arg k_param_2=    # .b8[128] align 64"});
}
