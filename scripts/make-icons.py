#!/usr/bin/env python3
"""Draws the web app's icons (Sources/DocketWeb/Assets/icons): a white check in a ring on the
app's blue, as the home screen shows it. Run by hand after changing the drawing; the PNG files
are committed and embedded in the binary. Needs numpy."""
import os
import struct
import zlib

import numpy

BLUE = (0x0B, 0x57, 0xD0)
WHITE = (0xFF, 0xFF, 0xFF)
FOLDER = os.path.join(os.path.dirname(__file__), "..", "Sources", "DocketWeb", "Assets", "icons")
SAMPLES = 4  # per side of a pixel: edges are smooth


def segment_distance(x, y, a, b):
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    t = numpy.clip(((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy), 0, 1)
    return numpy.hypot(x - (ax + t * dx), y - (ay + t * dy))


def coverage(size, maskable, rounded):
    """How much of each pixel the background and the white mark cover, from 0 to 1."""
    steps = (numpy.arange(size * SAMPLES) + 0.5) / (size * SAMPLES)
    x, y = numpy.meshgrid(steps, steps)
    # The background: the whole square for a maskable icon (the system cuts its own shape), a
    # rounded square for the others.
    if rounded:
        radius = 0.22
        qx = numpy.maximum(numpy.abs(x - 0.5) - (0.5 - radius), 0)
        qy = numpy.maximum(numpy.abs(y - 0.5) - (0.5 - radius), 0)
        background = numpy.hypot(qx, qy) <= radius
    else:
        background = numpy.ones_like(x, dtype=bool)
    # The mark keeps within the maskable icon's safe circle (radius 0.4) there.
    scale = 0.78 if maskable else 1.0

    def mark(px, py):
        return 0.5 + (px - 0.5) * scale, 0.5 + (py - 0.5) * scale

    ring = numpy.abs(numpy.hypot(x - 0.5, y - 0.5) - 0.31 * scale) <= 0.035 * scale
    points = [mark(0.37, 0.51), mark(0.465, 0.605), mark(0.645, 0.415)]
    check = numpy.minimum(
        segment_distance(x, y, points[0], points[1]), segment_distance(x, y, points[1], points[2])
    ) <= 0.038 * scale
    white = (ring | check) & background

    def per_pixel(mask):
        return mask.reshape(size, SAMPLES, size, SAMPLES).mean(axis=(1, 3))

    return per_pixel(background), per_pixel(white)


def png(path, size, maskable=False, rounded=True):
    alpha, white = coverage(size, maskable, rounded)
    share = numpy.where(alpha > 0, white / numpy.maximum(alpha, 1e-9), 0)[..., None]
    colour = numpy.array(BLUE) * (1 - share) + numpy.array(WHITE) * share
    pixels = numpy.concatenate([colour, alpha[..., None] * 255], axis=2).round().astype(numpy.uint8)
    rows = b"".join(b"\x00" + pixels[row].tobytes() for row in range(size))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(
            ">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    with open(path, "wb") as file:
        file.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
                   + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


os.makedirs(FOLDER, exist_ok=True)
png(os.path.join(FOLDER, "icon-192.png"), 192)
png(os.path.join(FOLDER, "icon-512.png"), 512)
png(os.path.join(FOLDER, "icon-maskable-512.png"), 512, maskable=True, rounded=False)
# iOS rounds the corners of its touch icon itself, and shows transparency as black.
png(os.path.join(FOLDER, "apple-touch-icon.png"), 180, rounded=False)
png(os.path.join(FOLDER, "favicon-32.png"), 32)
