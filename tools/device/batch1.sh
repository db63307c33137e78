#!/bin/bash
# Batch 1: memory probe (banks + sectors), carveout probe, traversal probe, versions and SASS.
# Needs: memory_probe, carveout_probe, traversal_probe (built from tools/*.cu), cases.txt
# (gpuviz.kernels.cases.all_cases) and traversal_cases.txt (orders from the traversal model).
set -u
R=$OUT/r; mkdir -p $R
cd "$(dirname "$0")"
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv;
  nvcc --version | tail -2; ncu --version | tail -1; uname -r; } > $R/versions.txt 2>&1
cuobjdump -sass memory_probe > $R/memory_probe.sass 2>&1
./carveout_probe > $R/carveout.jsonl 2> $R/carveout.err
ncu --query-metrics > $R/query.txt 2>&1
WANT="l1tex__data_pipe_lsu_wavefronts_mem_shared l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st l1tex__t_sectors_pipe_lsu_mem_global_op_ld l1tex__t_sectors_pipe_lsu_mem_global_op_st l1tex__t_requests_pipe_lsu_mem_global_op_ld l1tex__t_requests_pipe_lsu_mem_global_op_st smsp__inst_executed_op_shared_ld smsp__inst_executed_op_shared_st smsp__inst_executed_op_ldsm smsp__inst_executed_op_global_ld smsp__inst_executed_op_global_st"
M=""; for m in $WANT; do grep -qw "$m" $R/query.txt && M="$M,$m.sum"; done; M=${M#,}
grep -v '^sec-\|^sectors-\|^linked' cases.txt > banks_cases.txt
grep '^sec-\|^sectors-\|^linked' cases.txt > sectors_cases.txt
split -l 250 -d sectors_cases.txt sec_part_; split -l 250 -d banks_cases.txt bank_part_
for part in sec_part_* bank_part_*; do
  ncu --clock-control none --cache-control none --csv --page raw --metrics $M ./memory_probe $part > $R/$part.csv 2> $R/$part.err
done
ncu --clock-control none --cache-control all --csv --page raw \
    --metrics dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,gpu__time_duration.sum \
    -k traverse ./traversal_probe traversal_cases.txt > $R/traversal.csv 2> $R/traversal.err
