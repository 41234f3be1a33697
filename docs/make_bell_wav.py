"""Write ``static/bell.wav``, the room display's bell: a struck hand bell, synthesized.

Run: ``.venv/bin/python docs/make_bell_wav.py``. Two strikes of a bell made of five inharmonic
partials (hum, prime, tierce, quint, nominal: the ratios of a church bell), each decaying
exponentially; 1.8 s, 22,050 Hz, 16-bit mono, about 80 KB. No third-party sound is used.
"""

import math
import struct
import wave
from pathlib import Path

RATE = 22_050
SECONDS = 1.8
BASE = 880.0  # the prime, in Hz
PARTIALS = [(0.5, 0.35, 1.2), (1.0, 1.0, 2.2), (1.2, 0.55, 3.0), (1.5, 0.35, 3.8), (2.0, 0.45, 4.5), (2.74, 0.2, 6.0)]
STRIKES = (0.0, 0.55)


def sample(t: float) -> float:
    total = 0.0
    for start in STRIKES:
        s = t - start
        if s < 0:
            continue
        attack = min(1.0, s / 0.004)
        for ratio, amp, decay in PARTIALS:
            total += attack * amp * math.exp(-decay * s) * math.sin(2 * math.pi * BASE * ratio * s)
    return total


def main() -> None:
    frames = [sample(i / RATE) for i in range(int(RATE * SECONDS))]
    peak = max(abs(x) for x in frames)
    out = Path(__file__).resolve().parent.parent / "static" / "bell.wav"
    with wave.open(str(out), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(b"".join(struct.pack("<h", int(0.9 * 32767 * x / peak)) for x in frames))
    print(out, out.stat().st_size, "bytes")


if __name__ == "__main__":
    main()
