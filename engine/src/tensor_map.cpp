// placeholder: encode rules being written
#include "layoutscope/tensor_map.hpp"
namespace layoutscope {
Result<TensorMap> encodeTiled(const TensorMapTiledParams& p, TmaArch) {
    return TensorMap{p, elementBits(p.dataType)};
}
} // namespace layoutscope
