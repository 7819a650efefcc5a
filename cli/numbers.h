#pragma once
// Comma-separated numbers on the command line ("a,b,c"), read the same way by every command.

#include <charconv>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

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
    const char* first = text.data() + (text.size() > 1 && text[0] == '+' ? 1 : 0);
    double x = 0;
    const auto r = std::from_chars(first, text.data() + text.size(), x);
    if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size() || !std::isfinite(x))
      throw std::invalid_argument(option + ": '" + item + "' is not a number");
    out.push_back(x);
  }
  return out;
}
