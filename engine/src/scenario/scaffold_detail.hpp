#pragma once
// Internal: the Scaffolder that turns a PTX kernel's data-movement instructions into a scenario
// (scaffold.cpp: the entry point and the per-instruction dispatch; scaffold_operands.cpp: each operand
// as a declaration; scaffold_text.cpp: the scenario text).
#include "layoutscope/scenario/scaffold.hpp"

#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace layoutscope::scaffold {

enum class Kind { Map, Smem, Bar, Desc, Let };

struct Sym {
    Kind kind;
    std::string name;
    std::string comment;
    uint64_t bytes = 0;         // smem: bytes the instructions need
    uint64_t declaredBytes = 0; // smem: the PTX variable's size
    std::string mapDecl;        // map: the directive's options
    int64_t value = 0;          // let
    bool fromPtx = false;       // let: the value is the PTX's
    std::string txBarrier;      // let: an expect_tx count for this barrier (computed at the end)
    std::string descBuf;        // desc: its buffer
};

class Scaffolder {
  public:
    Scaffolder(const PtxModule& m, const PtxFunction& fn) : m_mod(m), m_fn(fn) {}

    std::string run(const std::string& source);

  private:
    const PtxModule& m_mod;
    const PtxFunction& m_fn;
    const PtxModuleInstr* m_cur = nullptr;
    std::deque<Sym> m_syms; // a deque: references stay valid while more declarations are added
    std::map<std::string, size_t> m_byKey;
    std::set<std::string> m_names;
    std::vector<std::string> m_body;
    std::map<std::string, uint64_t> m_txBytes; // barrier -> bytes the default loads deliver
    struct Load {
        std::string map, smem;
        bool tiled2d; // a tiled load of rank >= 2 (its box rows can be chosen)
    };
    std::map<std::string, std::vector<Load>> m_loads; // barrier -> the loads that complete on it
    std::map<std::string, int> m_mapUses;

    const PtxRegOrigin* originOf(const std::string& reg) const {
        for (const auto& o : m_cur->origins)
            if (o.reg == reg) return &o;
        return nullptr;
    }
    std::string lineNote(const Operand& op) const {
        return "line " + std::to_string(op.span.line) + " `" + op.text + "`";
    }

    // The declaration standing for operand `op` in role `kind` (created on first use).
    Sym& sym(Kind kind, const Operand& op, const char* prefix);
    // A scalar value operand: immediates stay, registers and symbols become `let` names. A value the
    // PTX moved into the register is kept when the scenario accepts it here ([lo, hi], a power of two
    // if `pow2`), else the default is used and the comment says so.
    std::string value(const Operand& op, int64_t dflt, int64_t lo = INT32_MIN, int64_t hi = UINT32_MAX,
                      bool pow2 = false);
    std::string vec(const Operand& op, int64_t dflt);
    std::string addr(const Operand& op, Kind kind, const char* prefix, uint64_t bytes = 0);
    // tcgen05.ld/st registers: kept, renumbered from 0 when a number is beyond the scenario's r0..r127.
    static std::string regs(const Operand& op);

    void tma(const ParsedInstr& in, std::vector<std::string>& ops);
    void mbarrier(const ParsedInstr& in, std::vector<std::string>& ops);
    void tcgen05(const ParsedInstr& in, std::vector<std::string>& ops);
    void instruction(const PtxModuleInstr& mi);

    Sym* named(const std::string& name);
    // A barrier that one tiled load fills and whose expect_tx count the PTX shows: the map's box gets
    // as many 128-byte rows (64 FLOAT16) as that count, so that the scenario keeps the kernel's value.
    void fitBoxesToTx();
    std::string text(const std::string& source);
};

} // namespace layoutscope::scaffold
