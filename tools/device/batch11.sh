#!/bin/bash
# Batch 11: cluster residency against cudaOccupancyMaxActiveClusters and the GPCs it reveals
# (cluster_probe), and the scheduler loops' steady state against their whole run (sched_probe
# tails), then, for the loops' utilisation on this card, Nsight Compute over part a as in
# scheduler.sh. Needs beside this script: cluster_probe and sched_probe built from
# tools/cluster_probe.cu and tools/scheduler_probe.cu with nvcc -arch=sm_90a -O3.
set -u
R=$OUT; cd "$(dirname "$0")"
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv;
  nvcc --version | tail -2; ncu --version | tail -1; uname -r; } > $R/versions.txt 2>&1
timeout 60 ./cluster_probe > $R/clusters.json 2> $R/log.txt
timeout 120 ./sched_probe tails > $R/tails.json 2>> $R/log.txt
M=smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum,smsp__cycles_active.avg,sm__cycles_elapsed.avg,gpu__time_duration.sum,sm__warps_active.avg.per_cycle_active
timeout 240 ncu --clock-control none --kernel-name regex:sched_loop --metrics $M --csv --page raw ./sched_probe loops a > $R/ncu_a.csv 2>> $R/log.txt
date -u +%FT%TZ >> $R/versions.txt
cat $R/versions.txt; grep -v "^==PROF==" $R/log.txt | tail -5; tail -c 600 $R/clusters.json; head -c 800 $R/tails.json; grep -c sched_loop $R/ncu_a.csv
