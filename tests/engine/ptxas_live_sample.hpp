#pragma once
// A live differential sample: each instruction, in the golden/ptxas wrapper kernel (golden/ptxas/README.md
// "Kernel wrapper": the instruction on line 15), assembled by the installed ptxas for each target; the
// validator must agree on every one. The callers skip (saying so) when findPtxas() is empty.
#include "layoutscope/ptx/validate.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace layoutscope::test {

inline std::string ptxasWrapperKernel(const std::string& sm, const std::string& version,
                                      const std::string& instr) {
    return ".version " + version + "\n.target " + sm +
           "\n.address_size 64\n.visible .entry k(.param .u64 p0, .param .align 64 .b8 tmap[128])\n{\n"
           "  .reg .pred %p<4>;\n  .reg .b16 %h<8>;\n  .reg .b32 %r<300>;\n  .reg .b64 %rd<8>;\n"
           "  .shared .align 128 .b8 smem[4096];\n  .shared .align 8 .b64 mbar;\n  .reg .b32 %tmp<2>;\n"
           "  ld.param.u64 %rd0, [p0];\n  mov.u32 %r0, 0;\n  " +
           instr + "\n  ret;\n}\n";
}

/// Every instruction of `sample` on every target of `sms` (PTX ISA 9.0): ptxas's verdict == the validator's.
inline void checkLiveSample(const std::string& ptxas, const std::string& tag,
                            std::initializer_list<const char*> sms, const std::vector<const char*>& sample) {
    namespace fs = std::filesystem;
    const fs::path dir =
        fs::temp_directory_path() / ("layoutscope_" + tag + "_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const PtxEnvironment env = ptxasWrapperEnvironment();
    size_t checked = 0;
    for (const char* sm : sms) {
        for (const char* instr : sample) {
            const fs::path file = dir / "k.ptx";
            std::ofstream(file) << ptxasWrapperKernel(sm, "9.0", instr);
            const std::string cmd = "(ulimit -v 4194304; exec timeout 60 " + ptxas + " -arch=" + sm + " " +
                                    file.string() + " -o /dev/null) > /dev/null 2>&1";
            const int rc = std::system(cmd.c_str());
            const bool ptxasOk = rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 0;
            auto p = parseInstruction(instr, 15, 3);
            const bool ours = p && validateInstruction(*p, PtxTarget{sm, 9, 0}, env).ok();
            INFO(sm << ": " << instr << " (ptxas " << (ptxasOk ? "accepts" : "rejects") << ")");
            CHECK(ours == ptxasOk);
            ++checked;
        }
    }
    fs::remove_all(dir);
    CHECK(checked == sms.size() * sample.size());
}

} // namespace layoutscope::test
