"""Preset figures (filled in below)."""
PRESETS = {"square": "outer 0,0 4,0 4,4 0,4\n"}
