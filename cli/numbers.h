#pragma once
// Comma-separated numbers on the command line ("a,b,c"), read the same way by every command.

#include <charconv>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

/// `text` as one finite number, the whole of it (locale-independent, a leading '+' allowed):
/// false when it is not one.
inline bool parseFinite(const std::string& text, double& x) {
  const char* first = text.data() + (text.size() > 1 && text[0] == '+' ? 1 : 0);
  const auto r = std::from_chars(first, text.data() + text.size(), x);
  return !text.empty() && r.ec == std::errc() && r.ptr == text.data() + text.size() && std::isfinite(x);
}

/// "a,b,c" as finite numbers (locale-independent; spaces around an item and a leading '+' are
/// allowed). Throws std::invalid_argument naming `option` and the item that is not a number
/// ("--q: 'x' is not a number").
inline std::vector<double> parseNumbers(const std::string& list, const std::string& option) {
  std::vector<double> out;
  std::stringstream ss(list);
  std::string item;
  while (std::getline(ss, item, ',')) {
    const std::size_t b = item.find_first_not_of(" \t"), e = item.find_last_not_of(" \t");
    const std::string text = b == std::string::npos ? std::string() : item.substr(b, e - b + 1);
    double x = 0;
    if (!parseFinite(text, x)) throw std::invalid_argument(option + ": '" + item + "' is not a number");
    out.push_back(x);
  }
  return out;
}

/// One number as an option's value: finite and within [lo, hi] (locale-independent, a leading
/// '+' allowed). Returns "" when it is, else the reason, shortened for a long value; CLI11 puts
/// the option's name before it. NaN and infinities are refused, as every range check passes them
/// by comparison.
inline std::string checkFiniteIn(const std::string& text, double lo, double hi) {
  const std::string shown = text.size() > 40 ? text.substr(0, 37) + "..." : text;
  double x = 0;
  if (!parseFinite(text, x)) return "'" + shown + "' is not a finite number";
  if (!(x >= lo && x <= hi)) {
    std::ostringstream s;
    s << "'" << shown << "' is outside [" << lo << ", " << hi << "]";
    return s.str();
  }
  return "";
}

/// The CLI11 check of checkFiniteIn for an option: `->check(finiteIn(lo, hi))`.
inline CLI::Validator finiteIn(double lo, double hi) {
  std::ostringstream range;
  range << "NUMBER in [" << lo << ", " << hi << "]";
  return CLI::Validator([lo, hi](std::string& v) { return checkFiniteIn(v, lo, hi); }, range.str());
}

/// Whether two paths name the same existing file (through links and different spellings).
inline bool sameFile(const std::string& a, const std::string& b) {
  std::error_code ec;
  return std::filesystem::equivalent(a, b, ec) && !ec;
}
