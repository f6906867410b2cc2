// The message of the exception of type E that `run` throws; a test failure if it throws none (or another).
#pragma once

#include <gtest/gtest.h>

#include <exception>
#include <functional>
#include <string>

namespace bs::testing {

template <class E>
std::string message_of(const std::function<void()>& run) {
    try {
        run();
    } catch (const E& e) {
        return e.what();
    } catch (const std::exception& e) {
        ADD_FAILURE() << "another type was thrown: " << e.what();
        return "";
    }
    ADD_FAILURE() << "nothing was thrown";
    return "";
}

}  // namespace bs::testing
