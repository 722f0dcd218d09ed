#pragma once
// Shared by the PTX validator tests: validate one instruction as it would sit in the
// golden/ptxas/README.md wrapper kernel, and run an accept/reject table (each row names why).
#include "layoutscope/ptx/validate.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace layoutscope::test {

inline PtxTarget tgt(const char* sm, int major = 9, int minor = 0) {
    return PtxTarget{sm, major, minor};
}

inline Status check(const std::string& text, const PtxTarget& t = tgt("sm_100a")) {
    auto p = parseInstruction(text);
    if (!p) return p.diagnostics();
    return validateInstruction(*p, t, ptxasWrapperEnvironment());
}

inline bool accepted(const std::string& text, const PtxTarget& t = tgt("sm_100a")) {
    return check(text, t).ok();
}

inline std::string firstMessage(const std::string& text, const PtxTarget& t = tgt("sm_100a")) {
    auto s = check(text, t);
    return s ? std::string() : s.error().message;
}

struct Row {
    const char* instr;
    bool ok;
    const char* why;
};

inline void runTable(const std::vector<Row>& rows, const PtxTarget& t = tgt("sm_100a")) {
    for (const auto& r : rows) {
        INFO(r.instr << "  -- " << r.why);
        CHECK(accepted(r.instr, t) == r.ok);
    }
}

} // namespace layoutscope::test
