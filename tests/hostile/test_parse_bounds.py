"""Deterministic bounds: a file whose shape would make a parser search for minutes is refused by measures
of its text, the same on every machine; every parse runs in a child process limited in memory and time
(a backstop no sane file reaches), and nothing is left running. ``:pyobject:`` stays linear however deep
definitions nest."""

from __future__ import annotations

import os
import resource
import time

import pytest

from textfrag.errors import TextFragError
from textfrag.intents import bounded, symbols
from textfrag.intents import limits as parse_limits
from textfrag.intents.intent import _python_objects

pytest.importorskip("tree_sitter")

GRAMMARS = sorted(symbols._GRAMMARS)
ANGLED = sorted(parse_limits.ANGLED)


def _definitions(text: str, language: str) -> str:
    """``ok`` or the problem's words, found with nothing kept (a fresh parse)."""
    symbols._scanned.cache_clear()
    try:
        symbols.definitions(text, language)
    except TextFragError as problem:
        return str(problem)
    return "ok"


@pytest.mark.parametrize("language", GRAMMARS)
def test_brackets_nested_just_under_the_bound_parse_and_just_over_are_refused(language: str) -> None:
    bound = parse_limits.DEEPEST_BRACKETS
    assert _definitions("(" * bound + ")" * bound, language) == "ok"
    over = _definitions("(" * (bound + 1), language)
    assert over.startswith("the file's brackets nest more than 2,000 deep"), over


