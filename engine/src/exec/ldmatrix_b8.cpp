// The sm_100 .b8 forms of ldmatrix / stmatrix (PTX ISA 9.2 §9.7.14.5.15-16):
//   ldmatrix.sync.aligned.m16n16.{x1,x2}.trans.shared.b8 | .b8x16.{b6x16_p32,b4x16_p64}   (2 registers /
//   matrix) ldmatrix.sync.aligned.m8n16.{x1,x2,x4}.shared.b8x16.{b6x16_p32,b4x16_p64}             (1 register
//   / matrix) stmatrix.sync.aligned.m16n8.{x1,x2,x4}.trans.shared.b8                                (1
//   register / matrix)
// Every row is 16 shared bytes at a 16-byte aligned address given by one thread: matrix q's row r by thread
// 16q + r (.m16n16) or 8q + r (.m8n16, .m16n8). Byte k of a thread's register (k = 0..3, low byte first):
//   .m16n16 .trans, register 2q + j:  element t/4 + 8j of row 4(t%4) + k      (the logical 16x16 matrix's
//                                     row t/4 + 8j, columns 4(t%4)..+3: "4 consecutive columns across 2
//                                     rows")
//   .m8n16, register q:               element 4(t%4) + k of row t/4             ("4 consecutive columns")
//   stmatrix .m16n8 .trans, reg q:    row 2(t%4) + k%2, byte t/4 + 8(k/2)       (the m16n8 accumulator
//   layout:
//                                     rows t/4 and t/4 + 8, columns 2(t%4), 2(t%4) + 1, stored transposed)
// .b6x16_p32 rows hold 16 6-bit values packed in bytes 0..11 (element e = bits [6e, 6e+6) of the
// little-endian 96-bit value), .b4x16_p64 rows 16 4-bit values in bytes 0..7 (bits [4e, 4e+4)); each lands
// zero-extended in its byte (bits [5:0] / [3:0]); plain .b8 rows hold the 16 bytes. unverified: the maps
// above are read from the PTX ISA's text and CUTLASS's copy traits for these instructions
// (cute/atom/copy_traits_sm100.hpp SM100_U8x8_LDSM_T ... SM100_U8x16_STSM_T, whose LDSM_T copy regroups the
// bytes as stated there), not measured on sm_100 hardware; so is where a 6- or 4-bit value sits in its byte.
#include "exec/mma_exec.hpp"

#include <array>
#include <cstring>

namespace layoutscope::exec {

namespace {

constexpr const char* kRef = "PTX ISA 9.2 §9.7.14.5.15-16 (ldmatrix / stmatrix .b8 shapes)";

// Element e of a 16-byte source row, as the byte the register receives.
uint8_t element(const uint8_t* row, uint32_t e, uint32_t srcBits) {
    if (srcBits == 8) return row[e];
    uint8_t packed[16] = {};
    std::memcpy(packed, row, srcBits == 6 ? 12 : 8);
    const uint32_t bit = e * srcBits;
    uint32_t v = 0;
    for (uint32_t b = 0; b < srcBits; ++b) v |= uint32_t(packed[(bit + b) / 8] >> ((bit + b) % 8) & 1) << b;
    return uint8_t(v);
}

void noteUnverified(Machine& m, const Op& op) {
    for (const Diagnostic& d : m.notes)
        if (d.span.line == op.line && d.ruleRef == kRef) return;
    if (m.notes.size() < 16)
        m.notes.push_back(
            {Severity::Warning,
             DiagCode::Unsupported,
             {op.line, op.column, 1},
             "`" + op.text +
                 "`: the fragment layout of the .b8 ldmatrix/stmatrix shapes is read from the PTX "
                 "ISA text and CUTLASS's copy traits (unverified: not measured on sm_100 hardware)",
             kRef,
             Provenance::Assumption});
}

} // namespace

void orderRows(Machine& m, Warp& w, const Op& op, const std::array<uint64_t, 32>& rowAddr, uint32_t n,
               bool st); // ldmatrix.cpp

bool execLdStMatrixB8(Machine& m, Warp& w, const Op& op) {
    const MmaForm& f = m.p.mmaForms[size_t(op.form)];
    const bool st = op.opc == Opc::Stmatrix;
    const Opnd& mem = st ? op.o[0] : op.o[1];
    const Opnd& regs = st ? op.o[1] : op.o[0];
    const Space space = op.space == Space::Generic ? Space::Generic : Space::Shared;
    const uint32_t rowsPerMatrix = f.shape == 1 ? 16 : 8, nRows = rowsPerMatrix * f.num;
    std::array<uint8_t*, 32> row{};
    std::array<uint64_t, 32> addr{};
    for (uint32_t r = 0; r < nRows; ++r) {
        const uint64_t a = addr[r] = memAddress(m, w, mem, int(r));
        if (a % 16 != 0)
            return m.fail(op, DiagCode::FaultMisalignedAddress,
                          "row address of " + m.who(w, int(r)) +
                              " is not 16-byte aligned (each row is 16 bytes; " + kRef + ")");
        row[r] = resolve(m, w, op, space, a, 16, int(r), st);
        if (!row[r]) return false;
    }
    orderRows(m, w, op, addr, nRows, st);
    const uint32_t regsPerMatrix = f.shape == 1 ? 2 : 1;
    for (uint32_t t = 0; t < 32; ++t)
        for (uint32_t q = 0; q < f.num; ++q)
            for (uint32_t j = 0; j < regsPerMatrix; ++j) {
                const int slot = vecReg(regs, q * regsPerMatrix + j);
                uint32_t v = st && slot >= 0 ? uint32_t(m.reg(w, uint32_t(slot), int(t))) : 0;
                for (uint32_t k = 0; k < 4; ++k) {
                    if (st) { // .m16n8 .trans
                        row[8 * q + 2 * (t % 4) + k % 2][t / 4 + 8 * (k / 2)] = uint8_t(v >> (8 * k));
                        continue;
                    }
                    const uint8_t b = f.shape == 1
                                          ? element(row[16 * q + 4 * (t % 4) + k], t / 4 + 8 * j, f.srcBits)
                                          : element(row[8 * q + t / 4], 4 * (t % 4) + k, f.srcBits);
                    v |= uint32_t(b) << (8 * k);
                }
                if (!st && slot >= 0) m.reg(w, uint32_t(slot), int(t)) = v;
            }
    noteUnverified(m, op);
    return true;
}

} // namespace layoutscope::exec
