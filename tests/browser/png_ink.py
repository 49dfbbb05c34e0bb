#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Prints how much of a PNG is drawn (standard library only), for the browser test of the HTML
report: `png_ink.py FILE [TOP_FRACTION]` prints "<width> <height> <ink share> <colours>" over the
rows from TOP_FRACTION of the height down (default 0), where ink = pixels that are not near-white.
Decodes 8-bit RGB / RGBA, non-interlaced (what Chromium writes)."""

import struct
import sys
import zlib


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit("not a PNG: %s" % path)
    pos, idat, width, height, ctype = 8, b"", 0, 0, 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", chunk)
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise SystemExit("unsupported PNG (depth %d, colour type %d, interlace %d)" % (depth, ctype, interlace))
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + n
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        f = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + ((a + b) >> 1)) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def main():
    width, height, bpp, rows = decode(sys.argv[1])
    top = float(sys.argv[2]) if len(sys.argv) > 2 else 0.0
    ink, total, colours = 0, 0, set()
    for row in rows[int(height * top):]:
        for x in range(0, width * bpp, bpp * 4):  # every 4th pixel: enough to tell
            r, g, b = row[x], row[x + 1], row[x + 2]
            total += 1
            colours.add((r >> 4, g >> 4, b >> 4))
            if min(r, g, b) < 235:
                ink += 1
    print(width, height, "%.4f" % (ink / max(1, total)), len(colours))


if __name__ == "__main__":
    main()
