"""Combinatorial game values, as CGSuite's worksheet has them: canonical forms of short
partizan games you add, negate and compare.

>>> from grundy import cgt
>>> g = cgt.value("domineering[2x3]")
>>> g, g.outcome
({2|-1/2}, 'N')
>>> g + cgt.value("domineering[3x2]") == 0
True
>>> up = cgt.form([cgt.zero()], [cgt.star()])
>>> up, up + cgt.star(), (up + cgt.star()).outcome
(^, ^*, 'N')
>>> up > 0, cgt.star().confused_with(0)
(True, True)

A :class:`Form` is one canonical form of the process's table: equal values are the same
form (``==``), ``<=`` and ``<`` are the partial order of games, ``confused_with`` says
neither is ``<=`` the other. Integers mix with forms (``g + 1``, ``g > 0``). A form has
``outcome`` (``"L"``, ``"R"``, ``"P"``, ``"N"``), ``mean``, ``temperature`` and
``stops`` (``fractions.Fraction``), ``number`` and ``nimber`` (or ``None``),
``left_options``, ``right_options``, ``birthday``, ``ascii``, ``thermograph_svg()``; in Jupyter it shows as a
small table with its thermograph. As CGSuite has them, ``cool(t)``, ``heat(t)``,
``overheat(s, t)``, ``freeze()``, ``is_all_small``, ``is_infinitesimal``,
``atomic_weight()`` (every all-small form, and the other infinitesimals CGSuite finds
atomic; ``ValueError`` for the rest) and ``reduced_canonical_form()`` (the simplest form
infinitesimally close); ``read`` makes a form from CGSuite's notation.

>>> pm = cgt.read("+-1")
>>> pm.cool(1), cgt.star().heat(1) == pm, cgt.read("^^*").atomic_weight()
(*, True, 2)
>>> g = cgt.read("{1|^^||^}")
>>> g.is_all_small, g.atomic_weight(), g.reduced_canonical_form()
(False, 2, 0)
>>> cgt.read("{3||2*|1*}").reduced_canonical_form()
{3||2|1}
"""

from fractions import Fraction

from . import _grundy, _progress

Form = _grundy.Form


def value(spec, *, max_positions=2_000_000, progress=None):
    """The value of a spec (``grundy value SPEC``): a position, or a sum ``A + B`` of
    parts — partizan parts valued by their family (Domineering), impartial ones the
    nimbers of their Grundy values."""
    total, _ = _progress.call(_grundy.value_form, spec, max_positions=max_positions, progress=progress)
    return total


def parts(spec, *, max_positions=2_000_000, progress=None):
    """Each part of a spec with its value: a list of ``(part as written, Form)``."""
    _, found = _progress.call(_grundy.value_form, spec, max_positions=max_positions, progress=progress)
    return found


def form(left, right):
    """The game ``{left | right}`` (lists of forms or integers), in canonical form."""
    return _grundy.form([_as_form(g) for g in left], [_as_form(g) for g in right])


def read(text):
    """A form written as CGSuite writes it: ``{2||1|0}``, ``^*``, ``+-1``, ``3/4``, ``*2``,
    sums such as ``^ + *2 - 1/4``; a ``ValueError`` names the column of a mistake."""
    return _grundy.read_form(text)


def number(x):
    """The number ``x``: an integer, or a ``Fraction`` whose denominator is a power of two."""
    x = Fraction(x)
    exponent = x.denominator.bit_length() - 1
    if x.denominator != 1 << exponent:
        raise ValueError(f"{x} is not a dyadic rational: short games' numbers have denominators 2^k")
    return _grundy.dyadic(x.numerator, exponent)


def integer(n):
    """The integer ``n`` as a form."""
    return _grundy.dyadic(int(n), 0)


def nimber(n):
    """The nimber ``*n``."""
    return _grundy.nimber(n)


def zero():
    """``0 = { | }``."""
    return integer(0)


def star():
    """``* = {0 | 0}``."""
    return nimber(1)


def up():
    """``^ = {0 | *}`` (up)."""
    return form([zero()], [star()])


def down():
    """``v = {* | 0}`` (down)."""
    return form([star()], [zero()])


def _as_form(g):
    if isinstance(g, Form):
        return g
    return number(g)


__all__ = ["Form", "down", "form", "integer", "nimber", "number", "parts", "read", "star", "up", "value", "zero"]
