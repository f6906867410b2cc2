// The geometry structs travel in device buffers and per-frame tables: plain, trivially copyable data.
#include <gtest/gtest.h>

#include <type_traits>

#include "engine/geometry/belt.hpp"
#include "engine/geometry/fan.hpp"

namespace bs {
namespace {

template <class T> constexpr bool all_trivially_copyable() {
    return std::is_trivially_copyable_v<Sphere<T>> && std::is_trivially_copyable_v<Circle<T>> &&
           std::is_trivially_copyable_v<Arc<T>> && std::is_trivially_copyable_v<HomogeneousPoint<T>> &&
           std::is_trivially_copyable_v<Cone<T>> && std::is_trivially_copyable_v<SurfacePoint<T>> &&
           std::is_trivially_copyable_v<JointEnd<T>> && std::is_trivially_copyable_v<SeparatorPlane<T>> &&
           std::is_trivially_copyable_v<PivotCircle<T>> && std::is_trivially_copyable_v<SheafPlane<T>> &&
           std::is_trivially_copyable_v<Generator<T>> && std::is_trivially_copyable_v<ArcCrossing<T>> &&
           std::is_trivially_copyable_v<Belt<T>> && std::is_trivially_copyable_v<SegmentEnd<T>> &&
           std::is_trivially_copyable_v<FanProjection<T>>;
}

TEST(GeometryTypes, AreTriviallyCopyableInFloatAndDouble) {
    EXPECT_TRUE(all_trivially_copyable<float>());
    EXPECT_TRUE(all_trivially_copyable<double>());
}

}  // namespace
}  // namespace bs
