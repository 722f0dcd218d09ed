#pragma once
/// ImGuiLayer: one Dear ImGui context per GL surface, rendered with imgui's OpenGL3 backend
/// (inside Debian's libimgui.a) and fed from Qt events by hand (no GLFW/SDL).
/// Every call makes this layer's context current first, so several canvases can coexist.
#include "scene/overlay.hpp"

#include <glm/glm.hpp>
#include <string>

struct ImGuiContext;
struct ImDrawList;

namespace layoutscope::views {

class ImGuiLayer {
  public:
    ImGuiLayer() = default;
    ImGuiLayer(const ImGuiLayer&) = delete;
    ImGuiLayer& operator=(const ImGuiLayer&) = delete;
    ~ImGuiLayer();

    /// Create the context and the backend's GL objects; needs a current GL 3.3 core context.
    bool init();
    /// Release the backend's GL objects (GL context current) and the ImGui context.
    void shutdown();
    [[nodiscard]] bool ready() const { return m_ctx != nullptr; }

    void mouseMove(glm::vec2 pos);
    void mouseButton(int button, bool down);
    void mouseWheel(float dy);
    void mouseLeave();
    /// True when ImGui wants the mouse (the cursor is over one of its windows).
    [[nodiscard]] bool wantsMouse() const;

    /// Begin a frame of `size` logical pixels rendered at `dpr` device pixels per pixel.
    void newFrame(glm::vec2 size, float dpr, float dtSeconds);
    /// Finish the frame and draw it into the current framebuffer.
    void render();
    /// Draw commands (GL draw calls) of the last render(), for the benchmark's per-frame count.
    [[nodiscard]] int lastDrawCmds() const { return m_lastDrawCmds; }

    /// Draw overlay primitives (offset by `origin` pixels) into the background draw list.
    /// `light`: the light canvas theme (grey text inverted, coloured text darkened, the dark header and
    /// banner fills made light; legend swatches keep the cells' colours).
    static void drawOverlay(const OverlayList& o, glm::vec2 origin = {0, 0}, bool light = false);
    /// An inspector window next to `cursor` showing `text` (monospace).
    void inspectorWindow(glm::vec2 cursor, glm::vec2 viewport, const std::string& text);
    /// A message box centred in the view (errors, "no trace").
    static void messageWindow(glm::vec2 viewport, const std::string& title, const std::string& text);

  private:
    ImGuiContext* m_ctx = nullptr;
    int m_lastDrawCmds = 0;
    bool m_backend = false;
};

} // namespace layoutscope::views
