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
// event (host_ns_per_event) is a third bound, left out here: it is this
// machine's, not the card's.
#pragma once

#include <cstdint>

#include "offload/offload_checker.hpp"

namespace raceaccel::offload {

struct CardAssumptions {
  double kernel_hz = 300e6;             // the clock the RTL is built to close (docs/hardware.md)
  double to_card_bytes_per_s = 9e9;     // XDMA host-to-card on Gen3 x16, measured (hardware-anchors.md)
  double from_card_bytes_per_s = 12e9;  // card-to-host, the same measurement
};

struct CardThroughput {
  double to_card_bytes_per_event = 0;    // command words, set-row data included
  double from_card_bytes_per_event = 0;  // escalation and race records
  double kernel_bound = 0;               // events/s; 0: the model counts no cycles
  double pcie_bound = 0;                 // events/s; 0: no bytes moved
  // The lower of the bounds that are known (0 when neither is).
  double modelled() const {
    if (kernel_bound == 0) return pcie_bound;
    if (pcie_bound == 0) return kernel_bound;
    return kernel_bound < pcie_bound ? kernel_bound : pcie_bound;
  }
};

// The bounds of a run of `events` events with statistics s (all zero
// without events).
CardThroughput card_throughput(const OffloadStats& s, uint64_t events, const CardAssumptions& a = {});

}  // namespace raceaccel::offload
