#pragma once
/// TmemSceneCache: tmemSceneAt for scrubbing and playback. Instead of replaying every move from step 0
/// on each seek, it keeps the cells' colour/moveOf state at its current step, applies only the moves
/// between the old and the new step when going forwards, and restarts from a checkpoint (every
/// kCheckpointSteps steps, taken on the way) when going backwards. The result equals tmemSceneAt
/// (tested) except that a tcgen05.cp cell coloured from shared memory takes the SMEM colour of the
/// seek that first applied it.
#include "scene/tmem_scene.hpp"

#include <map>

namespace layoutscope::views {

class TmemSceneCache {
  public:
    static constexpr uint32_t kCheckpointSteps = 256;
    TmemSceneCache(const Document& doc, uint32_t cta);
    /// The scene at `step` (same meaning as tmemSceneAt(doc, step, cta, smemColour)).
    const TmemScene& seek(uint32_t step, const SmemColourFn& smemColour = {});
    [[nodiscard]] const TmemScene& scene() const { return m_out; }

  private:
    struct State {
        std::vector<Rgba8> texels; ///< colour, flag kFlagWritten only
        std::vector<int32_t> moveOf;
        bool mma = false; ///< a tcgen05.mma wrote its accumulator by this state's step
    };
    void applyMove(size_t i, const SmemColourFn& smemColour);
    void advanceTo(uint32_t step, const SmemColourFn& smemColour);

    const Document& m_doc;
    TmemScene m_shape; ///< firstCta, ctaCount (no cells)
    State m_state;
    uint32_t m_step = 0;                         ///< m_state holds the moves of steps < m_step
    std::map<uint32_t, State> m_checkpoints;     ///< step (multiple of kCheckpointSteps) -> state
    std::vector<uint32_t> m_regCounts;           ///< per instruction
    std::vector<std::pair<int, int>> m_cpFrames; ///< per instruction: source rows, chunks
    std::vector<size_t> m_allocMoves;
    TmemScene m_out;
};

} // namespace layoutscope::views
