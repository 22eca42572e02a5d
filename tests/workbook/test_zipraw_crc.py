"""Pieces of a member joined without inflating some of them: the CRC-32 of
data A then data B is worked out from the CRC-32s of each and B's length
(automation.workbook.zipraw.crc32_combine), as zlib.crc32 of the two gives it."""
from __future__ import annotations

import zlib

from hypothesis import given
from hypothesis import strategies as st

from automation.workbook.zipraw import Deflated, crc32_combine


@given(st.binary(max_size=2000), st.binary(max_size=5000))
def test_the_crc_of_two_pieces_is_the_crc_of_their_data_one_after_the_other(a: bytes, b: bytes) -> None:
    assert crc32_combine(zlib.crc32(a), zlib.crc32(b), len(b)) == zlib.crc32(a + b)


def test_a_long_piece_combines_as_its_data_does() -> None:
    a, b = b"<row/>" * 7, bytes(range(256)) * 40_000  # about 10 MB: a length of many bits
    assert crc32_combine(zlib.crc32(a), zlib.crc32(b), len(b)) == zlib.crc32(a + b)


@given(st.lists(st.binary(max_size=3000), min_size=1, max_size=6), st.lists(st.booleans(), min_size=6, max_size=6),
       st.binary(max_size=500))
def test_pieces_joined_with_some_taken_as_stored_inflate_to_their_data(
        datas: list[bytes], stored: list[bool], last: bytes) -> None:
    pieces = [Deflated.piece(d) for d in datas]
    joined = Deflated.joined([(p, None if keep else d) for p, d, keep in zip(pieces, datas, stored)], last)
    whole = b"".join(datas) + last
    assert joined.inflated() == whole
    assert (joined.crc, joined.size) == (zlib.crc32(whole), len(whole))
