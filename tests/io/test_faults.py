"""Files that cannot hurt the Judge: crashes and full disks during a save, hostile
files on every path that opens one, and random mutations of a valid file.

The slow ones run in CI (``.ci/run`` runs the whole suite, slow tests included).
"""

from __future__ import annotations

import json
import os
import random
import resource
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from twtw_desktop.cli import main
from twtw_desktop.errors import LoadError
from twtw_desktop.io import (
    MAX_IMAGE_BYTES,
    SaveError,
    clean_stale_temps,
    open_any,
    save_map,
    validate_file,
)
from twtw_desktop.model import Encounter, Map, Token
from twtw_desktop.model.map import MAX_FEATURES
from twtw_desktop.resources import maps_dir
from twtw_desktop.rules.samples import sample_characters

from .strategies import png_header

POSIX = os.name == "posix"


def _temps(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith((".tmp", ".tmp.json")))


# --- kill -9 during a save ---------------------------------------------------------------

_SAVER = textwrap.dedent(
    """
    import sys
    from twtw_desktop.io import save_map
    from twtw_desktop.model import Map
    m = Map.blank(300, 300, name=sys.argv[2])
    m.elevation = [[(c * r) % 7 for c in range(300)] for r in range(300)]
    print("ready", flush=True)
    while True:
        save_map(m, sys.argv[1])
    """
)


