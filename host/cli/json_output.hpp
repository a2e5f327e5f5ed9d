// JSON on standard output. Names and paths come from traces and command
// lines and may hold bytes that are not UTF-8, which JSON strings cannot
// carry (nlohmann::json's dump throws on them). Every string and key is
// made valid first: each byte that is not part of a well-formed UTF-8
// sequence becomes the four characters \xNN (its hex value), the spelling
// the STD reader's messages use, so nothing is dropped and the byte can be
// read back from the text. (A name holding a literal "\x" is not told apart.)
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <string_view>

namespace raceaccel {

// `text` with every byte outside a well-formed UTF-8 sequence as \xNN.
std::string escape_invalid_utf8(std::string_view text);

// Escapes every string value and object key of `doc` in place.
void escape_invalid_utf8(nlohmann::json& doc);

// Prints `doc` indented by 2 spaces, with a newline, after escaping.
void print_json(std::ostream& out, nlohmann::json doc);

}  // namespace raceaccel
