// `raceaccel convert`: rewrites a trace in another format, streaming.
#include <fmt/format.h>

#include <iostream>

#include "cli/commands.hpp"
#include "cli/error_status.hpp"
#include "cli/output_file.hpp"
#include "common/exit_codes.hpp"
#include "trace/binary_format.hpp"
#include "trace/std_format.hpp"
#include "trace/trace_error.hpp"

namespace raceaccel {
namespace {

struct ConvertOptions {
  std::string input;
  std::string output;
  std::string to = "binary";
  bool no_compress = false;
};

int run_convert(const ConvertOptions& o) {
  // Writing the input while reading it would destroy it: refuse, whatever
  // the paths (another name, a symbolic or hard link: same device and inode).
  if (same_file(o.input, o.output)) {
    std::cerr << "raceaccel: convert: the output " << o.output << " is the input " << o.input
              << " (the same file); write to another file\n";
    return exit_code::kUsage;
  }
  return exit_status_of(o.input, [&] {
    auto reader = open_trace(o.input);
    OutputFile out(o.output);
    std::unique_ptr<TraceWriter> writer;
    if (o.to == "std") {
      writer = std::make_unique<StdWriter>(out.stream());
    } else {
      BinaryWriterOptions options;
      options.compress = !o.no_compress;
      writer = std::make_unique<BinaryWriter>(out.stream(), options);
    }
    Event e;
    while (reader->next(e)) writer->write(e, reader->symbols());
    writer->finish();
    out.close();
    return exit_code::kOk;
  });
}

}  // namespace

CommandRunner add_convert_command(CLI::App& app) {
  auto o = std::make_shared<ConvertOptions>();
  CLI::App* sub = app.add_subcommand("convert", "Convert a trace between STD text and the binary format");
  sub->add_option("input", o->input, "Input trace (format sniffed); - reads stdin")->required();
  sub->add_option("-o,--output", o->output, "Output file; - writes stdout")->required();
  sub->add_option("--to", o->to, "Output format: binary (default) or std")->check(CLI::IsMember({"binary", "std"}));
  sub->add_flag("--no-compress", o->no_compress, "Binary output without zstd");
  return [o] { return run_convert(*o); };
}

}  // namespace raceaccel
