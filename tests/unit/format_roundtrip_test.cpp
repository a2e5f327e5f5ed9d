// Generated traces survive both formats unchanged, and checking a trace
// after a round trip gives the same races.
#include <gtest/gtest.h>

#include <sstream>

#include "detect/fasttrack.hpp"
#include "gen/generator.hpp"
#include "trace/binary_format.hpp"
#include "trace/std_format.hpp"

namespace raceaccel {
namespace {

std::vector<Event> generate(const GeneratorOptions& o, SymbolTable& symbols) {
  TraceGenerator g(o);
  std::vector<Event> events;
  Event e;
  while (g.next(e)) events.push_back(e);
  symbols = g.symbols();
  return events;
}

std::vector<Event> read_back(std::unique_ptr<TraceReader> reader) {
  std::vector<Event> events;
  Event e;
  while (reader->next(e)) events.push_back(e);
  return events;
}

TEST(FormatRoundTrip, BinaryKeepsEveryEvent) {
  for (bool compress : {true, false}) {
    GeneratorOptions o;
    o.threads = 9;
    o.events = 50'000;
    o.seed = 42;
    SymbolTable symbols;
    const auto events = generate(o, symbols);
    std::ostringstream out;
    BinaryWriterOptions wo;
    wo.compress = compress;
    wo.block_bytes = 4096;  // many blocks
    BinaryWriter writer(out, wo);
    for (const Event& e : events) writer.write(e, symbols);
    writer.finish();
    auto reader = open_trace(Input::from_memory(out.str(), "gen.rtrace"));
    EXPECT_EQ(reader->format(), TraceFormat::Binary);
    EXPECT_EQ(read_back(std::move(reader)), events);
  }
}

TEST(FormatRoundTrip, StdOnlyTracesConvertBothWays) {
  GeneratorOptions o;
  o.threads = 5;
  o.events = 20'000;
  o.seed = 7;
  o.std_only = true;
  o.racy_weight = 10;
  SymbolTable symbols;
  const auto events = generate(o, symbols);
  std::ostringstream text;
  StdWriter writer(text);
  for (const Event& e : events) writer.write(e, symbols);
  writer.finish();

  auto reader = open_trace(Input::from_memory(text.str(), "gen.std"));
  EXPECT_EQ(reader->format(), TraceFormat::Std);
  const auto parsed = read_back(std::move(reader));
  ASSERT_EQ(parsed.size(), events.size());
  // Ids are re-interned by the reader, so compare the verdicts.
  FastTrackDetector a, b;
  for (size_t i = 0; i < events.size(); ++i) {
    a.process(events[i], i);
    b.process(parsed[i], i);
  }
  ASSERT_EQ(a.races().size(), b.races().size());
  EXPECT_GT(a.races().size(), 0u);
  for (size_t i = 0; i < a.races().size(); ++i) EXPECT_EQ(a.races()[i].event, b.races()[i].event);
}

}  // namespace
}  // namespace raceaccel