@pytest.mark.slow
@pytest.mark.skipif(not POSIX, reason="kill -9")
def test_kill_9_at_random_points_of_a_save_never_leaves_a_mix(tmp_path):
    path = tmp_path / "big.map.json"
    save_map(Map.blank(300, 300, name="old"), path)
    old = path.read_bytes()
    new_bytes: bytes | None = None
    rng = random.Random(1873)
    for _ in range(50):
        proc = subprocess.Popen(
            [sys.executable, "-c", _SAVER, str(path), "new"],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(rng.uniform(0.0, 0.15))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        now = path.read_bytes()
        if now != old:
            if new_bytes is None:
                new_bytes = now
                assert open_any(path).map.name == "new"
            assert now == new_bytes  # the old file or the whole new one, never a mix
        # the next save removes every temporary file a crash left
        m = open_any(path).map
        save_map(m, path)
        assert _temps(tmp_path) == []


# --- disk full -----------------------------------------------------------------------------

_FULL = textwrap.dedent(
    """
    import resource, signal, sys
    from twtw_desktop.io import SaveError, save_map
    from twtw_desktop.model import Map
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    m = Map.blank(200, 200, name="new and bigger")
    resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, 20_000))
    try:
        save_map(m, sys.argv[1])
    except SaveError as e:
        print(e)
        sys.exit(3)
    """
)


@pytest.mark.skipif(not hasattr(resource, "RLIMIT_FSIZE"), reason="needs RLIMIT_FSIZE")
def test_disk_full_keeps_the_old_file_and_says_so(tmp_path):
    path = tmp_path / "m.map.json"
    save_map(Map.blank(5, 5, name="old"), path)
    before = path.read_bytes()
    r = subprocess.run(
        [sys.executable, "-c", _FULL, str(path)], capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 3, r.stderr
    assert "the disk is full" in r.stdout and "unchanged" in r.stdout
    assert "Traceback" not in r.stdout + r.stderr
    assert path.read_bytes() == before
    assert _temps(tmp_path) == []


def test_stale_temps_of_a_crash_go_on_the_next_save(tmp_path):
    path = tmp_path / "m.map.json"
    save_map(Map.blank(3, 3), path)
    stale = tmp_path / ".m.map.json.0123abcd.tmp.json"
    stale.write_bytes(b"half a file")
    other = tmp_path / ".other.map.json.0123abcd.tmp.json"
    other.write_bytes(b"another file's leftover")
    save_map(Map.blank(3, 3), path)
    assert not stale.exists() and other.exists()
    assert clean_stale_temps(tmp_path / "other.map.json") == 1


@pytest.mark.skipif(not POSIX, reason="POSIX modes")
def test_a_read_only_file_is_refused_even_for_root(tmp_path):
    path = tmp_path / "m.map.json"
    save_map(Map.blank(3, 3, name="old"), path)
    path.chmod(0o444)
    before = path.read_bytes()
    try:
        with pytest.raises(SaveError, match="read-only"):
            save_map(Map.blank(3, 3, name="new"), path)
    finally:
        path.chmod(0o644)
    assert path.read_bytes() == before


# --- a hostile-file corpus ------------------------------------------------------------------


def _sample_map() -> dict:
    return json.loads((maps_dir() / "main_street.map.json").read_text(encoding="utf-8"))


def _encounter(tmp: Path, **changes) -> dict:
    m = Map.blank(10, 10)
    chars = list(sample_characters().values())[:1]
    enc = Encounter(
        map=m,
        characters=chars,
        tokens=[Token(id="t1", character_id=chars[0].id, hex=(0, 0))],
    )
    data = enc.model_dump(mode="json")
    data.update(changes)
    return data


def hostile_corpus(tmp: Path) -> dict[str, Path]:
    """Every case of the issue, written into ``tmp``: name → file."""
    out: dict[str, Path] = {}

    def put(name: str, data, raw: bytes | None = None) -> None:
        p = tmp / f"{name}.{'encounter' if 'map' in data and 'terrain' not in data else 'map'}.json"
        p.write_bytes(raw if raw is not None else json.dumps(data).encode())
        out[name] = p

    outside = tmp.parent / f"{tmp.name}-outside"
    outside.mkdir(exist_ok=True)
    (outside / "secret.png").write_bytes(png_header(10, 10))

    def with_bg(path: str, w: int = 10, h: int = 10) -> dict:
        d = _sample_map()
        d["background"] = {"path": path, "width": w, "height": h}
        return d

    if POSIX:
        os.mkfifo(tmp / "fifo.png")
        put("bg_fifo", with_bg("fifo.png"))
        (tmp / "link.png").symlink_to(outside / "secret.png")
        put("bg_symlink_out", with_bg("link.png"))
        (tmp / "zero.png").symlink_to("/dev/zero")
        put("bg_dev_zero", with_bg("zero.png"))
        os.mkfifo(tmp / "deck.json")
        put("deck_fifo", _encounter(tmp, deck_file="deck.json"))
    put("bg_absolute", with_bg(str(outside / "secret.png")))
    put("bg_dotdot", with_bg(f"../{outside.name}/secret.png"))
    (tmp / "bomb.png").write_bytes(png_header(100_000, 100_000))
    put("bg_bomb_header", with_bg("bomb.png", 16_384, 16_384))
    (tmp / "huge.png").write_bytes(png_header(10, 10))
    os.truncate(tmp / "huge.png", MAX_IMAGE_BYTES + 1)
    put("bg_over_64mb", with_bg("huge.png"))
    (tmp / "tenk.png").write_bytes(png_header(10_000, 10_000))
    put("bg_10000_declared", with_bg("tenk.png", 10_000, 10_000))
    put("deck_passwd", _encounter(tmp, deck_file="../../etc/passwd"))
    put(
        "deck_state_unknown_keys",
        _encounter(tmp, deck_state={"seed": 1, "draw_pile": [], "evil": 1}),
    )
    moved = _encounter(tmp)
    moved["tokens"][0]["moved"] = 10**18
    put("token_moved_1e18", moved)
    d = _sample_map()
    d["cols"] = d["rows"] = 1001
    put("map_1001_side", d)
    d = _sample_map()
    f = d["features"][0]
    d["features"] = [{**f, "id": f"w{i}"} for i in range(MAX_FEATURES + 1)]
    put("too_many_features", d)
    many = _encounter(tmp)
    many["tokens"] = [{**many["tokens"][0], "id": f"t{i}"} for i in range(10_001)]
    put("too_many_tokens", many)
    put("deep_nesting", {}, b"[" * 100_000 + b"]" * 100_000)
    d = _sample_map()
    put("nan", d, json.dumps(d).replace('"hex_px": 32.0', '"hex_px": NaN').encode())
    put(
        "huge_number",
        d,
        json.dumps(d).replace('"cols": ', '"cols": 1' + "0" * 5000 + ', "x": ').encode(),
    )
    dup = _encounter(tmp)
    dup["tokens"] = dup["tokens"] * 2
    put("duplicate_tokens", dup)
    big = tmp / "big.map.json"
    with open(big, "wb") as fh:
        fh.truncate(201 * 1024 * 1024)  # sparse
    out["file_over_200mb"] = big
    return out


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hostile")
    return hostile_corpus(tmp)


def _limited(seconds: float):
    """Run a call and fail the test if it takes longer than ``seconds``."""

    def handler(*_):
        raise TimeoutError(f"took longer than {seconds} s")

    class Guard:
        def __enter__(self):
            self.old = signal.signal(signal.SIGALRM, handler)
            signal.setitimer(signal.ITIMER_REAL, seconds)

        def __exit__(self, *exc):
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.old)

    return Guard()


@pytest.mark.slow
@pytest.mark.skipif(not POSIX, reason="FIFOs, symlinks and SIGALRM")
def test_every_hostile_file_is_refused_by_every_path(corpus, capsys):
    for name, path in corpus.items():
        with _limited(20):
            with pytest.raises(LoadError):
                open_any(path)
            problems = validate_file(path)
        assert problems, name
        with _limited(20):
            assert main(["validate", str(path)]) == 1, name
            assert main(["summary", str(path)]) == 1, name
        out = capsys.readouterr()
        assert "Traceback" not in out.out + out.err, name
        lines = out.out.splitlines()
        assert lines and all(line.startswith(f"FAIL {path}") for line in lines), (name, lines)


def test_the_token_moved_1e18_paces_names_the_limit_and_the_value(corpus):
    with pytest.raises(
        LoadError, match=r"less than or equal to 1000 \(found 1000000000000000000\)"
    ):
        open_any(corpus["token_moved_1e18"])


@pytest.mark.slow
def test_too_many_features_names_the_limit_and_the_count(corpus):
    with pytest.raises(LoadError, match=r"at most 100000 items.*not 100001"):
        open_any(corpus["too_many_features"])


@pytest.mark.slow
@pytest.mark.skipif(not POSIX, reason="FIFOs and symlinks")
def test_hostile_files_stay_within_memory_in_a_subprocess(corpus):
    """Every path of the corpus opened in one process capped at 1.5 GB of memory."""
    code = textwrap.dedent(
        """
        import resource, sys
        resource.setrlimit(resource.RLIMIT_AS, (1536 * 1024 * 1024,) * 2)
        from twtw_desktop.io import validate_file
        for p in sys.argv[1:]:
            assert validate_file(p), p
        print("all refused")
        """
    )
    r = subprocess.run(
        [sys.executable, "-c", code, *map(str, corpus.values())],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0 and "all refused" in r.stdout, r.stderr[-2000:]


# --- any mutation of a valid file is refused cleanly or opens --------------------------------

_VALID = (maps_dir() / "main_street.map.json").read_bytes()


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.tuples(st.integers(0, len(_VALID) - 1), st.integers(0, 255), st.sampled_from("rdi")),
        min_size=1,
        max_size=6,
    )
)
def test_any_mutation_is_refused_cleanly_or_opens(tmp_path, edits):
    blob = bytearray(_VALID)
    for pos, byte, how in edits:
        pos = min(pos, len(blob) - 1)
        if how == "r":
            blob[pos] = byte
        elif how == "d":
            del blob[pos]
        else:
            blob.insert(pos, byte)
    path = tmp_path / "mutant.map.json"
    path.write_bytes(bytes(blob))
    problems = validate_file(path)
    try:
        open_any(path)
    except LoadError:
        assert problems  # refused by both, with a reason
    else:
        assert problems == []  # validate says OK exactly when it opens
