// The one assertion macro layer of raceaccel's RTL.
//
// Every macro takes the clock and a synchronous, active-high reset; the
// property is checked on every rising clock edge at which the reset is low.
//
//   `RAC_ASSERT(Name, Cond, Clk, Rst)
//       Cond holds in every cycle out of reset.
//   `RAC_ASSERT_NEXT(Name, Pre, Post, Clk, Rst)
//       If Pre holds in a cycle out of reset, Post holds in the next cycle
//       (unless that cycle is in reset). Post may use $past(x) for "the value
//       in the cycle where Pre held".
//   `RAC_ASSERT_STABLE(Name, Pre, Sig, Clk, Rst)
//       If Pre holds in a cycle out of reset, Sig has the same value in the
//       next cycle. Uses an explicit sampling register `Name_past`, not
//       $past(Sig): Verilator 5.006 emits C++ that does not compile
//       ("'__Vilp' was not declared") for $past of a signal wider than 64
//       bits, so use this form (not $past in *_NEXT) for wide values.
//   `RAC_ASSUME(Name, Cond, Clk, Rst) / `RAC_ASSUME_NEXT(Name, Pre, Post, Clk, Rst)
//   `RAC_ASSUME_STABLE(Name, Pre, Sig, Clk, Rst)
//       The same shapes for obligations on a block's *primary inputs*
//       (e.g. the valid/ready protocol). They are assumptions for the formal
//       tools and checks in simulation. Never use them on internal signals:
//       in formal that would silently prune behaviour.
//   `RAC_STATIC_ASSERT(Name, Cond)
//       Elaboration-time parameter check (a generate-scope $error); active in
//       every tool, including synthesis. Use at module scope.
//
// Expansion per tool, by the first of these macros that is defined:
//   - FORMAL (yosys read_verilog -formal): clocked immediate assert/assume,
//       always @(posedge Clk) if (!Rst) Name: assert (Cond);
//   - VERILATOR: immediate assert in always_ff that reports Name with
//       $error; live only when the model is built with --assert;
//   - SYNTHESIS: nothing;
//   - none of them: as for Verilator (any other simulator).
//
// The first cycle of a simulation or proof must be in reset: the *_NEXT
// forms look at $past(), whose value before the first edge is not defined.
// Name must be unique in its module scope. Place assertions at the bottom of
// the module under an "Assertions" banner.
`ifndef RAC_ASSERT_SVH
`define RAC_ASSERT_SVH

`ifdef FORMAL

`define RAC_ASSERT(Name, Cond, Clk, Rst) \
  always @(posedge Clk) if (!(Rst)) Name: assert (Cond);

`define RAC_ASSERT_NEXT(Name, Pre, Post, Clk, Rst) \
  always @(posedge Clk) if (!(Rst) && $past(!(Rst) && (Pre))) Name: assert (Post);

`define RAC_ASSUME(Name, Cond, Clk, Rst) \
  always @(posedge Clk) if (!(Rst)) Name: assume (Cond);

`define RAC_ASSUME_NEXT(Name, Pre, Post, Clk, Rst) \
  always @(posedge Clk) if (!(Rst) && $past(!(Rst) && (Pre))) Name: assume (Post);

`elsif VERILATOR

`define RAC_ASSERT(Name, Cond, Clk, Rst) \
  always_ff @(posedge Clk) begin \
    if (!(Rst)) begin \
      Name: assert (Cond) else $error("assertion %s failed", `"Name`"); \
    end \
  end

`define RAC_ASSERT_NEXT(Name, Pre, Post, Clk, Rst) \
  always_ff @(posedge Clk) begin \
    if (!(Rst) && $past(!(Rst) && (Pre))) begin \
      Name: assert (Post) else $error("assertion %s failed", `"Name`"); \
    end \
  end

`define RAC_ASSUME(Name, Cond, Clk, Rst) \
  always_ff @(posedge Clk) begin \
    if (!(Rst)) begin \
      Name: assert (Cond) else $error("input assumption %s violated", `"Name`"); \
    end \
  end

`define RAC_ASSUME_NEXT(Name, Pre, Post, Clk, Rst) \
  always_ff @(posedge Clk) begin \
    if (!(Rst) && $past(!(Rst) && (Pre))) begin \
      Name: assert (Post) else $error("input assumption %s violated", `"Name`"); \
    end \
  end

`elsif SYNTHESIS

`define RAC_ASSERT(Name, Cond, Clk, Rst)
`define RAC_ASSERT_NEXT(Name, Pre, Post, Clk, Rst)
`define RAC_ASSUME(Name, Cond, Clk, Rst)
`define RAC_ASSUME_NEXT(Name, Pre, Post, Clk, Rst)

`else

`define RAC_ASSERT(Name, Cond, Clk, Rst) \
  always @(posedge Clk) begin \
    if (!(Rst)) begin \
      Name: assert (Cond) else $error("assertion %s failed", `"Name`"); \
    end \
  end

`define RAC_ASSERT_NEXT(Name, Pre, Post, Clk, Rst) \
  always @(posedge Clk) begin \
    if (!(Rst) && $past(!(Rst) && (Pre))) begin \
      Name: assert (Post) else $error("assertion %s failed", `"Name`"); \
    end \
  end

`define RAC_ASSUME(Name, Cond, Clk, Rst) \
  always @(posedge Clk) begin \
    if (!(Rst)) begin \
      Name: assert (Cond) else $error("input assumption %s violated", `"Name`"); \
    end \
  end

`define RAC_ASSUME_NEXT(Name, Pre, Post, Clk, Rst) \
  always @(posedge Clk) begin \
    if (!(Rst) && $past(!(Rst) && (Pre))) begin \
      Name: assert (Post) else $error("input assumption %s violated", `"Name`"); \
    end \
  end

`endif

`ifdef SYNTHESIS
`ifndef FORMAL
`define RAC_NO_ASSERTIONS
`endif
`endif

`ifdef RAC_NO_ASSERTIONS
`define RAC_ASSERT_STABLE(Name, Pre, Sig, Clk, Rst)
`define RAC_ASSUME_STABLE(Name, Pre, Sig, Clk, Rst)
`else
`define RAC_ASSERT_STABLE(Name, Pre, Sig, Clk, Rst) \
  logic [$bits(Sig)-1:0] Name``_past; \
  always @(posedge Clk) Name``_past <= (Sig); \
  `RAC_ASSERT_NEXT(Name, Pre, (Sig) == Name``_past, Clk, Rst)
`define RAC_ASSUME_STABLE(Name, Pre, Sig, Clk, Rst) \
  logic [$bits(Sig)-1:0] Name``_past; \
  always @(posedge Clk) Name``_past <= (Sig); \
  `RAC_ASSUME_NEXT(Name, Pre, (Sig) == Name``_past, Clk, Rst)
`endif

`define RAC_STATIC_ASSERT(Name, Cond) \
  if (!(Cond)) begin : Name \
    $error(`"static assertion Name failed`"); \
  end

`endif  // RAC_ASSERT_SVH
