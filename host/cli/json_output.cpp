#include "cli/json_output.hpp"

#include <fmt/format.h>

namespace raceaccel {
namespace {

// Length of the well-formed UTF-8 sequence at s[i] (RFC 3629: no overlong
// forms, no surrogates, nothing above U+10FFFF), or 0 if there is none.
size_t utf8_sequence_length(std::string_view s, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b0 = byte(i);
  if (b0 < 0x80) return 1;
  size_t len = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    len = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3;
    if (b0 == 0xE0) lo = 0xA0;  // overlong
    if (b0 == 0xED) hi = 0x9F;  // surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4;
    if (b0 == 0xF0) lo = 0x90;  // overlong
    if (b0 == 0xF4) hi = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (size_t k = 2; k < len; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  }
  return len;
}

}  // namespace

std::string escape_invalid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const size_t len = utf8_sequence_length(text, i);
    if (len == 0) {
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(text[i]));
      ++i;
    } else {
      out.append(text, i, len);
      i += len;
    }
  }
  return out;
}

void escape_invalid_utf8(nlohmann::json& doc) {
  if (doc.is_string()) {
    doc = escape_invalid_utf8(doc.get_ref<const std::string&>());
  } else if (doc.is_array()) {
    for (nlohmann::json& item : doc) escape_invalid_utf8(item);
  } else if (doc.is_object()) {
    nlohmann::json escaped = nlohmann::json::object();
    for (auto& [key, value] : doc.items()) {
      escape_invalid_utf8(value);
      escaped[escape_invalid_utf8(key)] = std::move(value);
    }
    doc = std::move(escaped);
  }
}

void print_json(std::ostream& out, nlohmann::json doc) {
  escape_invalid_utf8(doc);
  out << doc.dump(2) << '\n';
}

}  // namespace raceaccel
