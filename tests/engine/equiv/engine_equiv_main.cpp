// Runs engine_equiv_top: the engine and an earlier version of it in
// lockstep on random inputs, with a reset every 50,000 cycles (the init
// sweep again, from whatever state). Exit 0 when every output agreed in
// every cycle, 1 at the first difference (its cycle printed).
//
//   engine_equiv [cycles] [seed]     (default 1,000,000 cycles, seed 1)
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "Vengine_equiv_top.h"
#include "verilated.h"

int main(int argc, char** argv) {
  const long cycles = argc > 1 ? std::atol(argv[1]) : 1'000'000;
  const int seed = argc > 2 ? std::atoi(argv[2]) : 1;
  auto context = std::make_unique<VerilatedContext>();
  context->randReset(0);
  context->randSeed(seed);
  auto top = std::make_unique<Vengine_equiv_top>(context.get());
  constexpr long kResetEvery = 50'000;
  unsigned long long commands = 0, misses = 0, writebacks = 0, races = 0, escalations = 0;
  for (long c = 0; c < cycles; ++c) {
    const bool reset = c % kResetEvery < 3;
    if (c % kResetEvery == 0 && c > 0) {  // the statistics of the segment that ends
      commands += top->commands_o;
      misses += top->misses_o;
      writebacks += top->writebacks_o;
    }
    top->rst_i = reset;
    top->clk_i = 0;
    top->eval();  // the new inputs
    if (!reset && top->mismatch_o) {
      std::printf("MISMATCH at cycle %ld (after the inputs changed)\n", c);
      return 1;
    }
    races += top->race_taken_o;  // the handshakes of the coming edge
    escalations += top->esc_taken_o;
    top->clk_i = 1;
    top->eval();  // the edge
    if (!reset && top->mismatch_o) {
      std::printf("MISMATCH at cycle %ld (after the clock edge)\n", c);
      return 1;
    }
  }
  commands += top->commands_o;
  misses += top->misses_o;
  writebacks += top->writebacks_o;
  std::printf(
      "equal for %ld cycles: %llu commands, %llu race records, %llu escalation records, %llu misses, "
      "%llu write-backs\n",
      cycles, commands, races, escalations, misses, writebacks);
  top->final();
  return 0;
}
