// s_axi_control of rac_kernel: the AXI4-Lite register file of an ap_ctrl_hs
// Vitis kernel (docs/kernel-interface.md; offsets from rac_kernel_regs_pkg).
//
// - ctrl: ap_start is set by a host write of bit 0 and cleared when the
//   kernel takes the batch (take_i); ap_done and ap_ready are raised by
//   done_i and cleared when the host reads ctrl; ap_idle is low from take_i
//   to done_i.
// - gie/ier/isr: an ISR bit is set by its event when its IER bit is set and
//   toggled by writing 1; interrupt_o = gie & (isr != 0).
// - Arguments are plain read/write registers (the kernel latches them when
//   it takes the batch); results, statistics and capabilities are read-only.
// - A 64-bit statistic read low word first is consistent: reading the low
//   word latches the high word, which a read of offset + 4 then returns.
// A write is accepted when address and data are both offered (the slave
// may wait for both); every response is OKAY; unmapped offsets read 0.
`include "rac_assert.svh"

module rac_axil_ctrl #(
  parameter int unsigned NumSlots = 8,
  parameter int unsigned ClkW     = 32,
  parameter int unsigned Sets     = 256,
  parameter int unsigned Ways     = 4,
  parameter int unsigned LineW    = 569,
  parameter int unsigned Objects  = 16,
  parameter int unsigned ReadVcs  = 16,   // cap_read_vcs
  parameter int unsigned ReadVcWays = 1,  // cap_read_vc_ways
  parameter int unsigned EscRecBytes = 192,  // cap_esc_record_bytes
  parameter int unsigned BucketWays = 4      // cap_bucket_ways
) (
  input  logic        clk_i,
  input  logic        rst_i,

  // AXI4-Lite slave
  input  logic        awvalid_i,
  output logic        awready_o,
  input  logic [11:0] awaddr_i,
  input  logic        wvalid_i,
  output logic        wready_o,
  input  logic [31:0] wdata_i,
  input  logic [3:0]  wstrb_i,
  output logic        bvalid_o,
  input  logic        bready_i,
  output logic [1:0]  bresp_o,
  input  logic        arvalid_i,
  output logic        arready_o,
  input  logic [11:0] araddr_i,
  output logic        rvalid_o,
  input  logic        rready_i,
  output logic [31:0] rdata_o,
  output logic [1:0]  rresp_o,
  output logic        interrupt_o,

  // Launch handshake with the kernel
  output logic        ap_start_o,
  input  logic        take_i,  // the kernel took the batch: ap_start and ap_idle fall
  input  logic        done_i,  // the batch is done: ap_done, ap_ready and ap_idle rise

  // Arguments
  output logic [63:0] commands_o,
  output logic [31:0] command_words_o,
  output logic [31:0] flags_o,
  output logic [63:0] races_o,
  output logic [31:0] race_capacity_o,
  output logic [63:0] escalations_o,
  output logic [31:0] esc_capacity_o,
  output logic [63:0] buckets_o,
  output logic [31:0] bucket_bits_o,

  // Results of the last batch
  input  logic [31:0] status_i,
  input  logic [31:0] races_written_i,
  input  logic [31:0] escalations_written_i,
  input  logic [31:0] words_done_i,

  // Statistics
  input  logic [63:0] stat_cycles_i,
  input  logic [63:0] stat_busy_cycles_i,
  input  logic [63:0] stat_commands_i,
  input  logic [63:0] stat_accesses_i,
  input  logic [63:0] stat_misses_i,
  input  logic [63:0] stat_writebacks_i,
  input  logic [63:0] stat_escalations_i,
  input  logic [63:0] stat_spills_i,
  input  logic [63:0] stat_races_i
);

  // ---------------------------------------------------------------------------
  // Write channel: address and data taken together, then one B response
  // ---------------------------------------------------------------------------
  logic        wr_fire;
  logic [11:0] wr_addr;
  // Nothing is accepted in reset.
  assign wr_fire   = awvalid_i && wvalid_i && !bvalid_o && !rst_i;
  assign awready_o = wr_fire;
  assign wready_o  = wr_fire;
  assign wr_addr   = {awaddr_i[11:2], 2'b00};
  assign bresp_o   = 2'b00;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      bvalid_o <= 1'b0;
    end else if (wr_fire) begin
      bvalid_o <= 1'b1;
    end else if (bready_i) begin
      bvalid_o <= 1'b0;
    end
  end

  // A register write with byte strobes
  function automatic logic [31:0] merge(input logic [31:0] old, input logic [31:0] data, input logic [3:0] strb);
    for (int b = 0; b < 4; b++) merge[8*b +: 8] = strb[b] ? data[8*b +: 8] : old[8*b +: 8];
  endfunction

  logic [31:0] cmd_lo_q, cmd_hi_q, words_q, flags_q, races_lo_q, races_hi_q, race_cap_q;
  logic [31:0] esc_lo_q, esc_hi_q, esc_cap_q, buckets_lo_q, buckets_hi_q, bucket_bits_q;
  logic        gie_q;
  logic [1:0]  ier_q, isr_q;
  logic        ap_start_q, ap_done_q, ap_idle_q, ap_ready_q;

  logic rd_fire, rd_ctrl;
  logic [11:0] rd_addr;
  assign rd_fire = arvalid_i && arready_o;
  assign rd_addr = {araddr_i[11:2], 2'b00};
  assign rd_ctrl = rd_fire && rd_addr == rac_kernel_regs_pkg::AddrCtrl;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      cmd_lo_q <= '0;
      cmd_hi_q <= '0;
      words_q <= '0;
      flags_q <= '0;
      races_lo_q <= '0;
      races_hi_q <= '0;
      race_cap_q <= '0;
      esc_lo_q <= '0;
      esc_hi_q <= '0;
      esc_cap_q <= '0;
      buckets_lo_q <= '0;
      buckets_hi_q <= '0;
      bucket_bits_q <= '0;
      gie_q <= 1'b0;
      ier_q <= '0;
    end else if (wr_fire) begin
      case (wr_addr)
        rac_kernel_regs_pkg::AddrGie: if (wstrb_i[0]) gie_q <= wdata_i[0];
        rac_kernel_regs_pkg::AddrIer: if (wstrb_i[0]) ier_q <= wdata_i[1:0];
        rac_kernel_regs_pkg::AddrCommands:             cmd_lo_q <= merge(cmd_lo_q, wdata_i, wstrb_i);
        rac_kernel_regs_pkg::AddrCommands + 12'd4:     cmd_hi_q <= merge(cmd_hi_q, wdata_i, wstrb_i);
        rac_kernel_regs_pkg::AddrCommandWords:         words_q <= merge(words_q, wdata_i, wstrb_i);
        rac_kernel_regs_pkg::AddrFlags:                flags_q <= merge(flags_q, wdata_i, wstrb_i);
        rac_kernel_regs_pkg::AddrRaces:                races_lo_q <= merge(races_lo_q, wdata_i, wstrb_i);
        rac_kernel_regs_pkg::AddrRaces + 12'd4:        races_hi_q <= merge(races_hi_q, wdata_i, wstrb_i);
        rac_kernel_regs_pkg::AddrRaceCapacity:         race_cap_q <= merge(race_cap_q, wdata_i, wstrb_i);
        rac_kernel_regs_pkg::AddrEscalations:          esc_lo_q <= merge(esc_lo_q, wdata_i, wstrb_i);
        rac_kernel_regs_pkg::AddrEscalations + 12'd4:  esc_hi_q <= merge(esc_hi_q, wdata_i, wstrb_i);
        rac_kernel_regs_pkg::AddrEscCapacity:          esc_cap_q <= merge(esc_cap_q, wdata_i, wstrb_i);
        rac_kernel_regs_pkg::AddrBuckets:              buckets_lo_q <= merge(buckets_lo_q, wdata_i, wstrb_i);
        rac_kernel_regs_pkg::AddrBuckets + 12'd4:      buckets_hi_q <= merge(buckets_hi_q, wdata_i, wstrb_i);
        rac_kernel_regs_pkg::AddrBucketBits:           bucket_bits_q <= merge(bucket_bits_q, wdata_i, wstrb_i);
        default: ;
      endcase
    end
  end

  // ---------------------------------------------------------------------------
  // Control bits and interrupts
  // ---------------------------------------------------------------------------
  logic start_write, isr_write;
  assign start_write = wr_fire && wr_addr == rac_kernel_regs_pkg::AddrCtrl && wstrb_i[0] && wdata_i[0];
  assign isr_write   = wr_fire && wr_addr == rac_kernel_regs_pkg::AddrIsr && wstrb_i[0];

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      ap_start_q <= 1'b0;
      ap_done_q  <= 1'b0;
      ap_idle_q  <= 1'b1;
      ap_ready_q <= 1'b0;
      isr_q      <= '0;
    end else begin
      if (take_i) begin
        ap_start_q <= 1'b0;
      end else if (start_write) begin
        ap_start_q <= 1'b1;
      end
      // An event in the same cycle as the clearing read wins: it is not lost.
      if (done_i) begin
        ap_done_q  <= 1'b1;
        ap_ready_q <= 1'b1;
      end else if (rd_ctrl) begin
        ap_done_q  <= 1'b0;
        ap_ready_q <= 1'b0;
      end
      if (done_i) begin
        ap_idle_q <= 1'b1;
      end else if (take_i) begin
        ap_idle_q <= 1'b0;
      end
      for (int i = 0; i < 2; i++) begin
        if (done_i && ier_q[i]) begin
          isr_q[i] <= 1'b1;
        end else if (isr_write && wdata_i[i]) begin
          isr_q[i] <= !isr_q[i];
        end
      end
    end
  end
  assign ap_start_o  = ap_start_q;
  assign interrupt_o = gie_q && (isr_q != 2'b00);

  // ---------------------------------------------------------------------------
  // Read channel
  // ---------------------------------------------------------------------------
  // A 64-bit statistic: the low word's read latches the high word.
  //
  // The register file is read as one flat multiplexer indexed by the word
  // address (bits 8:2; every register is below 0x200): a LUT, three MUXFs
  // and a LUT for 128 words, where a case over the 12-bit address cost 4
  // LUTs and 5 MUXFs. Unmapped words of the array are constant zeros.
  localparam int unsigned Words = 128;
  logic [11:0] snap_addr_q;
  logic [31:0] snap_hi_q;
  logic [31:0] rd_value;
  logic [Words*32-1:0] rd_words;
  logic        rd_is_stat;  // the low word of a statistic: latch its high word
  logic [31:0] rd_stat_hi;

  always_comb begin
    rd_words = '0;
    rd_words[8 * (rac_kernel_regs_pkg::AddrCtrl) +: 32] = {28'd0, ap_ready_q, ap_idle_q, ap_done_q, ap_start_q};
    rd_words[8 * (rac_kernel_regs_pkg::AddrGie) +: 32] = {31'd0, gie_q};
    rd_words[8 * (rac_kernel_regs_pkg::AddrIer) +: 32] = {30'd0, ier_q};
    rd_words[8 * (rac_kernel_regs_pkg::AddrIsr) +: 32] = {30'd0, isr_q};
    rd_words[8 * (rac_kernel_regs_pkg::AddrCommands) +: 32] = cmd_lo_q;
    rd_words[8 * (rac_kernel_regs_pkg::AddrCommands + 12'd4) +: 32] = cmd_hi_q;
    rd_words[8 * (rac_kernel_regs_pkg::AddrCommandWords) +: 32] = words_q;
    rd_words[8 * (rac_kernel_regs_pkg::AddrFlags) +: 32] = flags_q;
    rd_words[8 * (rac_kernel_regs_pkg::AddrRaces) +: 32] = races_lo_q;
    rd_words[8 * (rac_kernel_regs_pkg::AddrRaces + 12'd4) +: 32] = races_hi_q;
    rd_words[8 * (rac_kernel_regs_pkg::AddrRaceCapacity) +: 32] = race_cap_q;
    rd_words[8 * (rac_kernel_regs_pkg::AddrEscalations) +: 32] = esc_lo_q;
    rd_words[8 * (rac_kernel_regs_pkg::AddrEscalations + 12'd4) +: 32] = esc_hi_q;
    rd_words[8 * (rac_kernel_regs_pkg::AddrEscCapacity) +: 32] = esc_cap_q;
    rd_words[8 * (rac_kernel_regs_pkg::AddrBuckets) +: 32] = buckets_lo_q;
    rd_words[8 * (rac_kernel_regs_pkg::AddrBuckets + 12'd4) +: 32] = buckets_hi_q;
    rd_words[8 * (rac_kernel_regs_pkg::AddrBucketBits) +: 32] = bucket_bits_q;
    rd_words[8 * (rac_kernel_regs_pkg::AddrStatus) +: 32] = status_i;
    rd_words[8 * (rac_kernel_regs_pkg::AddrRacesWritten) +: 32] = races_written_i;
    rd_words[8 * (rac_kernel_regs_pkg::AddrEscalationsWritten) +: 32] = escalations_written_i;
    rd_words[8 * (rac_kernel_regs_pkg::AddrWordsDone) +: 32] = words_done_i;
    rd_words[8 * (rac_kernel_regs_pkg::AddrStatCycles) +: 64] = stat_cycles_i;
    rd_words[8 * (rac_kernel_regs_pkg::AddrStatBusyCycles) +: 64] = stat_busy_cycles_i;
    rd_words[8 * (rac_kernel_regs_pkg::AddrStatCommands) +: 64] = stat_commands_i;
    rd_words[8 * (rac_kernel_regs_pkg::AddrStatAccesses) +: 64] = stat_accesses_i;
    rd_words[8 * (rac_kernel_regs_pkg::AddrStatMisses) +: 64] = stat_misses_i;
    rd_words[8 * (rac_kernel_regs_pkg::AddrStatWritebacks) +: 64] = stat_writebacks_i;
    rd_words[8 * (rac_kernel_regs_pkg::AddrStatEscalations) +: 64] = stat_escalations_i;
    rd_words[8 * (rac_kernel_regs_pkg::AddrStatSpills) +: 64] = stat_spills_i;
    rd_words[8 * (rac_kernel_regs_pkg::AddrStatRaces) +: 64] = stat_races_i;
    rd_words[8 * (rac_kernel_regs_pkg::AddrCapMagic) +: 32] = rac_kernel_regs_pkg::RegMagic;
    rd_words[8 * (rac_kernel_regs_pkg::AddrCapVersion) +: 32] = rac_kernel_regs_pkg::RegMapVersion;
    rd_words[8 * (rac_kernel_regs_pkg::AddrCapSlots) +: 32] = NumSlots;
    rd_words[8 * (rac_kernel_regs_pkg::AddrCapClockBits) +: 32] = ClkW;
    rd_words[8 * (rac_kernel_regs_pkg::AddrCapSets) +: 32] = Sets;
    rd_words[8 * (rac_kernel_regs_pkg::AddrCapWays) +: 32] = Ways;
    rd_words[8 * (rac_kernel_regs_pkg::AddrCapLineBits) +: 32] = LineW;
    rd_words[8 * (rac_kernel_regs_pkg::AddrCapObjects) +: 32] = Objects;
    rd_words[8 * (rac_kernel_regs_pkg::AddrCapReadVcs) +: 32] = ReadVcs;
    rd_words[8 * (rac_kernel_regs_pkg::AddrCapEscRecordBytes) +: 32] = EscRecBytes;
    rd_words[8 * (rac_kernel_regs_pkg::AddrCapFeatures) +: 32] =
        rac_kernel_regs_pkg::FeatureImportLine | rac_kernel_regs_pkg::FeatureAtomicAccess;
    rd_words[8 * (rac_kernel_regs_pkg::AddrCapBucketWays) +: 32] = BucketWays;
    rd_words[8 * (rac_kernel_regs_pkg::AddrCapReadVcWays) +: 32] = 32'(ReadVcWays);  // read clocks a line may hold
  end

  // The statistic whose low word this read is (its high word is latched).
  always_comb begin
    rd_is_stat = !rd_addr[2];
    case ({rd_addr[11:3], 3'b000})
      rac_kernel_regs_pkg::AddrStatCycles:      rd_stat_hi = stat_cycles_i[63:32];
      rac_kernel_regs_pkg::AddrStatBusyCycles:  rd_stat_hi = stat_busy_cycles_i[63:32];
      rac_kernel_regs_pkg::AddrStatCommands:    rd_stat_hi = stat_commands_i[63:32];
      rac_kernel_regs_pkg::AddrStatAccesses:    rd_stat_hi = stat_accesses_i[63:32];
      rac_kernel_regs_pkg::AddrStatMisses:      rd_stat_hi = stat_misses_i[63:32];
      rac_kernel_regs_pkg::AddrStatWritebacks:  rd_stat_hi = stat_writebacks_i[63:32];
      rac_kernel_regs_pkg::AddrStatEscalations: rd_stat_hi = stat_escalations_i[63:32];
      rac_kernel_regs_pkg::AddrStatSpills:      rd_stat_hi = stat_spills_i[63:32];
      rac_kernel_regs_pkg::AddrStatRaces:       rd_stat_hi = stat_races_i[63:32];
      default: begin
        rd_stat_hi = '0;
        rd_is_stat = 1'b0;
      end
    endcase
  end

  // The read is split over two registers: the word within each 16-word bank
  // when the address is taken (rd_bank_q), then the bank, the latched high
  // word or zero into rdata_o. RVALID rises in the cycle after next: one
  // more cycle of latency on a register read (the host's, not the kernel's
  // hot path), where the one-cycle mux took 4 LUT and 5 MUXF levels.
  // Everything is sampled when the address is taken, as before: the value,
  // the ctrl read that clears ap_done, a statistic and its latched high word.
  localparam int unsigned Banks = Words / 16;
  logic [31:0] rd_bank_q [Banks];
  logic [2:0]  rd_sel_q;      // the bank
  logic        rd_unmapped_q; // an address at 0x200 or above: zero
  logic        rd_snap_q;     // the latched high word answers: snap_addr_q is a statistic's high word
                             // (a read that rewrites it is of a low word) or 0xFFF, not mapped
  logic        rd_pend_q;     // a read taken, its data not yet in rdata_o
  for (genvar k = 0; k < Banks; k++) begin : g_bank
    always_ff @(posedge clk_i) begin
      if (rd_fire) rd_bank_q[k] <= rd_words[{3'(k), rd_addr[5:2], 5'd0} +: 32];
    end
  end

  always_comb begin
    if (rd_snap_q) begin
      rd_value = snap_hi_q;
    end else if (rd_unmapped_q) begin
      rd_value = '0;
    end else begin
      rd_value = rd_bank_q[rd_sel_q];
    end
  end

  assign arready_o = !rvalid_o && !rd_pend_q && !rst_i;
  assign rresp_o   = 2'b00;
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      rvalid_o <= 1'b0;
      rd_pend_q <= 1'b0;
      snap_addr_q <= 12'hFFF;
    end else if (rd_fire) begin
      rd_pend_q <= 1'b1;
      if (rd_is_stat) snap_addr_q <= rd_addr + 12'd4;
    end else if (rd_pend_q) begin
      rd_pend_q <= 1'b0;
      rvalid_o <= 1'b1;
    end else if (rready_i) begin
      rvalid_o <= 1'b0;
    end
    if (rd_fire) begin
      rd_sel_q <= rd_addr[8:6];
      rd_unmapped_q <= rd_addr[11:9] != 3'd0;
      rd_snap_q <= snap_addr_q == rd_addr;
      if (rd_is_stat) snap_hi_q <= rd_stat_hi;
    end
    if (rd_pend_q) rdata_o <= rd_value;
  end

  assign commands_o      = {cmd_hi_q, cmd_lo_q};
  assign command_words_o = words_q;
  assign flags_o         = flags_q;
  assign races_o         = {races_hi_q, races_lo_q};
  assign race_capacity_o = race_cap_q;
  assign escalations_o   = {esc_hi_q, esc_lo_q};
  assign esc_capacity_o  = esc_cap_q;
  assign buckets_o       = {buckets_hi_q, buckets_lo_q};
  assign bucket_bits_o   = bucket_bits_q;

  // ---------------------------------------------------------------------------
  // Assertions
  // ---------------------------------------------------------------------------
  // Responses wait for the master's ready with their payload unchanged.
  `RAC_ASSERT_NEXT(ReadResponseHeld, rvalid_o && !rready_i, rvalid_o && rdata_o == $past(rdata_o), clk_i, rst_i)
  `RAC_ASSERT_NEXT(WriteResponseHeld, bvalid_o && !bready_i, bvalid_o, clk_i, rst_i)
  // The master keeps its requests until they are taken (AXI handshake rule).
  `RAC_ASSUME_NEXT(ReadRequestHeld, arvalid_i && !arready_o, arvalid_i && araddr_i == $past(araddr_i), clk_i, rst_i)
  `RAC_ASSUME_NEXT(WriteAddressHeld, awvalid_i && !awready_o, awvalid_i && awaddr_i == $past(awaddr_i), clk_i, rst_i)
  `RAC_ASSUME_NEXT(WriteDataHeld, wvalid_i && !wready_o,
                   wvalid_i && wdata_i == $past(wdata_i) && wstrb_i == $past(wstrb_i), clk_i, rst_i)
  // The kernel takes a batch only when one was started, and not twice.
  `RAC_ASSERT(TakeOnlyStarted, !take_i || (ap_start_q && ap_idle_q), clk_i, rst_i)

endmodule
