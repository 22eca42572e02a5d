from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from automation.engine.dice import CampaignKey, DiceKind, RollLabel


KEY = CampaignKey.from_text("sample campaign key")


def test_the_same_key_and_label_always_give_the_same_dice():
    label = RollLabel.of("Dec 24", "cpp", "German")
    first = KEY.throw(DiceKind.TWO_D6, label)
    assert all(KEY.throw(DiceKind.TWO_D6, label) == first for _ in range(20))
    assert CampaignKey.from_text("sample campaign key").throw(DiceKind.TWO_D6, label) == first


def test_known_vectors_never_change_between_releases():
    # Changing the derivation would silently change every past campaign's rolls.
    assert KEY.throw(DiceKind.D10, RollLabel.parse("Dec 24/cpp/German")) == (7,)
    assert KEY.throw(DiceKind.TWO_D6, RollLabel.parse("18PM/shift/British/group-1")) == (5, 1)
    assert KEY.throw(DiceKind.D100, RollLabel.parse("Dec 25/discipline/German/ME-3")) == (9, 9)


def test_another_key_or_label_gives_independent_dice():
    throws = {KEY.throw(DiceKind.D100, RollLabel.of("x", i)) for i in range(200)}
    assert len(throws) > 80


@pytest.mark.parametrize("kind", list(DiceKind))
def test_every_face_comes_up_about_equally_often_over_many_labels(kind):
    n = 6000 if kind is not DiceKind.D100 else 20000
    counts: Counter[int] = Counter()
    for i in range(n):
        dice = KEY.throw(kind, RollLabel.of("uniformity", kind.value, i))
        for position, (die, faces) in enumerate(zip(dice, kind.faces)):
            counts[(position, faces, die)] += 1
    assert len(counts) == sum(kind.faces)
    for (position, faces, die), c in counts.items():
        expected = n / faces
        sd = (n * (1 / faces) * (1 - 1 / faces)) ** 0.5
        assert abs(c - expected) < 5 * sd, (position, die, c, expected)
    chi2 = sum((c - n / f) ** 2 / (n / f) for (_, f, _), c in counts.items())
    dof = sum(kind.faces) - len(kind.faces)
    assert chi2 < dof + 6 * (2 * dof) ** 0.5


def test_rejection_sampling_leaves_no_modulo_bias():
    # 256 % 6 == 4 and 256 % 10 == 6: the bytes 252..255 / 250..255 are thrown away.
    for kind in (DiceKind.D6, DiceKind.D10):
        faces = kind.faces[0]
        assert (256 - 256 % faces) % faces == 0


def test_percentile_reads_double_zero_as_one_hundred():
    assert DiceKind.D100.total((10, 10)) == 100
    assert DiceKind.D100.total((10, 1)) == 1
    assert DiceKind.D100.total((1, 10)) == 10
    assert DiceKind.D100.total((3, 7)) == 37
    dist = DiceKind.D100.distribution()
    assert sorted(dist) == list(range(1, 101))
    assert set(dist.values()) == {Fraction(1, 100)}


def test_two_d6_keeps_each_die_and_sums_them():
    dist = DiceKind.TWO_D6.distribution()
    assert dist[7] == Fraction(6, 36) and dist[2] == Fraction(1, 36) and dist[12] == Fraction(1, 36)
    dice = KEY.throw(DiceKind.TWO_D6, RollLabel.of("a"))
    assert len(dice) == 2 and DiceKind.TWO_D6.total(dice) == sum(dice)


def test_the_commitment_can_be_published_without_revealing_the_key():
    assert len(KEY.commitment) == 64
    assert KEY.secret.hex() not in KEY.commitment
    assert "sample" not in repr(KEY)
    assert KEY.commitment == CampaignKey.from_text("sample campaign key").commitment
    assert KEY.commitment != CampaignKey.from_text("sample campaign kez").commitment


def test_mixing_player_entropy_changes_the_key_in_an_order_sensitive_way():
    a = KEY.mixed_with("alice", "bob")
    assert a != KEY and a == KEY.mixed_with("alice", "bob")
    assert a != KEY.mixed_with("bob", "alice")
    assert KEY.mixed_with("ab", "c") != KEY.mixed_with("a", "bc")


def test_a_hex_key_round_trips():
    key = CampaignKey.generate()
    assert CampaignKey.from_hex(key.to_hex()) == key


@pytest.mark.parametrize("bad", ["", "a//b", "/x"])
def test_labels_refuse_empty_parts(bad):
    with pytest.raises(ValueError):
        RollLabel.parse(bad)


def test_a_part_holding_a_slash_survives_the_round_trip():
    label = RollLabel.of("Dec 24", "withdrawal", "1/87 TB", "50%")
    assert str(label) == "Dec 24/withdrawal/1%2F87 TB/50%25"
    assert RollLabel.parse(str(label)) == label


@given(st.binary(min_size=1, max_size=32), st.text(min_size=1, max_size=20).filter(lambda s: "/" not in s and s.strip()))
def test_every_throw_is_a_legal_face(secret, part):
    key = CampaignKey(secret)
    for kind in DiceKind:
        dice = key.throw(kind, RollLabel.of(part))
        assert all(1 <= d <= f for d, f in zip(dice, kind.faces))
        assert kind.low <= kind.total(dice) <= kind.high
