#version 330 core
// One quad covering the world rectangle of a cell grid; the fragment shader looks up the cell.
// uRect = (x0, y0, x1, y1) in world units (cells); uViewProj = Camera2D::viewProjection().
layout(location = 0) in vec2 aCorner; // (0,0) .. (1,1)
uniform mat4 uViewProj;
uniform vec4 uRect;
out vec2 vWorld;
void main() {
    vWorld = mix(uRect.xy, uRect.zw, aCorner);
    gl_Position = uViewProj * vec4(vWorld, 0.0, 1.0);
}
