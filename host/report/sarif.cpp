#include "report/sarif.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

namespace raceaccel {
namespace {

constexpr std::string_view kRuleId = "data-race";

uint64_t fnv1a(std::string_view text, uint64_t hash = 0xcbf29ce484222325ULL) {
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

nlohmann::json message(std::string_view text) { return {{"text", std::string(text)}}; }

// A frame's location: the source line when known, else the module and
// offset, else the step's artifact; the function as a logical location.
nlohmann::json frame_location(const SarifFrame& f, const SarifStep& step) {
  nlohmann::json loc = nlohmann::json::object();
  if (!f.file.empty()) {
    nlohmann::json physical = {{"artifactLocation", {{"uri", sarif_uri(f.file)}}}};
    if (f.line > 0) physical["region"] = {{"startLine", f.line}};
    loc["physicalLocation"] = std::move(physical);
  } else if (!f.module.empty()) {
    loc["physicalLocation"] = {{"artifactLocation", {{"uri", sarif_uri(f.module)}}},
                               {"address", {{"relativeAddress", f.offset}}}};
  } else if (!step.artifact.empty()) {
    loc["physicalLocation"] = {{"artifactLocation", {{"uri", sarif_uri(step.artifact)}}}};
  }
  if (!f.function.empty()) {
    loc["logicalLocations"] = nlohmann::json::array({{{"fullyQualifiedName", f.function}, {"kind", "function"}}});
  }
  return loc;
}

// The step's top frame with its message (the artifact alone for an empty stack).
nlohmann::json step_location(const SarifStep& step) {
  nlohmann::json loc = step.frames.empty() ? frame_location(SarifFrame{}, step) : frame_location(step.frames[0], step);
  loc["message"] = message(step.message);
  return loc;
}

nlohmann::json stack(const SarifStep& step) {
  nlohmann::json frames = nlohmann::json::array();
  for (const SarifFrame& f : step.frames) {
    nlohmann::json frame = {{"location", frame_location(f, step)}};
    if (!f.module.empty()) frame["module"] = f.module;
    frames.push_back(std::move(frame));
  }
  return {{"message", message(step.message)}, {"frames", std::move(frames)}};
}

nlohmann::json thread_flow(const SarifStep& step, int order) {
  return {{"message", message(step.thread)},
          {"locations", nlohmann::json::array({{{"location", step_location(step)},
                                                {"stack", stack(step)},
                                                {"executionOrder", order},
                                                {"importance", "essential"}}})}};
}

nlohmann::json result(const SarifRace& race) {
  nlohmann::json related = nlohmann::json::array();
  nlohmann::json previous = step_location(race.previous);
  previous["id"] = 1;
  related.push_back(std::move(previous));
  nlohmann::json stacks = nlohmann::json::array({stack(race.current), stack(race.previous)});
  if (race.allocation) {
    nlohmann::json alloc = step_location(*race.allocation);
    alloc["id"] = 2;
    related.push_back(std::move(alloc));
    stacks.push_back(stack(*race.allocation));
  }
  nlohmann::json flow = {
      {"message", message("the two unordered accesses, earlier first")},
      {"threadFlows", nlohmann::json::array({thread_flow(race.previous, 1), thread_flow(race.current, 2)})}};
  return {{"ruleId", kRuleId},
          {"ruleIndex", 0},
          {"level", "error"},
          {"kind", "fail"},
          {"message", message(race.message)},
          {"locations", nlohmann::json::array({step_location(race.current)})},
          {"relatedLocations", std::move(related)},
          {"codeFlows", nlohmann::json::array({std::move(flow)})},
          {"stacks", std::move(stacks)},
          {"partialFingerprints", {{std::string(kSarifFingerprintKey), race.fingerprint}}}};
}

}  // namespace

std::string sarif_race_fingerprint(std::string_view access_a, std::string_view access_b, std::string_view memory) {
  if (access_b < access_a) std::swap(access_a, access_b);
  // Lengths first, so that no two different triples hash the same text.
  const std::string text =
      fmt::format("{}:{}{}:{}{}:{}", access_a.size(), access_a, access_b.size(), access_b, memory.size(), memory);
  return fmt::format("{:016x}", fnv1a(text));
}

std::string sarif_uri(std::string_view path) {
  std::string out = !path.empty() && path.front() == '/' ? "file://" : "";
  for (unsigned char c : path) {
    const bool unreserved = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                            c == '.' || c == '_' || c == '~' || c == '/';
    out += unreserved ? std::string(1, static_cast<char>(c)) : fmt::format("%{:02X}", c);
  }
  return out;
}

nlohmann::json sarif_log(const std::vector<SarifRace>& races, const SarifRunInfo& run) {
  nlohmann::json rule = {
      {"id", kRuleId},
      {"name", "DataRace"},
      {"shortDescription", message("Data race")},
      {"fullDescription", message("Two accesses to the same memory, at least one a write, not ordered by the program's "
                                  "synchronization (happens-before).")},
      {"defaultConfiguration", {{"level", "error"}}}};
  nlohmann::json results = nlohmann::json::array();
  for (const SarifRace& r : races) results.push_back(result(r));
  nlohmann::json invocation = {{"executionSuccessful", run.execution_successful},
                               {"properties", {{"suppressed", run.suppressed}}}};
  if (!run.command_line.empty()) invocation["arguments"] = run.command_line;
  if (run.sample_rate < 1.0) {
    // Imprecise by choice: consumers must not read "no results" as "no race".
    invocation["properties"]["sampleRate"] = run.sample_rate;
    invocation["toolExecutionNotifications"] =
        nlohmann::json::array({{{"level", "warning"}, {"message", {{"text", run.notice}}}}});
  }
  nlohmann::json driver = {{"name", "raceaccel"},
                           {"version", run.version},
                           {"semanticVersion", run.version},
                           {"rules", nlohmann::json::array({std::move(rule)})}};
  return {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
          {"version", "2.1.0"},
          {"runs", nlohmann::json::array({{{"tool", {{"driver", std::move(driver)}}},
                                           {"invocations", nlohmann::json::array({std::move(invocation)})},
                                           {"columnKind", "unicodeCodePoints"},
                                           {"results", std::move(results)}}})}};
}

}  // namespace raceaccel
