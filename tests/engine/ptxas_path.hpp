#pragma once
// Where the tests find ptxas: the first `ptxas` on PATH, else CUDA's default install, else "" (the tests
// that need it then skip, saying so).
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>

namespace layoutscope::test {

inline std::string findPtxas() {
    namespace fs = std::filesystem;
    if (const char* path = std::getenv("PATH")) {
        std::stringstream ss(path);
        std::string dir;
        while (std::getline(ss, dir, ':'))
            if (!dir.empty() && fs::exists(fs::path(dir) / "ptxas"))
                return (fs::path(dir) / "ptxas").string();
    }
    return fs::exists("/usr/local/cuda/bin/ptxas") ? "/usr/local/cuda/bin/ptxas" : "";
}

} // namespace layoutscope::test
