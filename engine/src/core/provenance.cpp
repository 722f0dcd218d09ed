#include "layoutscope/core/provenance.hpp"

namespace layoutscope {

const char* provenanceTag(Provenance p) {
    switch (p) {
    case Provenance::HardwareSm90:
        return "measured on H100 (sm_90)";
    case Provenance::Ptxas:
        return "ptxas";
    case Provenance::CudaDriver:
        return "CUDA driver";
    case Provenance::CudaHeader:
        return "cuda.h";
    case Provenance::Cute:
        return "CUTLASS/CuTe";
    case Provenance::PtxText:
        return "PTX ISA text";
    case Provenance::Assumption:
        return "unverified assumption";
    case Provenance::ToolFormat:
        return "Layoutscope format";
    }
    return "?";
}

bool isVerified(Provenance p) {
    return p == Provenance::HardwareSm90 || p == Provenance::Ptxas || p == Provenance::CudaDriver;
}

} // namespace layoutscope
