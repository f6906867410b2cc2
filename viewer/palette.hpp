// The viewer's fixed colours (8-bit sRGB), shared with the screenshot checks: the background and the
// ground grid are drawn flat (no lighting, no blending), so a pixel of exactly these values is not body.
#pragma once

#include <array>
#include <cstdint>

namespace bs::view {

using Rgb = std::array<std::uint8_t, 3>;

constexpr Rgb kBackground{28, 30, 36};
constexpr Rgb kGrid{62, 66, 76};
constexpr Rgb kGridAxis{92, 98, 112};

}  // namespace bs::view
