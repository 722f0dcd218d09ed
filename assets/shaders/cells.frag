#version 330 core
// Cell shading: one RGBA8 texel per cell (RGB colour, A = flag bits, see views/scene/cell_style.hpp).
// Mirrors views::shadeCell() exactly (the CPU export fallback and the tests use that one).
in vec2 vWorld;
uniform usampler2D uCells;   // GL_RGBA8UI: integer texels, fetched without filtering
uniform vec2 uOrigin;        // world position of texel (0, 0)
uniform vec2 uZoom;          // pixels per cell along x and y (not equal when a fit stretched the cells)
uniform ivec2 uGroup;        // stronger line every uGroup cells (0 = none)
uniform float uViewportH;    // framebuffer height in pixels (to flip gl_FragCoord to y-down)
out vec4 fragColor;

const uint kFlagFill = 2u;
const uint kFlagCurrent = 4u;
const uint kFlagRead = 32u;
const uint kFlagDiffers = 64u;
const uint kFlagReshuffled = 128u;
const vec3 kReadOutline = vec3(64.0, 230.0, 255.0) / 255.0;
const vec3 kDiffColour = vec3(255.0, 64.0, 160.0) / 255.0;
const vec3 kReshuffleColour = vec3(96.0, 108.0, 140.0) / 255.0;

void main() {
    ivec2 cell = ivec2(floor(vWorld - uOrigin));
    uvec4 t = texelFetch(uCells, cell, 0);
    vec3 c = vec3(t.rgb) / 255.0;
    vec2 px = vec2(gl_FragCoord.x, uViewportH - gl_FragCoord.y);
    if ((t.a & kFlagFill) != 0u) {
        int k = (int(floor(px.x)) + int(floor(px.y))) & 7;
        if (k < 3) c *= 0.35;
    }
    if ((t.a & kFlagCurrent) != 0u) c = mix(c, vec3(1.0), 0.55);
    vec2 f = vWorld - floor(vWorld);
    float zMin = min(uZoom.x, uZoom.y); // size thresholds on the smaller side
    if ((t.a & kFlagRead) != 0u) { // an outline 2 px wide once cells are 6 px, else a tint
        vec2 w = 2.0 / max(uZoom, vec2(1.0));
        if (zMin < 6.0) {
            c = mix(c, kReadOutline, 0.6);
        } else if (f.x < w.x || f.y < w.y || f.x > 1.0 - w.x || f.y > 1.0 - w.y) {
            fragColor = vec4(kReadOutline, 1.0);
            return;
        }
    }
    if ((t.a & kFlagReshuffled) != 0u && (t.a & kFlagDiffers) == 0u) // compare: elsewhere in pane 1
        c = mix(c, kReshuffleColour, zMin < 6.0 ? 0.55 : 0.35);
    if ((t.a & kFlagDiffers) != 0u) { // a mismatch: seen at any zoom (issue 24 item 6)
        // Small cells (< 6 px) are nearly all magenta; larger ones keep their colour tinted inside an
        // inner outline whose width grows with the cell: 2 px at 6-11 px, 3 at 12-19, 4 at 20-27, ... 6 px from 36.
        float wpx = clamp(floor(zMin / 8.0 + 0.5) + 1.0, 2.0, 6.0);
        vec2 w = wpx / max(uZoom, vec2(1.0));
        c = mix(c, kDiffColour, zMin < 6.0 ? 0.8 : 0.4);
        if (zMin >= 6.0 && (f.x < w.x || f.y < w.y || f.x > 1.0 - w.x || f.y > 1.0 - w.y)) {
            fragColor = vec4(kDiffColour, 1.0);
            return;
        }
    }
    vec2 edge = 1.0 / uZoom;
    if (zMin >= 6.0 && (f.x < edge.x || f.y < edge.y)) c *= 0.55;
    if (zMin >= 2.0) {
        ivec2 cw = ivec2(floor(vWorld));
        bool gx = uGroup.x > 0 && (cw.x % uGroup.x) == 0 && f.x < edge.x;
        bool gy = uGroup.y > 0 && (cw.y % uGroup.y) == 0 && f.y < edge.y;
        if (gx || gy) c = vec3(0.08);
    }
    fragColor = vec4(c, 1.0);
}
