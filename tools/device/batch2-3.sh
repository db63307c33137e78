#!/bin/bash
# Batches 2 and 3: the lane-pair and merge experiments for 8- and 16-byte shared-memory
# accesses. CASES is rule_cases.txt (gpuviz.kernels.cases.banks_rule_probes, batch 2) or
# merge_cases.txt (banks_merge_probes, batch 3).
set -u
CASES=$1; R=$OUT/r; mkdir -p $R; cd "$(dirname "$0")"
M=l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum
date -u +%FT%TZ > $R/date.txt
ncu --clock-control none --cache-control none --csv --page raw --metrics $M ./memory_probe $CASES > $R/${CASES%_cases.txt}.csv 2> $R/${CASES%_cases.txt}.err
