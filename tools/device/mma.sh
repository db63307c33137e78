#!/bin/bash
# mma: build every exported kernel (tools/mma_sweep.py export), run its checks, and profile the
# shared-memory wavefronts of its ldmatrix/stmatrix. Run from the folder the export wrote.
# Writes versions.txt, build.txt, checks.txt, sass.txt, ncu.csv (and ncu.err) under $OUT.
set -u
cd "$(dirname "$0")"
{ echo "date=$(date -u +%FT%TZ)"
  echo "device=$(nvidia-smi --query-gpu=name --format=csv,noheader)"
  echo "driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader)"
  echo "toolkit=$(nvcc --version | tail -1)"
  echo "profiler=$(ncu --version | tail -1)"; } > $OUT/versions.txt 2>&1
ls -d */ | sed 's#/##' | sort > dirs.txt
xargs -P "$(nproc)" -I{} sh -c 'cd {} && nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -o {} {}.cu > build.log 2>&1 || { echo "BUILD FAIL {}"; cat build.log; }' < dirs.txt > $OUT/build.txt 2>&1
echo "built $(date -u +%T)" >> $OUT/build.txt
for d in $(cat dirs.txt); do echo "== $d"; (cd $d && timeout 20 ./$d; echo "rc=$?"); done > $OUT/checks.txt 2>&1
for d in $(head -8 dirs.txt); do echo "== $d"; cuobjdump -sass $d/$d | grep -oE '(HMMA|IMMA|DMMA|LDSM|STSM|HGMMA|LDL|STL)[.A-Z0-9x]*' | sort | uniq -c; done > $OUT/sass.txt 2>&1
for d in $(cat dirs.txt); do echo "(cd $d && ./$d > /dev/null)"; done > run_all.sh
timeout 330 ncu --clock-control none --cache-control none --csv --page raw --target-processes all \
  -k mma_feed --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__inst_executed_op_ldsm.sum,smsp__inst_executed_op_shared_st.sum \
  sh run_all.sh > $OUT/ncu.csv 2> $OUT/ncu.err
echo "done $(date -u +%T)" >> $OUT/build.txt
