#!/bin/bash
# Batch 9: which carveout the driver picks (tools/carveout_choice_probe.cu, and batch 8's
# residency probe again in its own order), and the traversal probe at N = 2048, 4096 and 6144
# (K steps of 32) around the L2's edge. Needs beside this script: carveout_choice_probe.cu,
# residency_probe.cu, traversal_probe.cu and mid32.txt (tools/traversal_real_cases.py).
set -u
R=$OUT; cd "$(dirname "$0")"
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv;
  nvcc --version | tail -2; ncu --version | tail -1; uname -r; } > $R/versions.txt 2>&1
nvcc -arch=sm_90a -O3 -o carveout_choice_probe carveout_choice_probe.cu || exit 1
nvcc -arch=sm_90a -O3 -Xptxas -v -o residency_probe residency_probe.cu > $R/build.txt 2>&1 || exit 1
nvcc -arch=sm_90a -O3 -DBK=32 -o probe32 traversal_probe.cu || exit 1
timeout 120 ./carveout_choice_probe > $R/choice.jsonl 2> $R/choice.err
timeout 60 ./residency_probe > $R/residency.jsonl 2>> $R/choice.err
M=dram__bytes_read.sum,gpu__time_duration.sum
timeout 240 ncu --clock-control none --cache-control all --csv --page raw --metrics $M -k traverse \
    ./probe32 mid32.txt > $R/ncumid32.csv 2> $R/ncumid32.err
date -u +%FT%TZ >> $R/versions.txt
cat $R/versions.txt; wc -l $R/choice.jsonl $R/residency.jsonl; tail -3 $R/*.err; grep -c traverse $R/ncumid32.csv
