#pragma once
/// Result<T> and diagnostics: every fallible engine call returns one; no exception crosses the
/// engine boundary. A Diagnostic names the rule it enforces (ruleRef) and where the rule comes
/// from (Provenance), so the CLI and GUI can say whether a behaviour is verified or inferred.
#include "layoutscope/core/provenance.hpp"

#include <cassert>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#define LAYOUTSCOPE_ASSERT(cond) assert(cond)

namespace layoutscope {

/// 1-based line and column of a piece of source text; line 0 means "no text" (API-built objects).
struct SourceSpan {
    int line = 0;
    int column = 0;
    int length = 0;
    [[nodiscard]] bool valid() const { return line > 0; }
};

enum class Severity { Error, Warning, Note };

/// What kind of rule a diagnostic reports. Hardware faults carry the CUDA error they raise.
enum class DiagCode {
    Syntax,                  ///< scenario / PTX text does not parse
    UnknownName,             ///< a symbol (tensor map, buffer, barrier) is not declared
    InvalidValue,            ///< a parameter is outside what the rule allows (e.g. encode rejects)
    Unsupported,             ///< valid PTX/driver input that this build does not model yet
    TargetMismatch,          ///< form not available on the chosen target / PTX version
    FaultIllegalInstruction, ///< the hardware raises cudaErrorIllegalInstruction
    FaultMisalignedAddress,  ///< the hardware raises cudaErrorMisalignedAddress
    FaultLaunchFailure,      ///< the hardware raises cudaErrorLaunchFailure
    Io,                      ///< a file could not be read or written
};

[[nodiscard]] const char* diagCodeName(DiagCode c);

struct Diagnostic {
    Severity severity = Severity::Error;
    DiagCode code = DiagCode::InvalidValue;
    SourceSpan span;
    std::string message; ///< plain words: what is wrong and, where likely, how to fix it
    std::string ruleRef; ///< e.g. "cuda.h cuTensorMapEncodeTiled: boxDim[i] <= 256", "PTX ISA 9.2 §5.5.3.1"
    Provenance provenance = Provenance::PtxText;
};

/// `file:line:col: error: message [rule; provenance]` — the form editors and CI understand.
/// DiagCode::Io diagnostics carry no provenance: `file: error: cannot open ... [rule]`.
[[nodiscard]] std::string formatDiagnostic(const Diagnostic& d, const std::string& file = "");

template <class T>
class [[nodiscard]] Result {
  public:
    Result(T value) : m_v(std::move(value)) {}
    Result(Diagnostic d) : m_v(std::vector<Diagnostic>{std::move(d)}) {}
    Result(std::vector<Diagnostic> ds) : m_v(std::move(ds)) { LAYOUTSCOPE_ASSERT(!std::get<1>(m_v).empty()); }

    [[nodiscard]] bool ok() const { return m_v.index() == 0; }
    explicit operator bool() const { return ok(); }
    T& value() & {
        LAYOUTSCOPE_ASSERT(ok());
        return std::get<0>(m_v);
    }
    const T& value() const& {
        LAYOUTSCOPE_ASSERT(ok());
        return std::get<0>(m_v);
    }
    T&& value() && {
        LAYOUTSCOPE_ASSERT(ok());
        return std::get<0>(std::move(m_v));
    }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() { return value(); }
    const T& operator*() const { return value(); }
    [[nodiscard]] const std::vector<Diagnostic>& diagnostics() const {
        LAYOUTSCOPE_ASSERT(!ok());
        return std::get<1>(m_v);
    }
    [[nodiscard]] const Diagnostic& error() const { return diagnostics().front(); }

  private:
    std::variant<T, std::vector<Diagnostic>> m_v;
};

/// Result of a call with no value.
struct Unit {};
using Status = Result<Unit>;
inline Status okStatus() {
    return Unit{};
}

} // namespace layoutscope
