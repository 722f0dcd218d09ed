// The Scaffolder's output (scaffold_detail.hpp): the scenario text, its declarations grouped by kind with
// their defaults (box rows fitted to the kernel's expect_tx counts, smem sizes within a CTA) and the
// instructions in program order.
#include "layoutscope/core/memory.hpp"
#include "scenario/scaffold_detail.hpp"

#include <algorithm>

namespace layoutscope::scaffold {

Sym* Scaffolder::named(const std::string& name) {
    for (Sym& s : m_syms)
        if (s.name == name) return &s;
    return nullptr;
}

// A barrier that one tiled load fills and whose expect_tx count the PTX shows: the map's box gets
// as many 128-byte rows (64 FLOAT16) as that count, so that the scenario keeps the kernel's value.
void Scaffolder::fitBoxesToTx() {
    for (const Sym& t : m_syms) {
        if (t.txBarrier.empty() || !t.fromPtx || t.value <= 0 || t.value % 128 || t.value / 128 > 256)
            continue;
        const auto& loads = m_loads[t.txBarrier];
        if (loads.size() != 1 || !loads[0].tiled2d || m_mapUses[loads[0].map] != 1) continue;
        Sym* map = named(loads[0].map);
        Sym* buf = named(loads[0].smem);
        const size_t at = map ? map->mapDecl.find("box=[64,64") : std::string::npos;
        if (!buf || at == std::string::npos) continue;
        map->mapDecl.replace(at, 10, "box=[64," + std::to_string(t.value / 128));
        buf->bytes = std::max(buf->bytes, static_cast<uint64_t>(t.value));
        m_txBytes[t.txBarrier] = static_cast<uint64_t>(t.value);
    }
}

std::string Scaffolder::text(const std::string& source) {
    fitBoxesToTx();
    for (Sym& s : m_syms)
        if (!s.txBarrier.empty()) {
            const uint64_t b = m_txBytes.count(s.txBarrier) ? m_txBytes[s.txBarrier] : 0;
            if (s.fromPtx && static_cast<uint64_t>(s.value) != b)
                s.comment += "; the default is the " + std::to_string(b) + " bytes the default maps deliver";
            s.value = static_cast<int64_t>(b);
        }
    // The PTX variables' sizes, unless together they exceed a CTA's shared memory (1 KiB reserved,
    // up to 1 KiB of alignment each): then only what the instructions need.
    uint64_t total = 1024;
    for (const Sym& s : m_syms)
        total += s.kind == Kind::Smem  ? std::max(s.bytes, s.declaredBytes) + 1024
                 : s.kind == Kind::Bar ? 8
                                       : 0;
    const bool useDeclared = total <= kSmemBytesPerCta;
    if (!useDeclared)
        for (Sym& s : m_syms)
            if (s.kind == Kind::Smem && s.declaredBytes > s.bytes)
                s.comment += "; the PTX declares " + std::to_string(s.declaredBytes) +
                             " bytes, more than a scenario CTA holds with the rest";
    std::string o =
        "# Scaffold of kernel `" + m_fn.name + "` (" + source +
        "), written by layoutscope-cli scaffold.\n"
        "# Its data-movement instructions in program order; each declaration below stands for a\n"
        "# register of the PTX (the comment names its line). FILL: replace the defaults with the\n"
        "# kernel's real values (tensor map parameters, coordinates, addresses); as written it runs.\n";
    o += "target " + m_mod.target.sm + "\nptx " + std::to_string(m_mod.target.ptxMajor) + "." +
         std::to_string(m_mod.target.ptxMinor) + "\n";
    const char* titles[] = {"# Tensor maps (FILL: the CUtensorMap the kernel receives)",
                            "# Shared memory (FILL: sizes and alignment)", "# mbarriers",
                            "# Shared-memory descriptors (FILL: lbo, sbo, swizzle)", "# Values (FILL)"};
    for (int k = 0; k < 5; ++k) {
        bool any = false;
        for (const Sym& s : m_syms) {
            if (int(s.kind) != k) continue;
            if (!any) o += "\n" + std::string(titles[k]) + "\n";
            any = true;
            switch (s.kind) {
            case Kind::Map:
                o += "tensormap " + s.name + " " + s.mapDecl;
                break;
            case Kind::Smem:
                o += "smem " + s.name + " " +
                     std::to_string(useDeclared ? std::max(s.bytes, s.declaredBytes) : s.bytes) +
                     " align=1024";
                break;
            case Kind::Bar:
                o += "mbarrier " + s.name;
                break;
            case Kind::Desc:
                o += "desc " + s.name + " start=" + s.descBuf + " lbo=16 sbo=1024 swizzle=128B";
                break;
            case Kind::Let:
                o += "let " + s.name + " = " + std::to_string(s.value);
                break;
            }
            o += "  # " + s.comment + "\n";
        }
    }
    o += "\n# Instructions (PTX lines as in " + source + ")\n";
    for (const auto& b : m_body) o += b + "\n";
    return o;
}

} // namespace layoutscope::scaffold
