"""The Python package against the CLI: the same calls give the same JSON, the same errors
(with line and column), and long calls stop on Ctrl-C.

The CLI is `target/release/grundy` of this checkout, or the binary in $GRUNDY_BIN.
"""

import html.parser
import json
import os
import pathlib
import re
import signal
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET

import pytest

import grundy

ROOT = pathlib.Path(__file__).resolve().parents[3]
CLI = os.environ.get("GRUNDY_BIN") or str(ROOT / "target" / "release" / "grundy")


def cli(*args):
    """Runs the CLI; returns (exit code, stdout, stderr)."""
    if not os.path.exists(CLI):
        pytest.fail(f"no grundy binary at {CLI}: build it (cargo build --release -p grundy-cli) or set GRUNDY_BIN")
    p = subprocess.run([CLI, *args], capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def cli_json(*args):
    code, out, err = cli(*args, "--json")
    assert code == 0, err
    return json.loads(out)


def cli_error(*args):
    """The CLI's error message for a failing call, without the `grundy: ` prefix."""
    code, _, err = cli(*args)
    assert code == 2, (code, err)
    assert err.startswith("grundy: "), err
    return err[len("grundy: ") :].rstrip("\n")


def as_python(message):
    """The CLI's refusal as Python words it: the same, its hint naming the keyword
    (``max_memory=2``) where the CLI names the flag (``--max-memory 2``)."""
    return re.sub(
        r"; raise it with --([a-z-]+) ",
        lambda m: "; raise it with " + m.group(1).replace("-", "_") + "=",
        message,
    )


# -- solve ------------------------------------------------------------------------------

CORPUS = grundy.examples() + [
    "nim(3,3,1)",
    "nim(0)",
    "octal[0.77](10^12)",
    "nim(5) + dawson(9) + multiple[2](10)",
    "multiple[2](20,5)",
    "connect4[4x4](1,2)",
    "ioiwari(4,3,2,4,2,3,2)",
]


def test_the_corpus_is_the_catalog():
    # The catalog's examples reach every family the registry lists (about 20).
    assert len(grundy.examples()) >= 20
    assert "nim(3,4,5)" in grundy.examples()


@pytest.mark.parametrize("spec", CORPUS)
def test_solve_agrees_with_the_cli(spec):
    code, out, err = cli("solve", spec, "--json")
    if code != 0:
        # Refused (too large for the default limits): the same refusal, word for word
        # (under --json the CLI's error is JSON on stderr).
        with pytest.raises(grundy.GrundyError) as e:
            grundy.solve(spec)
        refused = json.loads(err)
        if "hint" not in refused:
            assert str(e.value) == refused["error"]
            return
        # Each front end names its own knob after the same refusal.
        said = refused["error"].removesuffix("; " + refused["hint"])
        assert str(e.value).startswith(said + "; raise it with max_") or str(
            e.value
        ).startswith(said + "; lower it with up_to")
        assert e.value.limit == refused["limit"]
        return
    report = grundy.solve(spec)
    got, want = report.to_dict(), json.loads(out)
    if want.get("method") == "search":
        # The exact search's threads share one table: the nodes differ from run to run,
        # the answer does not.
        assert got.pop("nodes") > 0 and want.pop("nodes") > 0
    assert got == want
    assert isinstance(report, grundy.Report)
    assert all(isinstance(m, grundy.Move) for m in report.moves)


def test_boards_too_large_to_explore_are_searched_exactly():
    # Pons' test set L3_R1, first line: score -1, so the player to move loses with the
    # opponent's 21st disc, 4 moves from here; the CLI says the same.
    spec = "connect4[7x6](2252576253462244111563365343671351441)"
    strong = grundy.solve(spec)
    assert (strong.outcome, strong.remoteness, strong.method, strong.weak) == ("loss", 4, "search", False)
    assert [(m.name, m.outcome, m.remoteness) for m in strong.moves] == [
        ("column 6", "loss", 4),
        ("column 7", "loss", 2),
    ]
    # On every core (both calls' default) the threads share one table, so the nodes
    # counted differ from run to run; the answer does not.
    got, want = strong.to_dict(), cli_json("solve", spec)
    assert got.pop("nodes") > 0 and want.pop("nodes") > 0
    assert got == want
    weak = grundy.solve(spec, weak=True)
    assert (weak.outcome, weak.remoteness, weak.weak) == ("loss", None, True)
    # The nodes differ: Python keeps the search's table between calls (the strong search
    # above proved most of this), a new process starts empty.
    cli = cli_json("solve", spec, "--weak")
    assert 0 < weak.nodes <= cli.pop("nodes")
    assert {k: v for k, v in weak.to_dict().items() if k != "nodes"} == cli
    # On two threads the same answer (the nodes counted vary with the threads' race).
    both = grundy.solve(spec, weak=True, threads=2)
    assert (both.outcome, both.remoteness, both.weak) == ("loss", None, True)
    assert [(m.name, m.outcome) for m in both.moves] == [(m.name, m.outcome) for m in weak.moves]
    # No exact search: the proof search answers, weakly; with neither, a refusal.
    assert grundy.solve(spec, max_exact_nodes=0).weak
    with pytest.raises(grundy.GrundyError):
        grundy.solve("connect4[7x6]", max_exact_nodes=0, max_nodes=10)


def test_limits_are_the_clis():
    # A sum too large to explore with a small budget is judged by Grundy values alone.
    spec = "nim(30,30,30,30)"
    small = grundy.solve(spec, max_positions=1000)
    assert small.method == "sprague-grundy"
    assert small.to_dict() == cli_json("solve", spec, "--max-positions", "1000")
    assert grundy.solve(spec).method == "retrograde"
    message = cli_error("solve", "octal[0.6](10^13)", "--max-memory", "1")
    with pytest.raises(grundy.GrundyError) as e:
        grundy.solve("octal[0.6](10^13)", max_memory=1)
    # The same refusal, each front end naming its own knob.
    assert message.endswith("; raise it with --max-memory 2 (MiB)"), message
    assert str(e.value) == as_python(message)


def test_reports_read_as_typed_objects():
    r = grundy.solve("nim(3,4,5)")
    assert (r.outcome, r.grundy, r.winning_moves) == ("win", 2, ["nim(1,4,5)"])
    assert [c.grundy for c in r.components] == [3, 4, 5]
    best = [m for m in r.moves if m.outcome == "win"]
    assert [m.spec for m in best] == ["nim(1,4,5)"] and best[0].grundy == 0
    # A Grundy value of 0 is kept, not dropped as empty.
    assert "grundy" in grundy.solve("nim(3,3)").to_dict()
    ends = grundy.solve("ends(4,7,2,9,5,2)")
    assert ends.scores == [18, 11]


def test_tablebase_solves_and_reads_as_the_cli(tmp_path):
    spec = "connect4[4x4](12)"
    seen = []
    report = grundy.solve(spec, tablebase=tmp_path, progress=lambda stage, done: seen.append(stage))
    assert report.method == "tablebase"
    assert any(stage.startswith("solve tier ") for stage in seen), seen[:5]
    assert any(p.name.startswith("tier-") for p in tmp_path.iterdir())
    # The CLI reads the same directory, tiers solved by Python, and says the same.
    assert report.to_dict() == cli_json("query", spec, "--tablebase", str(tmp_path))
    assert report.to_dict() == cli_json("solve", spec, "--tablebase", str(tmp_path))
    assert grundy.solve(spec, tablebase=str(tmp_path)).to_dict() == report.to_dict()
    with pytest.raises(grundy.GrundyError, match="tablebase= is for one board"):
        grundy.solve("nim(3) + nim(4)", tablebase=tmp_path)
    message = cli_error("solve", "nim(3)", "--tablebase", str(tmp_path))
    with pytest.raises(grundy.GrundyError) as e:
        grundy.solve("nim(3)", tablebase=tmp_path)
    assert str(e.value) == message
    other = tmp_path / "other"
    grundy.solve("tictactoe", tablebase=other)
    message = cli_error("solve", spec, "--tablebase", str(other))
    with pytest.raises(grundy.GrundyError) as e:
        grundy.solve(spec, tablebase=other)
    assert str(e.value) == message


# -- table ------------------------------------------------------------------------------

TABLES = [
    ("nim", 100),
    ("bounded-nim[3]", 500),
    ("subtraction[1,3,4]", 1000),
    ("octal[0.77]", 5000),
    ("octal[4.07]", 2000),
    ("octal[0.16]", 20000),
    ("multiple[2]", 300),
    ("dawson", 1000),
]


@pytest.mark.parametrize("family,up_to", TABLES)
def test_table_agrees_with_the_cli(family, up_to):
    t = grundy.table(family, up_to=up_to)
    assert t.to_dict() == cli_json("table", family, "--up-to", str(up_to))
    assert len(t) == up_to + 1 and t.up_to == up_to


def test_a_large_table_is_one_numpy_array():
    numpy = pytest.importorskip("numpy")
    t = grundy.table("octal[0.77]", up_to=10**6)
    assert isinstance(t.grundy, numpy.ndarray)
    assert t.grundy.dtype == numpy.uint8 and t.grundy.shape == (10**6 + 1,)
    # Kayles: period 12 from heap 71 (Guy and Smith).
    assert (t.grundy[71:-12] == t.grundy[83:]).all()
    assert t.grundy[70] != t.grundy[82]
    assert t.to_dict() == cli_json("table", "octal[0.77]", "--up-to", "1000000")
    # Values past 255 come in a wider type.
    wide = grundy.table("nim", up_to=70000)
    assert wide.grundy.dtype == numpy.uint32 and int(wide.grundy[70000]) == 70000


def test_without_numpy_a_table_is_an_array():
    code = (
        "import sys; sys.modules['numpy'] = None\n"
        "import array, grundy\n"
        "t = grundy.table('octal[0.77]', 1000)\n"
        "assert isinstance(t.grundy, array.array) and t.grundy.typecode == 'B', t.grundy.typecode\n"
        "w = grundy.table('nim', 300)\n"
        "assert isinstance(w.grundy, array.array) and w.grundy.itemsize == 4\n"
        "assert list(w.grundy) == list(range(301))\n"
        "assert t.losing() == grundy.table('octal[0.77]', 1000).losing()\n"
        "print(t.to_dict()['grundy'][:8])\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "[0, 1, 2, 3, 1, 4, 3, 2]"


def test_table_errors_are_the_clis():
    for family, up_to in [("octal[0.7q]", 10), ("nim(3)", 10), ("tictactoe", 3), ("octal[0.16]", 10**9)]:
        message = cli_error("table", family, "--up-to", str(up_to))
        with pytest.raises(grundy.GrundyError) as e:
            grundy.table(family, up_to=up_to)
        assert str(e.value) == as_python(message)


# -- pattern ----------------------------------------------------------------------------

PATTERNS = ["octal[0.77]", "subtraction[1,3,4]", "bounded-nim[3]", "multiple[2]", "wythoff", "nim", "dawson"]


@pytest.mark.parametrize("family", PATTERNS)
def test_pattern_agrees_with_the_cli(family):
    p = grundy.pattern(family)
    assert isinstance(p, grundy.Pattern)
    assert p.to_dict() == cli_json("pattern", family)


def test_pattern_options_are_the_clis():
    assert grundy.pattern("multiple[3]", up_to=500).to_dict() == cli_json("pattern", "multiple[3]", "--up-to", "500")
    code, out, err = cli("pattern", "polygon[6,0,2,4,0,1,2,2,3,4,4,5,0]", "--features")
    assert code == 0, err
    rule = grundy.pattern("polygon[6,0,2,4,0,1,2,2,3,4,4,5,0]", features=True)
    assert isinstance(rule, grundy.FeatureRule)
    assert str(rule) == out.rstrip("\n")
    message = cli_error("pattern", "tictactoe")
    with pytest.raises(grundy.GrundyError) as e:
        grundy.pattern("tictactoe")
    assert str(e.value) == message


# -- errors -----------------------------------------------------------------------------

BAD_SPECS = ["nim(3,x)", "octal[0.7q](12)", "nim(3) + ", "nmi(3)", "nim(3)\n + wythoff(1,x)", "nim(" + "1," * 500 + "x)"]


@pytest.mark.parametrize("spec", BAD_SPECS)
def test_spec_errors_are_the_clis_with_line_and_column(spec):
    message = cli_error("solve", spec)
    with pytest.raises(grundy.GrundyError) as e:
        grundy.solve(spec)
    assert str(e.value) == message
    assert isinstance(e.value, ValueError) and type(e.value) is grundy.GrundyError
    assert repr(e.value).startswith("GrundyError(") and grundy.GrundyError.__module__ == "grundy"
    head = message.splitlines()[0]
    assert head.startswith(f"bad spec at line {e.value.line}, column {e.value.column}:")
    # The caret stands under the column (a long line is shown as a window, marked by …).
    shown, caret = message.splitlines()[1:3]
    assert caret.strip() == "^"
    if "…" not in shown:
        assert caret.index("^") == e.value.column + 1


def test_a_refusal_past_a_limit_names_the_keyword_that_lifts_it():
    # kalah[4,3]'s bound (an upper bound) is past 64 times the budget: refused at once,
    # with the bound as the value that would let it through.
    with pytest.raises(grundy.GrundyError) as e:
        grundy.solve("kalah[4,3]", max_positions=100_000)
    assert "raise it with max_positions=21036600" in str(e.value), str(e.value)
    assert (e.value.limit, e.value.wanted) == ("positions", 21036600)
    # Past the proof budget of heaps: the heaps a table needs, and their true size.
    with pytest.raises(grundy.GrundyError) as e:
        grundy.solve("octal[0.6](3000000)")
    assert "raise it with max_proof_heaps=3000001" in str(e.value), str(e.value)
    assert "(3000001 heaps, 5.7 MiB)" in str(e.value), str(e.value)
    assert e.value.limit == "proof-heaps"
    # A study too far for its budget: lowered, not raised.
    with pytest.raises(grundy.GrundyError) as e:
        grundy.pattern("octal[0.6]", up_to=10**15)
    assert "lower it with up_to=" in str(e.value) and e.value.limit == "up-to"


def test_errors_without_a_place_have_none():
    with pytest.raises(grundy.GrundyError) as e:
        grundy.solve("octal[0.6](10^13)")
    assert e.value.line is None and e.value.column is None
    assert "too large" in str(e.value)


# -- graphs -----------------------------------------------------------------------------

GREEN = "2 1\n0 2 2 3\n1 1 1\n0 2 3 1\n"
PARITY = 'parity 2;\n0 2 0 1;\n1 1 1 0,2;\n2 3 0 2 "sink";\n'
DIGRAPH = "4 5\n0 1\n1 0\n0 2\n2 3\n1 1\n"


@pytest.fixture
def files(tmp_path):
    out = {}
    for name, text in [("green.txt", GREEN), ("p.pg", PARITY), ("dg.txt", DIGRAPH)]:
        path = tmp_path / name
        path.write_text(text)
        out[name] = path
    return out


GRAPH_CALLS = [
    ("green.txt", {}, []),
    ("green.txt", {"strategy": True}, ["--strategy"]),
    ("green.txt", {"objective": "reach", "accepting": [2]}, ["--objective", "reach", "--accepting", "2"]),
    ("green.txt", {"objective": "safety"}, ["--objective", "safety"]),
    ("green.txt", {"objective": "cobuchi", "strategy": True}, ["--objective", "cobuchi", "--strategy"]),
    ("p.pg", {"strategy": True}, ["--strategy"]),
    ("p.pg", {"algorithm": "zielonka", "strategy": True}, ["--algorithm", "zielonka", "--strategy"]),
    ("p.pg", {"algorithm": "fpj"}, ["--algorithm", "fpj"]),
    ("p.pg", {"objective": "token"}, ["--objective", "token"]),
    ("dg.txt", {"format": "digraph"}, ["--format", "digraph"]),
    ("dg.txt", {"format": "digraph", "sum": [0, 2]}, ["--format", "digraph", "--sum", "0,2"]),
]


@pytest.mark.parametrize("name,kwargs,flags", GRAPH_CALLS)
def test_graph_solve_agrees_with_the_cli(files, name, kwargs, flags):
    path = files[name]
    expected = cli_json("graph", str(path), *flags)
    # From the path (a str or a pathlib.Path) and from the text.
    for game in (str(path), path, path.read_text()):
        answer = grundy.graph.solve(game, **kwargs)
        assert answer.to_dict() == expected


def test_graph_answers_are_typed():
    regions = grundy.graph.solve(GREEN, strategy=True)
    assert isinstance(regions, grundy.Regions)
    assert (regions.won_by_0, regions.won_by_1) == ([1, 2], [3])
    assert [1, 2] in regions.strategy
    token = grundy.graph.solve(DIGRAPH, format="digraph", sum=[0, 2])
    assert isinstance(token, grundy.TokenValues)
    assert token.grundy == ["inf{1}", "inf{}", 1, 0]
    assert token.sum.outcome == "win"


def test_graph_verify_agrees_with_the_cli(files, tmp_path):
    game = files["green.txt"]
    _, solution, _ = cli("graph", str(game), "--strategy")
    good = tmp_path / "green.sol"
    good.write_text(solution)
    bad = tmp_path / "bad.sol"
    bad.write_text("2\n1\n2\n1 -> 3\n2 -> 1\n")
    for sol, expect_ok in [(good, True), (bad, False)]:
        code, out, _ = cli("graph", "verify", str(game), str(sol))
        assert code == (0 if expect_ok else 1)
        verdict = grundy.graph.verify(game, sol)
        assert bool(verdict) is expect_ok
        assert verdict.message == out.rstrip("\n")
        assert grundy.graph.verify(GREEN, sol.read_text()).message == verdict.message


def test_graph_errors_name_the_place(files, tmp_path):
    bad = tmp_path / "bad-dg.txt"
    bad.write_text("2 1\n0 5\n")
    message = cli_error("graph", str(bad), "--format", "digraph")
    with pytest.raises(grundy.GrundyError) as e:
        grundy.graph.solve(bad, format="digraph")
    assert str(e.value) == message
    assert (e.value.line, e.value.column) == (2, 3)
    with pytest.raises(grundy.GrundyError) as e:
        grundy.graph.solve("2 1\n0 5\n", format="digraph")
    assert str(e.value).startswith("line 2, column 3: ") and e.value.line == 2
    missing = tmp_path / "absent.pg"
    message = cli_error("graph", str(missing))
    with pytest.raises(grundy.GrundyError) as e:
        grundy.graph.solve(missing)
    assert str(e.value) == message
    with pytest.raises(grundy.GrundyError, match="only objective='token'"):
        grundy.graph.solve(files["dg.txt"], format="digraph", objective="parity")
    with pytest.raises(grundy.GrundyError, match="unknown parity algorithm"):
        grundy.graph.solve(PARITY, algorithm="fast")
    with pytest.raises(grundy.GrundyError, match="no vertex 9"):
        grundy.graph.solve(DIGRAPH, format="digraph", sum=[9])


# -- long calls -------------------------------------------------------------------------

SLOW = "grundy.table('octal[4.007]', up_to=10**6)"  # about 20 s on one core


def test_ctrl_c_stops_a_long_call():
    # Python's own Ctrl-C handler, even where the run was started with SIGINT ignored (a
    # background job of a shell script inherits that).
    code = (
        "import grundy, signal, sys\nsignal.signal(signal.SIGINT, signal.default_int_handler)\n"
        f"print('started', flush=True)\n{SLOW}\nprint('finished')\n"
    )
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "started"
    time.sleep(1.0)
    sent = time.monotonic()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    taken = time.monotonic() - sent
    assert "KeyboardInterrupt" in err, err
    assert "finished" not in out
    assert p.returncode != 0
    assert taken < 2.0, f"took {taken:.2f} s to stop"


def test_the_gil_is_released_and_progress_is_reported():
    ticks = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.001)

    seen = []
    counter = threading.Thread(target=count)
    counter.start()
    try:
        t = grundy.table("octal[4.007]", up_to=60000, progress=lambda stage, done: seen.append((stage, done)))
    finally:
        stop.set()
        counter.join()
    assert len(t) == 60001
    # Another thread ran while the library worked (about a second), and progress came.
    assert len(ticks) > 50, len(ticks)
    assert seen and all(isinstance(s, str) and isinstance(d, int) for s, d in seen)


def test_an_error_in_the_progress_callable_stops_the_call():
    def fail(stage, done):
        raise RuntimeError("enough")

    start = time.monotonic()
    with pytest.raises(RuntimeError, match="enough"):
        grundy.table("octal[4.007]", up_to=10**6, progress=fail)
    assert time.monotonic() - start < 5


def test_progress_true_writes_to_stderr():
    # The line waits a second before it shows; with no wait it shows however fast the
    # machine, so the test does not hang on the machine's speed.
    code = (
        "import grundy, grundy._progress\n"
        "grundy._progress._Line.DELAY = 0.0\n"
        "grundy.table('octal[4.007]', up_to=150000, progress=True)\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120)
    assert p.returncode == 0, p.stderr
    # A line rewritten in place: the stage and the count, then cleared at the end.
    assert b"\rgrundy sequence: " in p.stderr, p.stderr[:200]
    assert p.stderr.endswith(b"\r\x1b[K"), p.stderr[-50:]


def test_progress_true_is_silent_on_a_quick_call():
    code = "import grundy\ngrundy.table('octal[4.007]', up_to=100, progress=True)\n"
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stderr == b"", p.stderr[:200]


# -- Jupyter ----------------------------------------------------------------------------


class _Balanced(html.parser.HTMLParser):
    """Checks that every element opened is closed, in order."""

    def __init__(self):
        super().__init__()
        self.open = []

    def handle_starttag(self, tag, attrs):
        if tag not in ("br", "img", "hr", "circle", "rect", "line", "polyline", "path", "text"):
            self.open.append(tag)

    def handle_endtag(self, tag):
        if tag in ("circle", "rect", "line", "polyline", "path", "text"):
            return
        assert self.open and self.open[-1] == tag, (self.open, tag)
        self.open.pop()


def balanced(text):
    parser = _Balanced()
    parser.feed(text)
    parser.close()
    assert parser.open == [], parser.open


def test_results_render_as_html():
    for value in [
        grundy.solve("nim(3,4,5)"),
        grundy.solve("ends(4,7,2,9,5,2)"),
        grundy.pattern("octal[0.77]"),
        grundy.graph.solve(GREEN, strategy=True),
        grundy.graph.solve(DIGRAPH, format="digraph", sum=[0, 2]),
        grundy.table("octal[0.77]", 100),
    ]:
        text = value._repr_html_()
        assert text.startswith("<")
        balanced(text)
    report = grundy.solve("nim(3,4,5)")._repr_html_()
    assert "take 2 from heap 1" in report and "<table>" in report


def test_a_table_plots_as_svg(tmp_path):
    t = grundy.table("bounded-nim[4]", 60)
    svg = t._repr_svg_()
    if svg is None:
        pytest.skip("no TrueType font on this machine (CI installs fonts-dejavu-core)")
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    # 61 points and the legend's marker; the period the special method finds.
    assert svg.count("<circle") == 62
    assert "period 5 from heap 0" in svg
    # The same drawing as `grundy plot`.
    path = tmp_path / "plot.svg"
    code, _, err = cli("plot", "bounded-nim[4]", "--up-to", "60", "-o", str(path))
    assert code == 0, err
    assert path.read_text() == svg
    # A large table shows its first 2000 heaps inline.
    big = grundy.table("octal[0.77]", 10**5)._repr_svg_()
    assert big.count("<circle") == 2001 and "heaps 0..1999" in big


def test_a_book_is_read_and_left_a_book(tmp_path):
    # A book built by the CLI (`grundy book`): tiers of the first discs only.
    code, _, err = cli("book", "connect4[4x4]", "--depth", "4", "--dir", str(tmp_path))
    assert code == 0, err
    before = sorted(p.name for p in tmp_path.iterdir())
    # A position the book holds is read from it, as the CLI reads it.
    booked = grundy.solve("connect4[4x4](33)", tablebase=tmp_path)
    assert booked.method == "tablebase"
    assert booked.to_dict() == cli_json("solve", "connect4[4x4](33)", "--tablebase", str(tmp_path))
    # Past the book, another method answers (here exploring the small board), the same
    # as the CLI; the directory is not completed into a whole tablebase.
    past = grundy.solve("connect4[4x4](332211)", tablebase=tmp_path)
    assert past.method != "tablebase"
    assert past.to_dict() == cli_json("solve", "connect4[4x4](332211)", "--tablebase", str(tmp_path))
    assert sorted(p.name for p in tmp_path.iterdir()) == before
