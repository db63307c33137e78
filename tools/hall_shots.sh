#!/usr/bin/env bash
# The lecture hall as the room sees it: tools/hall_shots.sh SCENARIO OUTDIR [PAGEDOWNS] [W H]
# Starts Xvfb (W × H, default 1280 × 720) with openbox, opens the app on SCENARIO (a bundled
# name or a path) with fresh settings, presses PageDown PAGEDOWNS times (a question step takes
# one more press to reveal), and writes OUTDIR/NAME-windowed.png, OUTDIR/NAME-f5.png and, in the
# dark theme, OUTDIR/NAME-f5-dark.png. Needs xvfb, openbox, xdotool and imagemagick
# (tools/system-deps.sh).
set -euo pipefail
scenario=${1:?scenario}; out=${2:?output folder}; steps=${3:-0}; W=${4:-1280}; H=${5:-720}
py=${PYTHON:-.venv/bin/python}
[ -f "$scenario" ] || scenario="scenarios/${scenario%.json}.json"
name=$(basename "$scenario" .json)
mkdir -p "$out"
n=$((150 + RANDOM % 100))
Xvfb ":$n" -screen 0 "${W}x${H}x24" -noreset -nolisten tcp >/dev/null 2>&1 &
xpid=$!
export DISPLAY=":$n" QT_QPA_PLATFORM=xcb
sleep 1
openbox >/dev/null 2>&1 &
wpid=$!
trap 'kill $wpid $xpid 2>/dev/null || true' EXIT
sleep 1
for theme in screen dark; do
  cfg=$(mktemp -d)
  mkdir -p "$cfg/gpuviz"
  printf '[view]\ntheme=%s\n' "$theme" > "$cfg/gpuviz/gpuviz.conf"
  XDG_CONFIG_HOME=$cfg $py -m gpuviz "$scenario" >/dev/null 2>&1 &
  apid=$!
  for _ in $(seq 150); do
    xdotool search --onlyvisible --pid $apid --name gpuviz >/dev/null 2>&1 && break
    sleep 0.2
  done
  wid=$(xdotool search --onlyvisible --pid $apid --name gpuviz | head -1)
  xdotool windowactivate --sync "$wid" 2>/dev/null || true
  xdotool windowsize "$wid" "$W" "$H" windowmove "$wid" 0 0
  sleep 3
  for _ in $(seq "$steps"); do xdotool key --window "$wid" Next; sleep 0.6; done
  sleep 4
  if [ "$theme" = screen ]; then import -window root "$out/$name-windowed.png"; fi
  xdotool key --window "$wid" F5
  sleep 9  # the room's curtain lifts once every view is laid out (at most 4 s of wall time)
  suffix=$([ "$theme" = dark ] && echo -dark || true)
  import -window root "$out/$name-f5$suffix.png"
  kill $apid
  wait $apid 2>/dev/null || true
  rm -rf "$cfg"
done
