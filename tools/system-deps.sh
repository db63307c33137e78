#!/usr/bin/env bash
# Debian packages that the real-X-server tests need (Xvfb, a window manager, a screenshot tool, Qt's xcb plugin
# libraries) and the web-lecture test needs (headless Chromium), and librsvg's converter to draw SVG
# exports as an author's machine does. Installs only what is missing, and only where it can (root with apt-get);
# elsewhere it says what to install and the test that needs them is skipped.
set -u
need=()
command -v Xvfb >/dev/null 2>&1 || need+=(xvfb)
command -v xdotool >/dev/null 2>&1 || need+=(xdotool)
command -v openbox >/dev/null 2>&1 || need+=(openbox)  # the walk through the hall under a window manager
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v rsvg-convert >/dev/null 2>&1 || need+=(librsvg2-bin)  # an SVG drawn without Inter (tests/figures)
command -v pdftotext >/dev/null 2>&1 || need+=(poppler-utils)  # what a PDF reader copies (tests/hostile)
command -v import >/dev/null 2>&1 && import -version 2>/dev/null | grep -q ImageMagick || need+=(imagemagick)
for lib in libxcb-cursor0 libxkbcommon-x11-0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 \
           libxcb-render-util0 libxcb-xinerama0 libxcb-randr0 libxcb-shape0 libxcb-xkb1 \
           libegl1 libfontconfig1 libdbus-1-3; do
  dpkg -s "$lib" >/dev/null 2>&1 || need+=("$lib")
done
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing: ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null 2>&1 || true
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null 2>&1 \
    || echo "warning: could not install ${need[*]}; the tests that need them will be skipped"
else
  echo "note: install ${need[*]} (Debian packages) to run the real-X-server and web-lecture tests"
fi
exit 0
