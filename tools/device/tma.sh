#!/bin/bash
# tma: run tools/tma_probe.cu over the case file tools/tma_sweep.py wrote (cases.txt), from a
# folder holding both (and tma_probe, built with the line below; rebuilt here if it does not run).
# Each box load runs in a process of its own: a copy that faults ends its own context only.
# Writes versions.txt, probe.jsonl and probe.err under $OUT.
set -u
cd "$(dirname "$0")"
{ echo "date=$(date -u +%FT%TZ)"
  echo "device=$(nvidia-smi --query-gpu=name --format=csv,noheader)"
  echo "driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader)"
  echo "toolkit=$(nvcc --version | tail -1)"; } > $OUT/versions.txt 2>&1
if ! ./tma_probe < /dev/null > /dev/null 2>&1; then
  nvcc -gencode=arch=compute_90a,code=sm_90a -O2 -o tma_probe tma_probe.cu || exit 1
  echo "built=here" >> $OUT/versions.txt
fi
grep -v '^L' cases.txt | timeout 120 ./tma_probe > $OUT/probe.jsonl 2> $OUT/probe.err
grep '^L' cases.txt | while read -r line; do
  echo "$line" | timeout 20 ./tma_probe | grep '"kind":"load"' >> $OUT/probe.jsonl
done
echo "done=$(date -u +%T)" >> $OUT/versions.txt
wc -l $OUT/probe.jsonl; grep -c fatal $OUT/probe.jsonl; grep fatal $OUT/probe.jsonl | head -3 | cut -c1-300
