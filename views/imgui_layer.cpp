#include "imgui_layer.hpp"

#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <QFileInfo>
#include <algorithm>

namespace layoutscope::views {

namespace {
constexpr const char* kMonoFont = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";

struct ContextScope { // make a context current for the scope, restore the previous one after
    explicit ContextScope(ImGuiContext* c) : prev(ImGui::GetCurrentContext()) { ImGui::SetCurrentContext(c); }
    ~ContextScope() { ImGui::SetCurrentContext(prev); }
    ImGuiContext* prev;
};

ImU32 col(Rgba8 c) {
    return IM_COL32(c.r, c.g, c.b, c.a);
}
} // namespace

ImGuiLayer::~ImGuiLayer() {
    // The backend's GL objects need a current GL context: owners call shutdown() in time. Here we
    // only release the CPU side so nothing leaks if they could not.
    if (m_ctx) {
        ImGui::DestroyContext(m_ctx);
        m_ctx = nullptr;
    }
}

bool ImGuiLayer::init() {
    if (m_ctx) return true;
    ImGuiContext* prev = ImGui::GetCurrentContext();
    m_ctx = ImGui::CreateContext();
    ImGui::SetCurrentContext(m_ctx);
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.LogFilename = nullptr;
    ImGui::StyleColorsDark();
    ImGui::GetStyle().WindowRounding = 4.0f;
    ImGui::GetStyle().Colors[ImGuiCol_WindowBg].w = 0.94f;
    if (QFileInfo::exists(kMonoFont))
        io.Fonts->AddFontFromFileTTF(kMonoFont, 14.0f);
    else
        io.Fonts->AddFontDefault();
    m_backend = ImGui_ImplOpenGL3_Init("#version 330 core");
    ImGui::SetCurrentContext(prev);
    return m_backend;
}

void ImGuiLayer::shutdown() {
    if (!m_ctx) return;
    {
        ContextScope s(m_ctx);
        if (m_backend) ImGui_ImplOpenGL3_Shutdown();
        m_backend = false;
    }
    ImGui::DestroyContext(m_ctx);
    m_ctx = nullptr;
}

void ImGuiLayer::mouseMove(glm::vec2 pos) {
    if (!m_ctx) return;
    ContextScope s(m_ctx);
    ImGui::GetIO().MousePos = ImVec2(pos.x, pos.y);
}

void ImGuiLayer::mouseButton(int button, bool down) {
    if (!m_ctx || button < 0 || button >= 5) return;
    ContextScope s(m_ctx);
    ImGui::GetIO().MouseDown[button] = down;
}

void ImGuiLayer::mouseWheel(float dy) {
    if (!m_ctx) return;
    ContextScope s(m_ctx);
    ImGui::GetIO().MouseWheel += dy;
}

void ImGuiLayer::mouseLeave() {
    if (!m_ctx) return;
    ContextScope s(m_ctx);
    ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
}

bool ImGuiLayer::wantsMouse() const {
    if (!m_ctx) return false;
    ContextScope s(m_ctx);
    return ImGui::GetIO().WantCaptureMouse;
}

void ImGuiLayer::newFrame(glm::vec2 size, float dpr, float dtSeconds) {
    ImGui::SetCurrentContext(m_ctx);
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(size.x, size.y);
    io.DisplayFramebufferScale = ImVec2(dpr, dpr);
    io.DeltaTime = dtSeconds > 0 ? dtSeconds : 1.0f / 60.0f;
    ImGui_ImplOpenGL3_NewFrame();
    ImGui::NewFrame();
}

void ImGuiLayer::render() {
    ImGui::SetCurrentContext(m_ctx);
    ImGui::Render();
    const ImDrawData* dd = ImGui::GetDrawData();
    m_lastDrawCmds = 0;
    for (int i = 0; dd && i < dd->CmdListsCount; ++i) m_lastDrawCmds += dd->CmdLists[i]->CmdBuffer.Size;
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

/// Light canvas theme: greys inverted, coloured text darkened for contrast on a light background.
static Rgba8 lightText(Rgba8 c) {
    const int mx = std::max({c.r, c.g, c.b}), mn = std::min({c.r, c.g, c.b});
    if (mx - mn < 40) return Rgba8{uint8_t(255 - c.r), uint8_t(255 - c.g), uint8_t(255 - c.b), c.a};
    return Rgba8{uint8_t(c.r * 11 / 20), uint8_t(c.g * 11 / 20), uint8_t(c.b * 11 / 20), c.a};
}

void ImGuiLayer::drawOverlay(const OverlayList& o, glm::vec2 origin, bool light) {
    ImDrawList* dl = ImGui::GetBackgroundDrawList();
    const ImVec2 off(origin.x, origin.y);
    for (const OverlayList::Rect& r : o.rects) {
        const ImVec2 a(r.lo.x + off.x, r.lo.y + off.y), b(r.hi.x + off.x, r.hi.y + off.y);
        if (!r.filled) {
            dl->AddRect(a, b, col(r.colour), 0.0f, 0, 2.0f);
            continue;
        }
        // Header strips and banners are near-black fills: light in the light theme. Swatches keep
        // their colours (they must match the cells).
        const bool backdrop = std::max({r.colour.r, r.colour.g, r.colour.b}) < 32 && !r.hatched;
        dl->AddRectFilled(a, b, col(light && backdrop ? lightText(r.colour) : r.colour));
        if (r.hatched) { // dark diagonal stripes, like the cell shader's hatch
            dl->PushClipRect(a, b, true);
            for (float x = a.x - (b.y - a.y); x < b.x; x += 6.0f)
                dl->AddLine(ImVec2(x, b.y), ImVec2(x + (b.y - a.y), a.y), IM_COL32(0, 0, 0, 160), 2.0f);
            dl->PopClipRect();
        }
    }
    for (const OverlayList::Line& l : o.lines) {
        const ImVec2 a(l.a.x + off.x, l.a.y + off.y), b(l.b.x + off.x, l.b.y + off.y);
        if (l.bezier)
            dl->AddBezierCubic(a, ImVec2(l.c1.x + off.x, l.c1.y + off.y),
                               ImVec2(l.c2.x + off.x, l.c2.y + off.y), b, col(l.colour), l.width);
        else
            dl->AddLine(a, b, col(l.colour), l.width);
    }
    for (const OverlayList::Text& t : o.texts)
        dl->AddText(ImGui::GetFont(), ImGui::GetFontSize() * t.scale,
                    ImVec2(t.pos.x + off.x, t.pos.y + off.y), col(light ? lightText(t.colour) : t.colour),
                    t.text.c_str());
}

void ImGuiLayer::inspectorWindow(glm::vec2 cursor, glm::vec2 viewport, const std::string& text) {
    if (text.empty()) return;
    const ImVec2 size = ImGui::CalcTextSize(text.c_str());
    ImVec2 pos(cursor.x + 18, cursor.y + 18);
    // The window's size from this frame's text: an auto-resized window takes a frame to grow, and
    // that frame showed the text cut mid-line (issue 15).
    const ImGuiStyle& st = ImGui::GetStyle();
    const float w = std::max(size.x, ImGui::CalcTextSize("Inspector").x) + 2 * st.WindowPadding.x + 2,
                h = size.y + ImGui::GetTextLineHeight() + 3 * st.ItemSpacing.y + 2 * st.WindowPadding.y + 4;
    if (pos.x + w > viewport.x) pos.x = std::max(0.0f, cursor.x - w - 10);
    if (pos.y + h > viewport.y) pos.y = std::max(0.0f, cursor.y - h - 10);
    ImGui::SetNextWindowPos(pos);
    ImGui::SetNextWindowSize(ImVec2(w, h));
    ImGui::SetNextWindowBgAlpha(0.92f);
    ImGui::Begin("Inspector", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoInputs |
                     ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                     ImGuiWindowFlags_NoNav);
    ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.4f, 1.0f), "Inspector");
    ImGui::Separator();
    ImGui::TextUnformatted(text.c_str());
    ImGui::End();
}

void ImGuiLayer::messageWindow(glm::vec2 viewport, const std::string& title, const std::string& text) {
    ImGui::SetNextWindowPos(ImVec2(viewport.x * 0.5f, viewport.y * 0.4f), 0, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSizeConstraints(ImVec2(200, 0),
                                        ImVec2(std::max(240.0f, viewport.x - 40), viewport.y));
    ImGui::Begin(title.c_str(), nullptr,
                 ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoMove);
    ImGui::PushTextWrapPos(std::max(240.0f, viewport.x - 60));
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
    ImGui::End();
}

} // namespace layoutscope::views
