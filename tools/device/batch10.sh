#!/bin/bash
# Batch 10: the traversal probe at N = 2048, 4096 and 6144 (K steps of 32, mid32.txt) on the
# card lent, the 4096² orders with each step's tiles dealt to the blocks in another order
# (place32.txt: which SM reads which tile, the steps unchanged), each run's schedule (start,
# end and SM of every order position), the L2 scan around one partition's size and, last, the
# 4096² orders' L2 sectors that crossed between the partitions (tools/l2_partition_replay.py).
# Needs beside this script: probe32 and l2_scan_probe built from tools/traversal_probe.cu
# (-DBK=32) and tools/l2_scan_probe.cu with nvcc -arch=sm_90a -O3, and the case files of
# tools/traversal_real_cases.py.
set -u
R=$OUT; cd "$(dirname "$0")"
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv;
  nvcc --version | tail -2; ncu --version | tail -1; uname -r; } > $R/versions.txt 2>&1
timeout 60 ./probe32 mid32.txt schedmid32.txt > $R/times.txt 2>&1 || exit 1
timeout 60 ./probe32 place32.txt schedplace32.txt >> $R/times.txt 2>&1
tar czf $R/schedules.tgz schedmid32.txt schedplace32.txt
M=dram__bytes_read.sum,gpu__time_duration.sum
# SKIP_MID=1: the card's mid32 traffic is stored already (batch 9 on the H100), keep the time
if [ -z "${SKIP_MID:-}" ]; then
timeout 150 ncu --clock-control none --cache-control all --csv --page raw --metrics $M -k traverse \
    ./probe32 mid32.txt > $R/ncumid32.csv 2> $R/ncu.err
fi
timeout 100 ncu --clock-control none --cache-control all --csv --page raw --metrics $M -k traverse \
    ./probe32 place32.txt > $R/ncuplace32.csv 2>> $R/ncu.err
timeout 60 ncu --clock-control none --cache-control all --csv --page raw \
    --metrics dram__bytes_read.sum -k scan ./l2_scan_probe 16 20 22 24 25 26 27 28 29 30 31 32 34 36 40 \
    > $R/ncuscan.csv 2>> $R/ncu.err
# Last and optional: the 4096² orders' L2 sectors that crossed between the partitions (ltcfabric)
# and the L2 lookups that hit, for the far-hit path of the model.
grep -- '-4096-' mid32.txt > mid4096.txt
ncu --query-metrics 2>/dev/null | grep -i -E 'ltcfabric|lookup_hit' | head -20 >> $R/versions.txt
timeout 90 ncu --clock-control none --cache-control all --csv --page raw -k traverse --metrics \
    lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,dram__bytes_read.sum \
    ./probe32 mid4096.txt > $R/ncufabric.csv 2>> $R/ncu.err
date -u +%FT%TZ >> $R/versions.txt
cat $R/versions.txt; tail -4 $R/times.txt; tail -3 $R/ncu.err; grep -c traverse $R/ncu*32.csv $R/ncufabric.csv; grep -c scan $R/ncuscan.csv
