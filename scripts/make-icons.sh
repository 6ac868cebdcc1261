#!/bin/sh
# Renders the app icon from its source, resources/icons/icon.svg: icon.png (1024x1024, from which
# electron-builder derives the .icns and .ico) and the tray icon (16 px, 32 px for @2x screens).
# Needs librsvg's rsvg-convert (ImageMagick's own SVG reader drops gradients and opacity) and
# ImageMagick's convert: apt-get install librsvg2-bin imagemagick.
set -eu
cd "$(dirname "$0")/../resources/icons"
rsvg-convert -w 1024 -h 1024 icon.svg -o icon.png
convert icon.png -resize 16x16 tray.png
convert icon.png -resize 32x32 tray@2x.png
