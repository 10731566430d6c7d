#pragma once
// Errors are values: every fallible core function returns Result<T>, whose error carries a
// message a person can act on (it names the path, field or value and what to do).
#include <string>
#include <utility>
#include <variant>

namespace readscope {

struct Error {
    std::string message;
};

template <class T> class [[nodiscard]] Result {
public:
    Result(T value) : state_(std::in_place_index<0>, std::move(value)) {}
    Result(Error error) : state_(std::in_place_index<1>, std::move(error)) {}

    bool ok() const { return state_.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & { return std::get<0>(state_); }
    const T& value() const& { return std::get<0>(state_); }
    T&& value() && { return std::get<0>(std::move(state_)); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

    const Error& error() const { return std::get<1>(state_); }

private:
    std::variant<T, Error> state_;
};

struct Ok {};

// Result<void> stand-in: Status is Result<Ok>.
using Status = Result<Ok>;
inline Status okStatus() { return Ok{}; }

} // namespace readscope
