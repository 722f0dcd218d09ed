#pragma once
/// Internal to the executor: the decoded form of the matrix instructions (PTX ISA 9.2 §9.7.9.25 cp.async,
/// §9.7.14 mma.sync / ldmatrix / stmatrix / movmatrix, §9.7.15 wgmma), kept in Program::mmaForms and named
/// by Op::form. decode_mma.cpp fills it; cp_async.cpp, ldmatrix.cpp, mma_sync.cpp and wgmma.cpp run it.
#include <cstdint>

namespace layoutscope::exec {

/// Element formats of matrix operands.
enum class ME : uint8_t { None, F16, BF16, TF32, E4M3, E5M2, F32, F64, S8, U8, S32, S4, U4, B1 };

[[nodiscard]] inline uint32_t meBits(ME e) {
    switch (e) {
    case ME::F16:
    case ME::BF16:
        return 16;
    case ME::E4M3:
    case ME::E5M2:
    case ME::S8:
    case ME::U8:
        return 8;
    case ME::S4:
    case ME::U4:
        return 4;
    case ME::B1:
        return 1;
    case ME::F64:
        return 64;
    case ME::None:
        return 0;
    default:
        return 32;
    }
}

struct MmaForm {
    uint16_t m = 0, n = 0, k = 0;
    ME a = ME::None, b = ME::None, c = ME::None, d = ME::None;
    bool satfinite = false;
    uint8_t bitOp = 0;       ///< mma.sync .b1: 1 .and.popc, 2 .xor.popc (§9.7.14.5.14)
    bool aRegs = false;      ///< wgmma: A from registers (else a shared-memory descriptor)
    bool rowA = true;        ///< mma.sync .row/.col of A (m8n8k4 f64 and the k16/k32 forms: .row.col only)
    uint8_t num = 1;         ///< ldmatrix/stmatrix: .x1/.x2/.x4
    uint8_t shape = 0;       ///< ldmatrix/stmatrix: 0 .m8n8 (.b16), 1 .m16n16, 2 .m8n16, 3 .m16n8 (.b8 forms)
    uint8_t srcBits = 8;     ///< ldmatrix .b8x16 decompression: 6 (.b6x16_p32), 4 (.b4x16_p64), else 8
    bool trans = false;      ///< ldmatrix/stmatrix/movmatrix .trans
    uint8_t cpSize = 0;      ///< cp.async: 4, 8 or 16 bytes
    bool ignoreSrc = false;  ///< cp.async: operand 3 is the ignore-src predicate (else src-size)
    bool hasSrcSize = false; ///< cp.async: operand 3 is given
    bool noinc = false;      ///< cp.async.mbarrier.arrive.noinc
    int waitN = -1;          ///< cp.async.wait_group N / wgmma.wait_group N; -1: wait_all
    int8_t scaleA = 1, scaleB = 1;       ///< wgmma imm-scale-a / imm-scale-b (1 or -1)
    bool transA = false, transB = false; ///< wgmma imm-trans-a / imm-trans-b (MN-major operand)
    bool sparse = false;    ///< wgmma.mma_async.sp / mma.sp: A stored K/2 wide, sp-meta is Op::o.back()
    uint8_t spSel = 0;      ///< wgmma.mma_async.sp sp-sel / mma.sp sparsity selector f
    bool spOrdered = false; ///< mma.sp::ordered_metadata (indices must increase from the LSB)
};

} // namespace layoutscope::exec
