#!/bin/bash
# Builds the scheduler probe, reads its SASS, runs it (events, latencies, bandwidth) and profiles
# every loop case with Nsight Compute. Writes under $OUT.
cd "$(dirname "$0")"  # run from a folder holding scheduler_probe.cu
set -x
T0=$(date +%s)
{ date -u +%Y-%m-%dT%H:%M:%SZ; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv; nvcc --version | tail -2; ncu --version | tail -1; } > $OUT/versions.txt 2>&1
nvcc -arch=sm_90a -O3 -Xptxas -v -o sched_probe scheduler_probe.cu > $OUT/ptxas.txt 2>&1 || { cat $OUT/ptxas.txt; exit 1; }
cuobjdump --dump-sass sched_probe > $OUT/sass.txt 2>&1
./sched_probe info > $OUT/info.json 2>> $OUT/log.txt
echo "info done at $(( $(date +%s) - T0 )) s"
M=smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum,smsp__cycles_active.avg,sm__cycles_elapsed.avg,sm__cycles_elapsed.avg.per_second,gpu__time_duration.sum,sm__warps_active.avg.per_cycle_active,dram__bytes_read.sum
timeout 190 ncu --clock-control none --kernel-name regex:sched_loop --metrics $M --csv --page raw ./sched_probe loops a > $OUT/ncu_a.csv 2>> $OUT/log.txt
echo "ncu a done at $(( $(date +%s) - T0 )) s"
timeout 120 ncu --clock-control none --kernel-name regex:sched_loop --metrics $M --csv --page raw ./sched_probe loops b > $OUT/ncu_b.csv 2>> $OUT/log.txt
echo "ncu b done at $(( $(date +%s) - T0 )) s"
nvidia-smi --query-gpu=clocks.sm,clocks.mem --format=csv >> $OUT/versions.txt 2>&1
grep -c sched_loop $OUT/ncu_a.csv $OUT/ncu_b.csv
head -c 1500 $OUT/info.json; grep -v "^==PROF==" $OUT/log.txt | tail -20
