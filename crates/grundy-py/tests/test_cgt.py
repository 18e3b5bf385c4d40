"""grundy.cgt: canonical forms from Python — the algebra against textbook identities
(Winning Ways; Siegel, *Combinatorial Game Theory*), values against the CLI's
`grundy value --json`."""

import doctest
import html.parser
from fractions import Fraction

import pytest

import grundy
from grundy import cgt

from test_core import cli_json


def test_the_module_examples_hold():
    failures, tried = doctest.testmod(cgt)
    assert tried > 0 and failures == 0


def test_numbers_nimbers_and_ups():
    zero, star, up, down = cgt.zero(), cgt.star(), cgt.up(), cgt.down()
    half = cgt.form([0], [1])  # {0|1} = 1/2
    assert half == cgt.number(Fraction(1, 2)) and half.number == Fraction(1, 2)
    assert half + half == 1 and 1 == half + half
    assert str(half) == "1/2"
    assert up + down == zero and -up == down
    assert up > 0 and not up.confused_with(0)
    assert star.confused_with(0) and not star > 0 and not star < 0 and star != 0
    assert (up + star).confused_with(0)  # ↑* is confused with 0
    assert cgt.nimber(2) + cgt.nimber(3) == star  # 2 xor 3 = 1
    assert star.nimber == 1 and up.nimber is None and up.number is None
    assert up.ascii == "^" and (up + star).ascii == "^*"
    assert cgt.number(Fraction(3, 4)).birthday == 3


def test_switches_hot_games_and_their_temperatures():
    pm1 = cgt.form([1], [-1])
    assert str(pm1) == "±1" and pm1.ascii == "+-1" and pm1.outcome == "N"
    assert pm1 + pm1 == 0  # ±1 + ±1 = 0
    assert (pm1.mean, pm1.temperature) == (0, 1)
    hot = cgt.form([1], [0])  # {1|0}: mean 1/2, temperature 1/2
    assert (hot.mean, hot.temperature) == (Fraction(1, 2), Fraction(1, 2))
    assert hot.stops == (1, 0)
    assert cgt.integer(3).temperature == -1  # an integer's temperature, as CGSuite gives it
    assert [str(g) for g in hot.left_options] == ["1"] and [str(g) for g in hot.right_options] == ["0"]


def test_not_a_dyadic_is_refused():
    with pytest.raises(ValueError, match="dyadic"):
        cgt.number(Fraction(1, 3))


@pytest.mark.parametrize(
    "spec",
    ["domineering[2x3]", "domineering[3x3]", "domineering[2x3] + domineering[3x2]", "domineering[2x2] + nim(3) + octal[0.77](4)"],
)
def test_values_agree_with_the_cli(spec):
    want = cli_json("value", spec)
    g = cgt.value(spec)
    assert str(g) == want["value"] and g.outcome == want["class"]
    assert str(g.mean) == want["mean"] and str(g.temperature) == want["temperature"]
    assert [(part, str(v)) for part, v in cgt.parts(spec)] == [(p["spec"], p["value"]) for p in want["parts"]]


def test_a_domineering_rectangle_and_its_transpose_cancel():
    a, b = cgt.value("domineering[2x3]"), cgt.value("domineering[3x2]")
    assert a == -b and a + b == 0 and a - a == 0
    assert {a, -b} == {a}  # equal values are one form: one hash


def test_refusals_are_grundy_errors():
    with pytest.raises(grundy.GrundyError, match="kalah"):
        cgt.value("kalah[3,2]")
    with pytest.raises(grundy.GrundyError) as e:
        cgt.value("domineering[2x3](..")
    assert e.value.line == 1


def test_jupyter_shows_a_table():
    page = cgt.form([1], [-1])._repr_html_()
    parser = html.parser.HTMLParser()
    parser.feed(page)
    assert "±1" in page and "first player wins" in page and "<table>" in page


def test_the_thermograph_is_drawn():
    g = cgt.value("domineering[2x3]")
    try:
        svg = g.thermograph_svg()
    except ValueError as e:
        pytest.skip(str(e))  # no TrueType font on this machine
    assert svg.startswith("<svg") and "mean 3/4, temperature 5/4" in svg
    assert svg in g._repr_html_()


def test_forms_read_as_cgsuite_writes_them():
    # CGSuite's own test cases: {0||0|v*} is written {0|^<2>}, atomic weight 1;
    # {^^^|vv} has atomic weight {1|0}; {3||2*|1*} freezes to 9/4*.
    assert str(cgt.read("{^^^|vv}")) in ("{^3|vv}", "{↑3|↓↓}")
    assert cgt.read("{0||0|v*}").atomic_weight() == 1
    assert cgt.read("{^^^|vv}").atomic_weight() == cgt.form([1], [0])
    assert cgt.read("{3||2+*|1+*}").freeze() == cgt.read("9/4*")
    assert cgt.read("^ + *2 - 1/4") == cgt.up() + cgt.nimber(2) - cgt.number(Fraction(1, 4))
    with pytest.raises(ValueError, match="column 3"):
        cgt.read("1/3")


def test_cooling_heating_and_atomic_weight():
    pm = cgt.read("+-1")
    assert pm.cool(1) == cgt.star()
    assert pm.cool(cgt.number(Fraction(1, 2))) == cgt.read("+-1/2")
    assert pm.cool(2) == 0
    assert cgt.star().heat(1) == pm
    assert cgt.integer(1).overheat(cgt.star(), 1) == cgt.star()
    assert cgt.star().freeze() == cgt.star()
    assert cgt.up().is_all_small and not pm.is_all_small
    with pytest.raises(ValueError, match="above -1"):
        pm.cool(-1)
    with pytest.raises(ValueError, match="not infinitesimal"):
        pm.atomic_weight()


def test_atomic_weight_beyond_all_small_and_reduced_forms():
    # CGSuite's CanonicalShortGameTestCase.scala: {1|^^||^} weighs 2, {1|^^^||^} is not
    # atomic, Tiny(3/2) = {0||0|-3/2} weighs 0; reduced canonical forms drop infinitesimals.
    g = cgt.read("{1|^^||^}")
    assert not g.is_all_small and g.is_infinitesimal
    assert g.atomic_weight() == 2 and g.reduced_canonical_form() == 0
    with pytest.raises(ValueError, match="not atomic"):
        cgt.read("{1|^^^||^}").atomic_weight()
    assert cgt.read("{0||0|-3/2}").atomic_weight() == 0
    assert cgt.read("{3||2*|1*}").reduced_canonical_form() == cgt.read("{3||2|1}")
    assert cgt.read("73/16+v9*8").reduced_canonical_form() == cgt.number(Fraction(73, 16))
    assert (cgt.up() + cgt.star()).reduced_canonical_form() == 0
