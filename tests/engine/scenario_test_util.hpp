#pragma once
// Helpers shared by the scenario check tests.
#include "layoutscope/scenario/scenario.hpp"

#include <catch2/catch.hpp>

#include <string>

namespace layoutscope::test {

/// The Error diagnostics of a completed run as "line: message\n" lines. The scenario must parse and the
/// run complete: the checks report, they do not stop the trace.
inline std::string runErrors(const std::string& text) {
    auto sc = parseScenario(text);
    REQUIRE(sc);
    auto run = runScenario(*sc);
    REQUIRE(run);
    std::string out;
    for (const Diagnostic& d : run->warnings)
        if (d.severity == Severity::Error) out += std::to_string(d.span.line) + ": " + d.message + "\n";
    return out;
}

/// The first parse or run failure ("parse: ..." / "run: ..."), else the Error diagnostics of the completed
/// run, one message a line ("" when there are none).
inline std::string errorMessages(const std::string& text) {
    auto sc = parseScenario(text);
    if (!sc) return "parse: " + sc.diagnostics()[0].message;
    auto run = runScenario(*sc);
    if (!run) return "run: " + run.diagnostics()[0].message;
    std::string out;
    for (const Diagnostic& d : run->warnings)
        if (d.severity == Severity::Error) out += d.message + "\n";
    return out;
}

/// A bundled broken-kernel example (assets/scenarios/broken/NAME) parsed and run; both must succeed.
struct LoadedScenario {
    Scenario s;
    Run run;
};
inline LoadedScenario loadBrokenExample(const std::string& name) {
    auto text = readScenarioFile(std::string(LAYOUTSCOPE_ASSETS_DIR) + "/scenarios/broken/" + name);
    REQUIRE(text);
    auto s = parseScenario(*text);
    REQUIRE(s);
    auto run = runScenario(*s);
    REQUIRE(run);
    return {std::move(*s), std::move(*run)};
}

} // namespace layoutscope::test
