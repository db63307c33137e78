#!/bin/bash
# Batch 13: the transaction bytes of rank-3 interleaved box loads, whether their completion
# repeats, the partial sums their complete-tx passes through, and the loads that settle what
# batch 12 left open (tools/tma_interleave_sweep.py cases-x writes casesx.txt). Needs beside this
# script: tma_probe built from tools/tma_probe.cu (nvcc -gencode=arch=compute_90a,code=sm_90a -O2)
# and casesx.txt. A case a process. Writes versions.txt and probex.jsonl under $OUT.
set -u
cd "$(dirname "$0")"
{ echo "date=$(date -u +%FT%TZ)"
  echo "device=$(nvidia-smi --query-gpu=name --format=csv,noheader)"
  echo "driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader)"
  echo "toolkit=$(nvcc --version | tail -1)"; } > $OUT/versions.txt 2>&1
: > $OUT/probex.jsonl
while read -r line; do
  echo "$line" | timeout 20 ./tma_probe > /tmp/one.jsonl 2>> $OUT/probex.err
  grep -m1 '"kind":"device"' /tmp/one.jsonl > /tmp/device.jsonl
  grep -E '"kind":"load3x"|fatal' /tmp/one.jsonl >> $OUT/probex.jsonl
done < casesx.txt
cat /tmp/device.jsonl >> $OUT/probex.jsonl
wc -l $OUT/probex.jsonl; grep -c fatal $OUT/probex.jsonl; cut -c1-300 $OUT/probex.jsonl