@pytest.mark.parametrize("language", ANGLED)
@pytest.mark.parametrize("shape", ["a<", "a<a<a<a<a<;\n"])
def test_open_angles_just_under_the_bound_parse_and_just_over_are_refused(language: str, shape: str) -> None:
    """16 KB of ``a<a<...`` took C#'s grammar 2.5 s and 680 MB; 64 KB of ``a<a<a<a<a<;`` TypeScript's 40 s
    and 7 GB. Under the bound, the same shapes parse in a small fraction of that."""
    bound = parse_limits.MOST_ANGLES
    per = shape.count("<")
    under = shape * (bound // per)
    assert _definitions(under, language) == "ok"
    over = _definitions(under + shape * 2, language)
    assert over.startswith("the file leaves more than 2,000 '<' open"), over
    assert resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss < (parse_limits.PARSE_MEMORY >> 10)


def test_the_refusal_does_not_depend_on_the_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    hostile = "a<" * 8000
    said = set()
    for seconds in ("0.5", "5", "600"):
        monkeypatch.setenv("TEXTFRAG_PARSE_SECONDS", seconds)
        said.add(_definitions(hostile, "c_sharp"))
    assert len(said) == 1 and next(iter(said)).startswith("the file leaves more than 2,000 '<' open")


def test_angles_that_close_or_compare_are_not_counted_open() -> None:
    real = "Map<String, List<Map<K, V>>> m;\nif (a <= b && c >= d) { x = y << 2 >> 1; f = (p) => p->q; }\n" * 3000
    assert parse_limits.open_angles(real) == 3  # (the deepest a declaration nests: never the file's count)
    assert parse_limits.open_angles("a < b;\n" * 10) == 10


def _sleep(seconds: float) -> str:
    time.sleep(seconds)
    return "slept"


def _allocate(megabytes: int) -> int:
    return len(bytearray(megabytes << 20))


def test_the_backstop_stops_a_parse_past_its_time_and_leaves_nothing_running() -> None:
    with pytest.raises(TextFragError, match="too long"):
        bounded.in_child(_sleep, 30, seconds=0.3, too_long="too long")
    _no_zombie()


def _no_zombie() -> None:
    """No child of this process has ended without being waited for (its worker may be alive, idle)."""
    try:
        assert os.waitpid(-1, os.WNOHANG) == (0, 0)
    except ChildProcessError:
        pass


def test_the_worker_serves_parse_after_parse_and_is_replaced_when_one_overruns() -> None:
    """One worker a process: the same child answers two parses; one past its deadline is killed (and
    waited for) and the next parse gets a fresh worker; one past its memory is refused."""
    first = bounded.in_worker(os.getppid, seconds=30, too_long="late", memory=256 << 20, too_large="large")
    assert first == os.getpid()  # (the worker's parent is this process)
    worker = bounded._WORKERS[os.getpid()]
    assert bounded.in_worker(os.getpid, seconds=30, too_long="late", memory=256 << 20, too_large="large") == worker.pid
    with pytest.raises(TextFragError, match="late"):
        bounded.in_worker(_sleep, 30, seconds=0.3, too_long="late", memory=256 << 20, too_large="large")
    _no_zombie()
    assert os.getpid() not in bounded._WORKERS
    with pytest.raises(TextFragError, match="large"):
        bounded.in_worker(_allocate, 1024, seconds=30, too_long="late", memory=64 << 20, too_large="large")
    assert bounded.in_worker(_allocate, 8, seconds=30, too_long="late", memory=64 << 20, too_large="large") == 8 << 20


def test_the_backstop_stops_a_parse_past_its_memory_with_a_clear_problem() -> None:
    with pytest.raises(TextFragError, match="needed more memory"):
        bounded.in_child(_allocate, 512, seconds=30, too_long="too long", memory=64 << 20, too_large="needed more memory")
    assert bounded.in_child(_allocate, 8, seconds=30, too_long="too long", memory=64 << 20, too_large="x") == 8 << 20


def test_every_parse_runs_in_the_bounded_worker_whatever_the_files_size(monkeypatch: pytest.MonkeyPatch) -> None:
    children: list[str] = []
    real = bounded.in_worker

    def counted(work: object, *args: object, **kwargs: object) -> object:
        children.append(str(args[1]))
        return real(work, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(symbols, "in_worker", counted)
    assert _definitions("function f() { return 1; }\n", "javascript") == "ok"
    assert children == ["javascript"]
    worker = bounded._WORKERS[os.getpid()]
    assert worker.pid != os.getpid() and worker.jobs >= 1


def test_pyobject_in_a_module_of_classes_nested_95_deep_is_read_in_one_pass() -> None:
    """A module of blocks of 95 classes nested in each other (Python's parser allows 100 levels): each body
    holds the next definition, and its end is not looked for by reading all it holds (which made a 12 MB
    module take 11 s)."""
    depth, blocks = 95, 400
    lines = []
    for k in range(blocks):
        lines += ["    " * d + f"class C{k}_{d}:" for d in range(depth)]
        lines.append("    " * depth + "x = 1")
    module = "\n".join(lines) + "\n"
    found = _python_objects(module)
    assert len(found) == depth * blocks
    last = ".".join(f"C{blocks - 1}_{d}" for d in range(depth))
    assert found[last] == (len(lines) - 1, len(lines), len(lines) - 1)


def test_a_large_module_the_layout_reading_declines_is_parsed_in_a_bounded_child(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tabs in the indentation make the layout reading decline; a module of 1 MB or more (here, the bound
    lowered) is then parsed by Python's parser in a child process, with the same table as in this process."""
    from textfrag.intents import intent

    monkeypatch.setattr(intent, "_PARSE_HERE_BELOW", 64 << 10)  # (a smaller module, the same path: quicker)
    module = "".join(f"class C{k}:\n\tdef m(self):\n\t\treturn {k}\n\n" for k in range(4000))
    assert len(module) > intent._PARSE_HERE_BELOW
    children: list[int] = []
    real = bounded.in_child

    def counted(work: object, *args: object, **kwargs: object) -> object:
        children.append(len(str(args[0])))
        return real(work, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(bounded, "in_child", counted)
    found = _python_objects(module)
    assert children == [len(module)]
    assert found == intent._parsed_python(module) and found["C3999.m"] == (15998, 15999, 15998)


def test_a_parse_past_its_step_budget_is_refused_by_its_steps_whatever_the_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """tree-sitter counts its own operations (a step is 100): a parse that takes more steps than the file's
    size allows is refused with the same words whatever ``TEXTFRAG_PARSE_SECONDS`` says and however loaded
    the machine is; the count is the same on every run. (A small budget here: the real one is 50,000 steps
    and 100 a KB, which a 320 KB file of C++ templates nested 1,999 deep stays under, in about 4 s.)"""
    deep = "a<" * 1999 + "b" + ">" * 1999 + " x;\n"
    text = deep * 8
    real = parse_limits.parse_steps
    monkeypatch.setattr(parse_limits, "parse_steps", lambda size: 2_000)
    said = set()
    for seconds in ("0.5", "600"):
        monkeypatch.setenv("TEXTFRAG_PARSE_SECONDS", seconds)
        try:
            symbols._scanned_here(text, "cpp")
            said.add("ok")
        except TextFragError as refused:
            said.add(str(refused))
    [words] = said
    assert words.startswith("tree-sitter's cpp grammar took more than 200,000 steps to parse this file"), words
    monkeypatch.setattr(parse_limits, "parse_steps", real)
    assert symbols._scanned_here(text, "cpp") == ()  # (within the real budget: parsed, nothing defined)


def test_the_backstop_grows_with_the_budget_so_an_accepted_parse_never_meets_it() -> None:
    """The deadline is the time limit and a second for every 2,000 steps the file may take (500 µs a step;
    ``bench/bench_parse.py`` measures 30 to 160 µs): a large file's budget is never cut short by the clock."""
    small, large = parse_limits.backstop_seconds(1024), parse_limits.backstop_seconds(10 << 20)
    assert small == parse_limits.parse_seconds() + parse_limits.parse_steps(1024) / 2_000
    assert large > small + 500
