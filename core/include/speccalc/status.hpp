// Errors as values: every failure in core names the JSON field path and the reason.
#pragma once

#include <string>
#include <utility>

namespace speccalc {

// A failure that a front end can show beside the offending field.
// `field` is a dotted JSON path ("method.k", "acceptance.p[1][0]"); empty when the
// whole document is at fault.
struct Error {
  std::string field;
  std::string message;
  // "field: message", or just the message when no field applies.
  std::string describe() const { return field.empty() ? message : field + ": " + message; }
};

// A value or an Error. Core never throws; callers branch on ok().
template <class T>
class Expected {
 public:
  Expected(T value) : ok_(true), value_(std::move(value)) {}       // NOLINT: implicit by design
  Expected(Error error) : ok_(false), error_(std::move(error)) {}  // NOLINT
  bool ok() const { return ok_; }
  const T& value() const { return value_; }
  T& value() { return value_; }
  const Error& error() const { return error_; }

 private:
  bool ok_;
  T value_{};
  Error error_{};
};

inline Error make_error(std::string field, std::string message) {
  return Error{std::move(field), std::move(message)};
}

}  // namespace speccalc
