// Per-frame pose tables: what a pose does to the bones, in the form each method's per-point pass reads.
// Built on the host from the posed bone transforms (bones × a few dozen bytes), uploaded once per frame.
#pragma once

#include <vector>

#include "engine/skinning_classic.hpp"

namespace bs {

// Skinning transform of each bone: posed ∘ rest⁻¹. Rest frames are the world axes (DESIGN §2a), so the
// skinning transform is the posed transform itself.
template <class T>
std::vector<Mat34<T>> lbs_table(const std::vector<Rigid<double>>& posed) {
    std::vector<Mat34<T>> table;
    table.reserve(posed.size());
    for (const Rigid<double>& g : posed) table.push_back(Mat34<T>::from_rigid(Rigid<T>(g)));
    return table;
}

template <class T>
std::vector<DualQuat<T>> dqs_table(const std::vector<Rigid<double>>& posed) {
    std::vector<DualQuat<T>> table;
    table.reserve(posed.size());
    for (const Rigid<double>& g : posed) table.push_back(DualQuat<T>(DualQuat<double>::from_rigid(g)));
    return table;
}

}  // namespace bs
