#pragma once
/// SmemSceneCache: smemSceneAt for playback and scrubbing without replaying every move from step 0.
/// Keeps each byte's last move and base colour at its current step, applies only the moves between
/// the old and the new step going forwards, and restarts from a checkpoint (taken on the way, at most
/// ~32 per trace) going backwards. Output equals smemSceneAt (tested), fade trail included.
#include "scene/smem_scene.hpp"

#include <map>

namespace layoutscope::views {

class SmemSceneCache {
  public:
    /// Returns the scene of `doc` at `step` for `cta` (same arguments as smemSceneAt). Rebuilds its
    /// state when the document, the frames or the CTA change.
    const SmemScene& sceneAt(const Document& doc, uint32_t step, const std::vector<BoxFrame>& frames,
                             uint32_t cta, uint32_t fadeSteps = 0);
    /// The frames moved to another vector (same elements, same storage: std::move of the vector): keep
    /// the state instead of rebuilding it at the next sceneAt. No effect when `frames` holds other data.
    void rebindFrames(const std::vector<BoxFrame>& frames) {
        if (frames.data() == m_framesData) m_frames = &frames;
    }

  private:
    struct State {
        std::vector<int32_t> moveOf;
        std::vector<Rgba8> texels; ///< colour + kFlagWritten/kFlagFill, no current/fade
    };
    void reset(const Document& doc, const std::vector<BoxFrame>& frames, uint32_t cta);
    void applyMoves(size_t lo, size_t hi);
    [[nodiscard]] Rgba8 colourOf(size_t move, uint32_t k) const;

    const Document* m_doc = nullptr;
    const std::vector<BoxFrame>* m_frames = nullptr;
    const BoxFrame* m_framesData = nullptr;
    uint32_t m_cta = 0;
    SmemWindow m_window;
    State m_state;
    uint32_t m_step = 0;
    uint32_t m_spacing = 256;
    std::map<uint32_t, State> m_checkpoints;
    SmemScene m_out;
};

} // namespace layoutscope::views
