#!/bin/sh
# One named formal proof on an RTL directory: exit 0 iff it passes. Shared by
# the hand-written mutant groups (run_mutants.sh: each mutant must make its
# proof fail) and the automatic mutant campaign (tests/mutants/mutants.py:
# the proofs that cover a mutated module). The settings are those of the
# ctest entries in CMakeLists.txt.
#
#   prove.sh <proof> <rtl_dir> <work_dir>
#     proof: engine (the engine's functional property), ref (the engine
#     against a FastTrack reference of one granule), axil, reader, writer,
#     meta (the AXI protocol proofs of the kernel blocks), vc_join, vc_leq,
#     vc_epoch_leq (the VC units), line_status, victim_sel, repl_state (the
#     engine's status and replacement blocks)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
proof=$1
rtl=$2
work=$3
case $proof in
  engine) FUNCTIONAL=1 DEPTH=${ENGINE_DEPTH:-18} sh "$here/run_engine_bmc.sh" "$rtl" "$work" ;;
  ref)    DEPTH=${REF_DEPTH:-16} sh "$here/run_engine_ref_bmc.sh" "$rtl" "$work" ;;
  axil)   PKGS=rac_kernel_regs_pkg.sv DEPTH=${AXIL_DEPTH:-20} \
            sh "$here/run_block_formal.sh" satbmc rac_axil_ctrl_props "$rtl" "$work" ;;
  reader) SUBS=rac_wide_cnt.sv EXTRA=axi4_master_checker.sv DEPTH=${AXI_DEPTH:-12} \
            sh "$here/run_block_formal.sh" satbmc rac_cmd_reader_props "$rtl" "$work" ;;
  writer) SUBS=rac_wide_cnt.sv EXTRA=axi4_master_checker.sv DEPTH=${AXI_DEPTH:-12} \
            sh "$here/run_block_formal.sh" satbmc rac_record_writer_props "$rtl" "$work" ;;
  meta)   PKGS=rac_kernel_regs_pkg.sv SUBS=rac_wide_cnt.sv EXTRA=axi4_master_checker.sv DEPTH=${META_DEPTH:-18} \
            sh "$here/run_block_formal.sh" satbmc rac_meta_port_props "$rtl" "$work" ;;
  vc_join|vc_leq|vc_epoch_leq) sh "$here/run_formal.sh" "$proof" "$rtl" "$work" ;;
  line_status) sh "$here/run_block_formal.sh" comb rac_line_status_comb_props "$rtl" "$work" ;;
  victim_sel) sh "$here/run_block_formal.sh" comb rac_victim_sel_comb_props "$rtl" "$work" \
                "-set Ways 1" "-set Ways 2" "-set Ways 4" "-set Ways 8" ;;
  repl_state) sh "$here/run_block_formal.sh" seq rac_repl_state_props "$rtl" "$work" \
                "-set Sets 4 -set Ways 4 -set ReplPolicy 0" "-set Sets 2 -set Ways 2 -set ReplPolicy 0" \
                "-set Sets 4 -set Ways 4 -set ReplPolicy 1" ;;
  *) echo "prove.sh: unknown proof '$proof'" >&2; exit 2 ;;
esac
