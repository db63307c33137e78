#!/bin/bash
# Batch 8: blocks resident per SM under a carveout preference, counted on the device, beside
# the occupancy API's answer (tools/residency_probe.cu). Needs the probe's source beside this.
set -u
cd "$(dirname "$0")"
date -u +%FT%TZ > $OUT/residency-date.txt
nvcc -arch=sm_90a -O3 -Xptxas -v -o residency_probe residency_probe.cu > $OUT/residency-build.txt 2>&1 || exit 1
timeout 120 ./residency_probe > $OUT/residency.jsonl 2> $OUT/residency.err
cat $OUT/residency.jsonl | head -100; cat $OUT/residency.err
