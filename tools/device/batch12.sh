#!/bin/bash
# Batch 12: rank-3 box loads, interleaved (16B, 32B) and not, under each swizzle
# (tools/tma_interleave_sweep.py writes cases3.txt). Needs beside this script: tma_probe built
# from tools/tma_probe.cu (nvcc -gencode=arch=compute_90a,code=sm_90a -O2) and cases3.txt.
# A case a process: a copy that faults ends its own context only. Writes versions.txt and
# probe3.jsonl under $OUT.
set -u
cd "$(dirname "$0")"
{ echo "date=$(date -u +%FT%TZ)"
  echo "device=$(nvidia-smi --query-gpu=name --format=csv,noheader)"
  echo "driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader)"
  echo "toolkit=$(nvcc --version | tail -1)"; } > $OUT/versions.txt 2>&1
: > $OUT/probe3.jsonl
while read -r line; do
  echo "$line" | timeout 20 ./tma_probe > /tmp/one.jsonl 2>> $OUT/probe3.err
  grep -m1 '"kind":"device"' /tmp/one.jsonl > /tmp/device.jsonl
  grep -E '"kind":"load3"|fatal' /tmp/one.jsonl >> $OUT/probe3.jsonl
done < cases3.txt
cat /tmp/device.jsonl >> $OUT/probe3.jsonl
wc -l $OUT/probe3.jsonl; grep -c fatal $OUT/probe3.jsonl; cut -c1-160 $OUT/probe3.jsonl
