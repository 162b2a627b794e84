#!/usr/bin/env bash
# Bakes documented commands (reduced sizes) with the binary BIN into OUTDIR and writes
# OUTDIR.sha256 beside it: run it with two builds (the previous main, this change) and diff
# the two lists, to show that a change leaves every output byte for byte as it was.
# usage: tools/byte-identity.sh BIN OUTDIR   (from the repository root)
set -u
BIN=$1; OUT=$2; mkdir -p "$OUT"; rm -f "$OUT"/*
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
i=0
while IFS= read -r line; do
  [[ -z "$line" ]] && continue
  i=$((i+1))
  ext="${line##*.}"
  args="${line% -o *}"
  eval "$BIN bake $args -o $OUT/$i.$ext --force" > /dev/null 2>&1 || echo "FAILED $i: $line"
done <<'LIST'
--dims 3 --size 64 --frequency 2 --curl -o x.exr
--dims 3 --size 64 --frequency 4 --tileable -o x.npy
--size 256 --frequency 4 --curl -o x.png
--size 256 --frequency 6 --flow-angle 0.8 -o x.png
--size 256 --octaves 5 --ramp terrain -o x.png
--size 512 --warp 1.5 --warp-iterations 2 -o x.png
--dims 3 --size 128x128x1 --frequency 4,4,1 --offset 0,0,0.5 --kernel continuous -o x.png
--dims 3 --size 128x128x1 --frequency 4,4,4 --tileable --octaves 3 --bits 8 --backend gpu -o x.png
--dims 4 --noise classic --size 32x32x16x8 --frequency 4,4,4,2 -o x.exr
--graph examples/graphs/caves.json --size 256x256 --frequency 3 --range -0.4,0.4 --bits 8 -o x.png
--graph examples/graphs/clouds.json --size 256x256 --frequency 4 --tileable -o x.png
--graph examples/graphs/docs/blend-hermite.json --size 256x256 --frequency 8 --bits 8 -o x.png
--graph examples/graphs/docs/blend-quintic.json --size 256x256 --frequency 8 --bits 8 -o x.png
--graph examples/graphs/docs/cellular-chebyshev.json --size 256x256 --frequency 8 --range 0,1 --bits 8 -o x.png
--graph examples/graphs/docs/cellular-hybrid.json --size 256x256 --frequency 8 --range 0,2 --bits 8 -o x.png
--graph examples/graphs/docs/cellular-minkowski.json --size 256x256 --frequency 8 --range 0,1 --bits 8 -o x.png
--graph examples/graphs/docs/remove-dimension.json --dims 3 --size 512x256x1 --frequency 4,2,1 --offset 0,-1,0.5 --range -1,1 --ramp terrain --bits 8 -o x.png
--graph examples/graphs/docs/ridged-weighted.json --size 256x256 --frequency 4 --range 0,1 --bits 8 -o x.png
--graph examples/graphs/docs/warp-progressive.json --size 256x256 --frequency 8 --bits 8 -o x.png
--graph examples/graphs/docs/white.json --size 256x256 --frequency 32 --bits 8 -o x.png
--graph examples/graphs/island.json --size 256x256 --frequency 4 --ramp terrain --bits 8 -o x.png
--graph examples/graphs/marble.json --size 256x256 --frequency 4 -o x.png
--graph examples/graphs/mountains.json --size 512x256 --frequency 2,1 --offset -1,-0.5 --range -1,1 --ramp terrain --bits 8 -o x.png
--graph examples/graphs/strata.json --size 256x256 --frequency 4 --ramp magma --bits 8 -o x.png
--graph examples/graphs/terrain.json --dims 3 --size 64x64x16 --frequency 4 --curl --backend gpu -o x.npy
--graph examples/graphs/terrain.json --dims 3 --size 64x64x16 --frequency 4 --gradient -o x.npy
--graph examples/graphs/terrain.json --dims 3 --size 64x64x16 --frequency 4 -o x.npy
--graph examples/graphs/terrain.json --dims 3 --size 64x64x16 --frequency 4 --backend gpu -o x.npy
--graph examples/graphs/terrain.json --size 256x256 --frequency 4 --normal-map --backend gpu -o x.png
--graph examples/graphs/tiles.json --size 256x256 --frequency 4 -o x.png
--graph examples/graphs/tiles.json --size 256x256 --frequency 4 --backend gpu -o x.png
--graph examples/graphs/wood.json --size 256x256 --frequency 4 -o x.png
--graph examples/graphs/wood.json --size 256x256 --frequency 4 --backend gpu -o x.png
--noise cellular --cellular f2-f1 --size 256x256 --frequency 6 --tileable --warp 0.6 --warp-octaves 2 --range 0,1 --bits 8 --backend gpu -o x.png
--noise cellular --cellular f2-f1 --tileable --octaves 3 --fractal ridged --size 256x256 --frequency 6 --range 0,1 --bits 8 -o x.png
--noise cellular --distance manhattan --jitter 0.8 --size 256x256 --frequency 8 --range 0,1.5 --bits 8 -o x.png
--noise cellular --distance chebyshev --size 128x128 --frequency 8 --gradient -o x.npy
--noise cellular --distance chebyshev --size 128x128 --frequency 8 --gradient --backend gpu -o x.npy
--noise cellular --distance chebyshev --size 128x128 --frequency 8 --warp 0.5 --normal-map -o x.png
--size 1024x256 --frequency 16,4 --offset 100.5,-3 --seed 42 -o x.png
--size 128 --frequency 3 --octaves 3 --normal-map --normal-strength 8 -o x.png
--size 128 --frequency 4 --lookup hash -o x.png
--size 128 --frequency 4 --octaves 6 --fractal ridged -o x.png
--size 256x256 --frequency 2 --octaves 5 --warp 2 --warp-octaves 4 --warp-frequency 0.5 --warp-iterations 2 --bits 8 --backend gpu -o x.png
--size 256x256 --frequency 4 --curl --bits 8 -o x.png
--size 256x256 --frequency 6 --octaves 3 --seed 3 --flow-angle 1.6 --bits 8 -o x.png
--size 256x256 --frequency 8 --octaves 4 --gradient -o x.exr
--size 512x512 --bits 8 --range -0.8,0.8 -o x.png
LIST
echo "0.5 1.25 2" | $BIN sample --graph examples/graphs/terrain.json --dims 3 > "$OUT/sample.txt" 2>&1
(cd "$OUT" && sha256sum * > ../$(basename "$OUT").sha256)
echo "$i commands"
