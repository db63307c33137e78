#!/bin/bash
# Batch 6: the traversal probe at real GEMM sizes (N = 4096, 8192, 16384, K steps of 32), the
# K-step-64 cases at 4096 again, the 4096 cases in lockstep, and each run's tile schedule.
# Needs: tools/traversal_probe.cu beside this script as traversal_probe.cu, and the case files
# of tools/traversal_real_cases.py (real32.txt, lock32.txt, real64.txt).
set -u
R=$OUT; cd "$(dirname "$0")"
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv;
  nvcc --version | tail -2; ncu --version | tail -1; uname -r; } > $R/versions.txt 2>&1
nvcc -arch=sm_90a -O3 -DBK=32 -o probe32 traversal_probe.cu || exit 1
nvcc -arch=sm_90a -O3 -DBK=64 -o probe64 traversal_probe.cu || exit 1
# the schedule (no profiler): start, end and SM of every order position
timeout 120 ./probe32 real32.txt sched32.txt > $R/times32.txt 2>&1 || exit 1
timeout 60 ./probe32 lock32.txt schedlock32.txt --lockstep > $R/timeslock32.txt 2>&1
timeout 60 ./probe64 real64.txt sched64.txt > $R/times64.txt 2>&1
tar czf $R/schedules.tgz sched32.txt schedlock32.txt sched64.txt
# DRAM bytes, caches flushed before each launch, one launch per case
M=dram__bytes_read.sum,gpu__time_duration.sum
timeout 150 ncu --clock-control none --cache-control all --csv --page raw --metrics $M -k traverse \
    ./probe32 real32.txt > $R/ncu32.csv 2> $R/ncu32.err
timeout 150 ncu --clock-control none --cache-control all --csv --page raw --metrics $M -k traverse \
    ./probe32 lock32.txt --lockstep > $R/nculock32.csv 2> $R/nculock32.err
timeout 150 ncu --clock-control none --cache-control all --csv --page raw --metrics $M -k traverse \
    ./probe64 real64.txt > $R/ncu64.csv 2> $R/ncu64.err
cat $R/times32.txt $R/timeslock32.txt $R/times64.txt; tail -3 $R/*.err
