#!/usr/bin/env bash
# Screenshot of the real application under Xvfb: tools/screenshot.sh SCENARIO OUT.png [STEPS]
# STEPS: how many times to press PageDown (next scenario step) before the picture is taken.
set -euo pipefail
scenario=${1:?scenario}; out=${2:?output png}; steps=${3:-0}
py=${PYTHON:-.venv/bin/python}
n=123
Xvfb :$n -screen 0 1600x1000x24 -noreset -nolisten tcp >/dev/null 2>&1 &
xpid=$!
trap 'kill $xpid 2>/dev/null || true' EXIT
sleep 1
export DISPLAY=:$n QT_QPA_PLATFORM=xcb XDG_CONFIG_HOME=$(mktemp -d)
$py -m gpuviz "$scenario" >/dev/null 2>&1 &
apid=$!
for _ in $(seq 100); do xdotool search --onlyvisible --pid $apid --name gpuviz >/dev/null 2>&1 && break; sleep 0.2; done
wid=$(xdotool search --onlyvisible --pid $apid --name gpuviz | head -1)
xdotool windowsize "$wid" 1600 1000 windowmove "$wid" 0 0
sleep 1
for _ in $(seq "$steps"); do xdotool key --window "$wid" Next; sleep 0.4; done
sleep 1
import -window root "$out"
kill $apid
