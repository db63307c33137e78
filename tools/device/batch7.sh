#!/bin/bash
# Batch 7: the tool versions of batch 6's machine kind, and the L2 scan probe (how much of a
# cyclic working set of W MiB, read by every SM, the L2 keeps), W from 8 to 96 MiB.
# Needs: tools/l2_scan_probe.cu beside this script.
set -u
R=$OUT; cd "$(dirname "$0")"
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv;
  nvcc --version | tail -2; ncu --version | tail -1; uname -r; } > $R/versions.txt 2>&1
nvcc -arch=sm_90a -O3 -o l2_scan_probe l2_scan_probe.cu || exit 1
timeout 200 ncu --clock-control none --cache-control all --csv --page raw \
    --metrics dram__bytes_read.sum,gpu__time_duration.sum -k scan \
    ./l2_scan_probe 8 16 24 28 30 32 34 36 40 44 48 56 64 96 > $R/scan.csv 2> $R/scan.err
cat $R/versions.txt; tail -n 3 $R/scan.err; grep -c scan $R/scan.csv
