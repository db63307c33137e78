#!/bin/bash
# wgmma base offset: from the folder tools/wgmma_base_offset.py wrote, with each <start>/base0
# and <start>/isa built beside its .cu (nvcc -gencode=arch=compute_90a,code=sm_90a -O2), run
# both variants at every start and keep each one's wgmma check line. Writes versions.txt and
# wgmma.txt under $OUT.
set -u
cd "$(dirname "$0")"
{ echo "date=$(date -u +%FT%TZ)"
  echo "device=$(nvidia-smi --query-gpu=name --format=csv,noheader)"
  echo "driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader)"; } > $OUT/versions.txt 2>&1
for d in */; do
  for v in base0 isa; do
    echo "start=${d%/} variant=$v $(timeout 60 ./${d}$v 2>&1 | grep 'check wgmma')" >> $OUT/wgmma.txt
  done
done
cat $OUT/versions.txt $OUT/wgmma.txt
