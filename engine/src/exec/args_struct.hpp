#pragma once
/// Internal to the executor: by-value struct parameters (`.param .align A .b8 NAME[N]`: CuTe tensors and
/// copy atoms passed by value, `__grid_constant__ const CUtensorMap`) filled from `fields:...` or
/// `tensormap:...` (docs/exec.md "Struct and tensor-map parameters"), and the tensor map a TMA
/// instruction's operand points at, read back from its 128 bytes.
#include "exec/machine.hpp"
#include "layoutscope/tma/tensor_map.hpp"

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace layoutscope::exec {

/// Fill `dst` (prm.bytes, zeroed by the caller) from `a.structSpec`:
///   `fields:OFF=TYPE:VALUE,...`  TYPE u8..u64 s8..s64 f16 bf16 f32 f64 | ptr (VALUE a tensor name,
///                                optionally +BYTES) | tensormap (VALUE `{DESC}`, 128 bytes)
///   `tensormap:DESC`             the same as `fields:0=tensormap:{DESC}`
/// Errors name the rule: a field outside the N bytes, two fields overlapping, an offset that is not a
/// multiple of the field's size (its natural alignment), an unknown tensor, a bad tensor-map description.
[[nodiscard]] Status bindStruct(const PtxParam& prm, const ExecArg& a, const std::vector<ExecTensor>& tensors,
                                const std::string& sm, uint8_t* dst);

/// A 128-byte CUtensorMap from DESC: the scenario `tensormap` directive's options after its name
/// (`tiled FLOAT16 dims=[..] box=[..] ... address=TENSOR[+BYTES]`, encoded by encodeTiled/encodeIm2col
/// through the scenario parser) or a hex blob in `tensormap decode`'s formats, optionally re-pointed at a
/// tensor with a trailing `@TENSOR[+BYTES]` (cuTensorMapReplaceAddress).
[[nodiscard]] Result<std::array<uint8_t, 128>>
buildTensorMap(std::string_view desc, const std::vector<ExecTensor>& tensors, const std::string& sm);

/// The address of tensor NAME[+BYTES] (error: unknown tensor, listing the known ones).
[[nodiscard]] Result<uint64_t> tensorAddress(std::string_view ref, const std::vector<ExecTensor>& tensors);

/// The tensor map whose 128 bytes are at `addr` (`space`; generic addresses resolve as ld does) for `lane`,
/// decoded (decodeTensorMap) and cached per byte image. nullptr + m.error when the bytes cannot be read or
/// are no map an encode writes.
const TensorMap* tensorMapAt(Machine& m, Warp& w, const Op& op, Space space, uint64_t addr, int lane);

} // namespace layoutscope::exec
