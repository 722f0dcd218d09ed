// conform cute: golden/cute/*.json (CuTe-derived tcgen05 maps, UMMA descriptors, swizzles) against the
// engine's rules. Files are recognised by their content (README of golden/cute), never by name, and atoms
// are understood only through the PTX form they name.
// The checks of each file kind are conform_cute_tmem.cpp and conform_cute_smem.cpp (conform_cute.hpp);
// this file reads the files and dispatches each record by its content.
#include "conform/conform_cute.hpp"
#include "conform/conform.hpp"
#include "layoutscope/core/file_read.hpp"
#include "layoutscope/tcgen05/tcgen05.hpp"

#include <algorithm>
#include <filesystem>
#include <map>

namespace layoutscope::conform {
namespace cute {
namespace {

Outcomes checkFile(const Json& doc, const std::string& file) {
    Outcomes out;
    auto guard = [&](const std::string& id, auto&& fn) {
        try {
            fn();
        } catch (const std::exception& e) {
            out.push_back({id, false, std::string("malformed record: ") + e.what()});
        }
    };
    if (doc.contains("atoms")) {
        std::map<std::string, const Json*> byName;
        for (const Json& a : doc.at("atoms")) byName[a.value("name", "")] = &a;
        for (const Json& a : doc.at("atoms")) {
            const std::string id = file + " " + a.value("name", "?");
            if (a.contains("src_row_to_dst_lanes"))
                guard(id, [&] { out.push_back(checkUtccpAtom(a)); });
            else
                guard(id, [&] {
                    out.push_back(checkLdStAtom(a, byName));
                    Result<LdStForm> f = parseLdSt(a.at("ptx_emitted").get<std::string>());
                    if (f && a.contains("cute_layouts")) out.push_back(checkLdStAgainstLayouts(a, *f));
                });
        }
    } else if (doc.contains("swizzles")) {
        for (const Json& s : doc.at("swizzles")) guard(file, [&] { out.push_back(checkSwizzle(s)); });
    } else if (doc.contains("examples")) {
        for (const Json& e : doc.at("examples")) {
            const std::string id = file + " " + e.value("label", e.value("atom", "?"));
            if (e.contains("threads"))
                guard(id, [&] { out.push_back(checkTiledExample(e)); });
            else if (e.contains("descriptors"))
                guard(id, [&] {
                    auto o = checkDescExample(e);
                    out.insert(out.end(), o.begin(), o.end());
                });
            else if (e.contains("smem_byte_to_tmem"))
                guard(id, [&] {
                    auto o = checkBlockScaled(e);
                    out.insert(out.end(), o.begin(), o.end());
                });
            else
                out.push_back({id, false, "example of an unknown kind"});
        }
    } else {
        out.push_back({file, false, "not a golden/cute file (no atoms, examples or swizzles)"});
    }
    return out;
}

} // namespace
} // namespace cute

Result<std::vector<CaseOutcome>> conformCute(const std::string& path) {
    namespace fs = std::filesystem;
    std::vector<fs::path> files;
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        for (const auto& e : fs::directory_iterator(path, ec))
            if (e.path().extension() == ".json") files.push_back(e.path());
        std::sort(files.begin(), files.end());
    } else {
        files.push_back(path);
    }
    if (files.empty())
        return Diagnostic{Severity::Error, DiagCode::Io, {}, path + ": no .json files", "golden/cute README"};
    cute::Outcomes all;
    for (const fs::path& p : files) {
        auto text = readInputFile(p.string(), kMaxGoldenFileBytes, p.string());
        if (!text) return text.diagnostics();
        cute::Json doc = cute::Json::parse(*text, nullptr, /*allow_exceptions=*/false);
        if (doc.is_discarded()) {
            all.push_back({p.filename().string(), false, "not valid JSON"});
            continue;
        }
        cute::Outcomes o = cute::checkFile(doc, p.filename().string());
        all.insert(all.end(), o.begin(), o.end());
    }
    return all;
}

} // namespace layoutscope::conform
