// What a card running the kernel would sustain, modelled from a run's
// measured cycles and bytes: the assumptions of docs/performance.md,
// "Modelled card throughput", written once (sweep's columns use them, and
// the docs' table is computed with them).
//
// Each bound is events per second:
//  - kernel-bound: the kernel's clock over its busy cycles per event;
//  - PCIe-bound: each direction on its own (the link is full duplex):
//    command words to the card, escalation and race records back;
// and the modelled card is the lower of the two. The host's own cost per
// event is a third bound: it is a host's, not the card's, so it is only
// applied when given (CardAssumptions::host_ns_per_event, a figure measured
// on some host, e.g. host_side_bench's host_cpu_ns/event), and end_to_end()
// is then the lowest of the three.
#pragma once

#include <cstdint>

#include "offload/offload_checker.hpp"

namespace raceaccel::offload {

struct CardAssumptions {
  double kernel_hz = 300e6;             // the clock the RTL is built to close (docs/hardware.md)
  double to_card_bytes_per_s = 9e9;     // XDMA host-to-card on Gen3 x16, measured (hardware-anchors.md)
  double from_card_bytes_per_s = 12e9;  // card-to-host, the same measurement
  // One host core's time per event building commands and answering records
  // (0: not known, no host bound). Not this run's timing: that varies with
  // the machine's load; a figure measured once, under stated conditions.
  double host_ns_per_event = 0;
};

struct CardThroughput {
  double to_card_bytes_per_event = 0;    // command words, set-row data included
  double from_card_bytes_per_event = 0;  // escalation and race records
  double kernel_bound = 0;               // events/s; 0: the model counts no cycles
  double pcie_bound = 0;                 // events/s; 0: no bytes moved
  double host_bound = 0;                 // events/s; 0: no host_ns_per_event assumed
  // The lower of the card's bounds that are known (0 when neither is).
  double modelled() const { return lowest_known(kernel_bound, pcie_bound); }
  // The card with its host: the lower of modelled() and the host bound.
  double end_to_end() const { return lowest_known(modelled(), host_bound); }

 private:
  static double lowest_known(double a, double b) {
    if (a == 0) return b;
    if (b == 0) return a;
    return a < b ? a : b;
  }
};

// The bounds of a run of `events` events with statistics s (all zero
// without events).
CardThroughput card_throughput(const OffloadStats& s, uint64_t events, const CardAssumptions& a = {});

}  // namespace raceaccel::offload
