// The STD text reader: every accepted form, and a TraceError naming
// file:line for each kind of malformed line.
#include <gtest/gtest.h>

#include <sstream>

#include "trace/std_format.hpp"
#include "trace/trace_error.hpp"

namespace raceaccel {
namespace {

std::vector<Event> read_all(const std::string& text, SymbolTable* symbols = nullptr) {
  StdReader reader(Input::from_memory(text, "t.std"));
  std::vector<Event> events;
  Event e;
  while (reader.next(e)) events.push_back(e);
  if (symbols != nullptr) *symbols = reader.symbols();
  return events;
}

TEST(StdReader, ParsesEveryOperation) {
  SymbolTable symbols;
  const auto events = read_all(
      "T0|r(V123)|345\nT1|w(V234.23[0])|456\nT0|fork(T2)|123\nT2|acq(L34)|120\nT2|rel(L34)|130\n"
      "T0|join(T2)|134\nT1|begin|1\nT1|end()|2\n",
      &symbols);
  ASSERT_EQ(events.size(), 8u);
  EXPECT_EQ(events[0].op, Op::Read);
  EXPECT_EQ(events[0].tid, 0u);
  EXPECT_EQ(events[0].size, 1u);
  EXPECT_EQ(events[0].site, 345u);
  EXPECT_EQ(symbols.location_name(events[0].addr), "V123");
  EXPECT_EQ(events[1].op, Op::Write);
  EXPECT_EQ(events[1].tid, 1u);
  EXPECT_NE(events[1].addr, events[0].addr);
  EXPECT_EQ(events[2].op, Op::Fork);
  EXPECT_EQ(events[2].addr, 2u);  // T2 is the third thread name seen
  EXPECT_EQ(events[3].op, Op::Acquire);
  EXPECT_EQ(events[3].tid, 2u);
  EXPECT_EQ(events[4].addr, events[3].addr);
  EXPECT_EQ(symbols.sync_name(events[3].addr), "L34");
  EXPECT_EQ(events[5].op, Op::Join);
  EXPECT_EQ(events[6].op, Op::Begin);
  EXPECT_EQ(events[7].op, Op::End);
}

TEST(StdReader, AcceptsAddressAccessesCrlfAndBlankLines) {
  const auto events = read_all("T0|w(@0x1000:4)|7\r\n\n  T1 | r(@0x1003:1) | 8 \n");
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].addr, 0x1000u);
  EXPECT_EQ(events[0].size, 4u);
  EXPECT_EQ(events[1].addr, 0x1003u);
  EXPECT_EQ(events[1].site, 8u);
}

TEST(StdReader, SameNameIsSameObject) {
  const auto events = read_all("T5|w(x)|1\nT9|w(x)|2\nT5|acq(m)|3\nT9|acq(m)|4\n");
  EXPECT_EQ(events[0].addr, events[1].addr);
  EXPECT_NE(events[0].tid, events[1].tid);
  EXPECT_EQ(events[2].addr, events[3].addr);
}

struct BadLine {
  const char* text;
  const char* reason;  // a fragment of the expected message
};

class StdReaderRejects : public ::testing::TestWithParam<BadLine> {};

TEST_P(StdReaderRejects, NamesFileLineAndReason) {
  const BadLine& bad = GetParam();
  const std::string text = std::string("T0|r(V1)|1\n") + bad.text + "\n";
  try {
    read_all(text);
    FAIL() << "accepted: " << bad.text;
  } catch (const TraceError& e) {
    EXPECT_EQ(e.where(), "t.std:2");
    EXPECT_NE(std::string(e.what()).find(bad.reason), std::string::npos) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(
    BadLines, StdReaderRejects,
    ::testing::Values(BadLine{"T0|r(V1)", "three"}, BadLine{"T0|r(V1)|1|2", "three"}, BadLine{"garbage", "three"},
                      BadLine{"|r(V1)|1", "thread"}, BadLine{"T 0|r(V1)|1", "thread"},
                      BadLine{"T0|r(V1)|abc", "not a non-negative integer"},
                      BadLine{"T0|r(V1)|-5", "not a non-negative integer"},
                      BadLine{"T0|r(V1)|99999999999999999999999", "not a non-negative integer"},
                      BadLine{"T0|x(V1)|1", "unknown operation"}, BadLine{"T0|sync(L1)|1", "unknown operation"},
                      BadLine{"T0|r(V1|1", "closing"}, BadLine{"T0|r()|1", "needs a variable"},
                      BadLine{"T0|r|1", "needs a variable"}, BadLine{"T0|acq()|1", "needs a lock"},
                      BadLine{"T0|fork()|1", "needs a thread"}, BadLine{"T0|fork(T0)|1", "itself"},
                      BadLine{"T0|begin(x)|1", "no decor"}, BadLine{"T0|r((V1))|1", "nested"},
                      BadLine{"T0|w(@0x10)|1", "@0x<hex>:<size>"}, BadLine{"T0|w(@0xzz:4)|1", "@0x<hex>:<size>"},
                      BadLine{"T0|w(@0x10:0)|1", "size 0"}, BadLine{"T0|w(@0xffffffffffffffff:2)|1", "wraps"},
                      BadLine{"T0|w(@0x0:16777217)|1", "exceeds the limit"}, BadLine{"T0|r(V\x01)|1", "bad variable"}));

TEST(StdWriter, RoundTripsNamesAndAddresses) {
  const std::string text =
      "T0|r(V123)|345\nT1|w(@0x1000:4)|7\nT0|fork(T2)|123\nT2|acq(L34)|120\nT2|rel(L34)|130\n"
      "T0|join(T2)|134\nT1|begin()|1\nT1|end()|2\n";
  StdReader reader(Input::from_memory(text, "t.std"));
  std::ostringstream out;
  StdWriter writer(out);
  Event e;
  while (reader.next(e)) writer.write(e, reader.symbols());
  writer.finish();
  EXPECT_EQ(out.str(), text);
}

TEST(StdWriter, RefusesEventsWithoutStdForm) {
  std::ostringstream out;
  StdWriter writer(out);
  SymbolTable symbols;
  EXPECT_THROW(writer.write(Event::fence(0, MemoryOrder::SeqCst), symbols), UnrepresentableEvent);
  EXPECT_THROW(writer.write(Event::sync(Op::BarrierEnter, 0, 1), symbols), UnrepresentableEvent);
}

// A line without end (check /dev/zero) must not be buffered whole: the
// reader stops one byte past kMaxStdLineBytes and names file:line.
TEST(StdReader, RejectsOverlongLineWithoutReadingItAll) {
  std::string text = "T0|w(x)|1\n" + std::string(3 * kMaxStdLineBytes, '\0');
  StdReader reader(Input::from_memory(text, "t.std"));
  Event e;
  ASSERT_TRUE(reader.next(e));
  try {
    reader.next(e);
    FAIL() << "an overlong line was accepted";
  } catch (const TraceError& err) {
    EXPECT_EQ(err.where(), "t.std:2");
    EXPECT_NE(std::string(err.what()).find("line longer than 1048576 bytes"), std::string::npos) << err.what();
  }
  EXPECT_LE(reader.bytes_read(), 10 + kMaxStdLineBytes + 1);
}

// A line of exactly the limit is still a line (trailing blanks are trimmed).
TEST(StdReader, AcceptsLineAtTheLimit) {
  std::string line = "T0|w(x)|1";
  line.resize(kMaxStdLineBytes, ' ');
  const auto events = read_all(line + "\nT1|w(x)|2\n");
  EXPECT_EQ(events.size(), 2u);
}

}  // namespace
}  // namespace raceaccel
