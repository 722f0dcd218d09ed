#pragma once
/// Where a semantic rule comes from. Every rule the engine applies carries one, and the CLI and GUI
/// show it, so a user always knows whether what they see was measured or inferred.
namespace layoutscope {

enum class Provenance {
    HardwareSm90, ///< measured on an H100 (sm_90a) — ../shared/golden/tma, tma.md [HW-sm90]
    Ptxas,        ///< accepted/rejected by CUDA 13 ptxas
    CudaDriver,   ///< CUDA 13 driver behaviour (cuTensorMapEncode*), observed
    CudaHeader,   ///< cuda.h / cuda_fp*.h text or code
    Cute,         ///< CUTLASS / CuTe sources
    PtxText,      ///< PTX ISA text (9.2 unless stated)
    Assumption,   ///< working assumption, unverified (see ../shared/ref/open-questions.md)
    ToolFormat,   ///< a rule of Layoutscope's own file formats (docs/*.md): nothing about hardware to verify
};

/// Short tag for tables: "HW sm_90", "ptxas", "driver", "cuda.h", "CuTe", "PTX", "assumed".
[[nodiscard]] const char* provenanceTag(Provenance p);
/// True when the rule was confirmed by a tool or hardware rather than read or assumed.
[[nodiscard]] bool isVerified(Provenance p);

} // namespace layoutscope
