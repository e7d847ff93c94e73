"""A bounded load test on loopback (issue 29): six pages open, 500 steps, every
update arrives, in order, and each page's state patched step by step ends equal to a
fresh page's. The latencies are printed, never asserted (speed lives in the bench)."""

from __future__ import annotations

import statistics

import pytest

from twtw_desktop.bench.web import loopback_run

pytestmark = pytest.mark.slow


def test_six_pages_five_hundred_steps_none_lost_or_out_of_order(capsys):
    run = loopback_run(500, devices=6)
    assert run.lost == 0
    assert run.out_of_order == 0
    assert run.updates == 6 * 500
    assert run.final_ok
    with capsys.disabled():
        print(
            f"\n6 pages x 500 steps: step -> page p95 {run.p95() * 1e3:.1f} ms, "
            f"median {statistics.median(run.latencies) * 1e3:.1f} ms; "
            f"{statistics.fmean(run.sizes):.0f} bytes per update"
        )
