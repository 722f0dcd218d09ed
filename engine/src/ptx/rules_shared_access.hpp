#pragma once
/// Internal to the PTX validator: what the shared-memory ld / st / atom / red tables have in common
/// (rules_ldst_shared.cpp, rules_atom_shared.cpp): which instructions they claim, the address operand
/// and the registers a value of a type may sit in, as CUDA 13.0 ptxas decides them
/// (tests/data/ptxas_front/ldst.jsonl.gz).
#include "ptx/rules.hpp"

#include <string>

namespace layoutscope::ptx {

/// A shared state space (`.shared`, `.shared::cta`, `.shared::cluster`) among the qualifiers: the
/// instruction is data movement into shared memory and one of these tables judges it whole. Without
/// one (generic, `.global`, `.local` ...) it is not ours: `check` counts it as not checked. `st.async`,
/// `red.async` and `st.bulk` are other instructions with tables of their own (rules_async_st.cpp,
/// rules_st_bulk.cpp).
[[nodiscard]] bool namesSharedSpace(const ParsedInstr& in);

/// The qualifier spellings ptxas 13.0 knows for ld/st/atom/red but rejects on shared memory, with the
/// reason (each one checked with ptxas 13.0; the message names the fix).
[[nodiscard]] std::vector<IllegalQual> sharedIllegalHints();

/// The bit width of a type qualifier (".u32" -> 32, ".f16x2" -> 32, ".pred" -> 1), 0 if unknown.
[[nodiscard]] int typeBits(const std::string& type);

/// `[base]` / `[base+imm]` / `[base+-imm]` with base any register or a shared variable (ptxas 13.0:
/// 16-, 32- and 64-bit registers all hold a shared address; an immediate address is only for
/// `.local`: "Immediate addresses allowed only for .local state space").
bool expectSharedAddress(Checker& c, const Operand& op, const char* ref);

/// An immediate value operand of `type` written as ptxas 13.0 takes it: `.f32`/`.f64` a floating-point
/// literal (`0f...` or `0d...`), `.b32` an integer or `0f...`, `.b64` an integer or `0d...`, the other
/// integer types an integer; `.f16`/`.bf16` and their x2 forms none. Reports and returns false otherwise;
/// true for an operand that is not an immediate.
bool checkImmediate(Checker& c, const Operand& op, const std::string& type, const std::string& role,
                    const char* ref);

} // namespace layoutscope::ptx
