#include "layoutscope/core/result.hpp"

namespace layoutscope {

const char* diagCodeName(DiagCode c) {
    switch (c) {
    case DiagCode::Syntax:
        return "syntax";
    case DiagCode::UnknownName:
        return "unknown-name";
    case DiagCode::InvalidValue:
        return "invalid-value";
    case DiagCode::Unsupported:
        return "unsupported";
    case DiagCode::TargetMismatch:
        return "target";
    case DiagCode::FaultIllegalInstruction:
        return "cudaErrorIllegalInstruction";
    case DiagCode::FaultMisalignedAddress:
        return "cudaErrorMisalignedAddress";
    case DiagCode::FaultLaunchFailure:
        return "cudaErrorLaunchFailure";
    case DiagCode::Io:
        return "io";
    }
    return "?";
}

std::string formatDiagnostic(const Diagnostic& d, const std::string& file) {
    std::string out;
    if (!file.empty()) out += file + ":";
    if (d.span.valid()) out += std::to_string(d.span.line) + ":" + std::to_string(d.span.column) + ":";
    if (!out.empty()) out += " ";
    out += d.severity == Severity::Error     ? "error: "
           : d.severity == Severity::Warning ? "warning: "
                                             : "note: ";
    out += d.message;
    out += " [";
    out += d.ruleRef.empty() ? diagCodeName(d.code) : d.ruleRef;
    // Provenance belongs to semantic rules only: an I/O error (cannot open, size limit, out of memory)
    // is a fact about this machine, and a rule of Layoutscope's own file formats (its ruleRef names the
    // docs page) is neither verified on hardware nor an assumption.
    if (d.code != DiagCode::Io && d.provenance != Provenance::ToolFormat) {
        out += "; ";
        out += provenanceTag(d.provenance);
    }
    out += "]";
    return out;
}

} // namespace layoutscope
