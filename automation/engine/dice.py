"""Dice that anyone can audit.

A roll is never drawn from a process-wide random generator. It is derived from
a secret :class:`CampaignKey` and a :class:`RollLabel` naming what the roll is
for, so the same key and label always give the same dice, and revealing the key
after the campaign lets anyone re-derive every roll.

Derivation: HMAC-SHA256(key, label) seeds a byte stream (HMAC of the label and
a block counter); each die takes bytes by rejection sampling, so every face is
exactly equally likely (no modulo bias).
"""
from __future__ import annotations

import enum
import functools
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from itertools import product

COMMITMENT_PREFIX = b"musterroll/commitment/v1\x00"


class DiceKind(enum.Enum):
    """The kinds of roll the four rule systems use."""

    D6 = "d6"  # ASL dr, BFTA die
    TWO_D6 = "2d6"  # ASL DR: each die kept (coloured die, original 2)
    D10 = "d10"  # Battlefront: WWII DR/Dr
    D100 = "d100"  # Battlefront percentile: 2d10 read 01-100, 00 = 100

    @property
    def faces(self) -> tuple[int, ...]:
        """Faces of each physical die thrown for this kind."""
        return {
            DiceKind.D6: (6,),
            DiceKind.TWO_D6: (6, 6),
            DiceKind.D10: (10,),
            DiceKind.D100: (10, 10),
        }[self]

    def total(self, dice: tuple[int, ...]) -> int:
        """The natural number a throw reads as."""
        if self is DiceKind.D100:
            tens, ones = dice
            value = (tens % 10) * 10 + (ones % 10)
            return 100 if value == 0 else value
        return sum(dice)

    def outcomes(self) -> Iterator[tuple[tuple[int, ...], Fraction]]:
        """Every possible throw with its exact probability."""
        faces = self.faces
        weight = Fraction(1, 1)
        for f in faces:
            weight /= f
        for dice in product(*(range(1, f + 1) for f in faces)):
            yield dice, weight

    def distribution(self) -> dict[int, Fraction]:
        """Exact probability of each natural total (enumerated once per kind)."""
        return dict(_distribution(self))

    @property
    def low(self) -> int:
        return min(self.distribution())

    @property
    def high(self) -> int:
        return max(self.distribution())

    @classmethod
    def parse(cls, text: str) -> DiceKind:
        for kind in cls:
            if kind.value == text:
                return kind
        raise ValueError(f"unknown dice {text!r}; valid: {', '.join(k.value for k in cls)}")


@functools.cache
def _distribution(kind: DiceKind) -> tuple[tuple[int, Fraction], ...]:
    dist: dict[int, Fraction] = {}
    for dice, p in kind.outcomes():
        t = kind.total(dice)
        dist[t] = dist.get(t, Fraction(0)) + p
    return tuple(sorted(dist.items()))


@dataclass(frozen=True)
class RollLabel:
    """What a roll is for, as a stable path such as ``24DEC/cpp/German``.

    Parts are joined with ``/``; within a part ``%`` and ``/`` are written
    ``%25`` and ``%2F`` (so an ME named "1/87 TB" keeps its name). A part may
    not be empty.
    """

    parts: tuple[str, ...]

    @classmethod
    def of(cls, *parts: object) -> RollLabel:
        text = tuple(str(p).strip() for p in parts)
        for p in text:
            if not p:
                raise ValueError("label parts must not be empty")
        return cls(text)

    @classmethod
    def parse(cls, text: str) -> RollLabel:
        return cls.of(*(p.replace("%2F", "/").replace("%2f", "/").replace("%25", "%") for p in text.split("/")))

    def child(self, *parts: object) -> RollLabel:
        return RollLabel.of(*self.parts, *parts)

    def __str__(self) -> str:
        return "/".join(p.replace("%", "%25").replace("/", "%2F") for p in self.parts)


@dataclass(frozen=True, repr=False)
class CampaignKey:
    """The secret every roll of a campaign derives from.

    Its :attr:`commitment` may be published (it is written into the workbook);
    the key itself lives only in the umpire's key file.
    """

    secret: bytes

    def __post_init__(self) -> None:
        if len(self.secret) == 0:
            raise ValueError("a campaign key cannot be empty")

    def __repr__(self) -> str:
        return f"CampaignKey(commitment={self.commitment[:16]}...)"

    @classmethod
    def generate(cls) -> CampaignKey:
        import secrets  # (here and below: a table look-up, which never rolls, starts without them)

        return cls(secrets.token_bytes(32))

    @classmethod
    def from_text(cls, text: str) -> CampaignKey:
        """A key given on the command line (``--seed``), used as its UTF-8 bytes."""
        return cls(text.encode("utf-8"))

    @classmethod
    def from_hex(cls, text: str) -> CampaignKey:
        return cls(bytes.fromhex(text.strip()))

    def to_hex(self) -> str:
        return self.secret.hex()

    def mixed_with(self, *contributions: str) -> CampaignKey:
        """A new key that also depends on each player's secret contribution."""
        import hashlib

        h = hashlib.sha256(b"musterroll/mix/v1\x00" + self.secret)
        for c in contributions:
            data = c.encode("utf-8")
            h.update(len(data).to_bytes(8, "big") + data)
        return CampaignKey(h.digest())

    @property
    def commitment(self) -> str:
        """SHA-256 commitment to the key, safe to publish."""
        import hashlib

        return hashlib.sha256(COMMITMENT_PREFIX + self.secret).hexdigest()

    def _stream(self, label: RollLabel) -> Iterator[int]:
        import hashlib
        import hmac

        message = str(label).encode("utf-8")
        counter = 0
        while True:
            block = hmac.new(
                self.secret, message + b"\x00" + counter.to_bytes(4, "big"), hashlib.sha256
            ).digest()
            yield from block
            counter += 1

    def throw(self, kind: DiceKind, label: RollLabel) -> tuple[int, ...]:
        """The dice thrown for ``label``: always the same for the same key."""
        stream = self._stream(label)
        dice: list[int] = []
        for faces in kind.faces:
            limit = 256 - (256 % faces)
            for byte in stream:
                if byte < limit:
                    dice.append(byte % faces + 1)
                    break
        return tuple(dice)


def commitment_of(secret: bytes) -> str:
    return CampaignKey(secret).commitment
