#!/bin/bash
# Batches 4 and 5: every exported kernel of the bundled scenarios (k/<name>/ as
# `gpuviz kernel` writes them), built, SASS-checked, run and profiled by its own run.sh.
set -u
R=$OUT/r; mkdir -p $R; cd "$(dirname "$0")/k"
date -u +%FT%TZ > $R/date.txt
for d in */; do (cd $d && sh -c "$(grep '^nvcc' run.sh)" > build.log 2>&1) & done; wait
for d in */; do
  d=${d%/}
  ( cd $d && sed -i 's/^nvcc .*$/: built/' run.sh && timeout 120 sh run.sh > run.log 2>&1 )
  cp $d/run.log $R/$d.log; cp $d/*-ncu.csv $R/ 2>/dev/null
done
