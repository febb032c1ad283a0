"""The benchmarks' shared arithmetic and report: percentiles, interleaved best-of timing, verdicts, and the
machine's conditions (CPU stolen by the host) printed with every figure."""

from __future__ import annotations

import pytest

from bench import common
from bench.common import Report, best_each, percentile


def test_percentile_interpolates_like_numpy() -> None:
    values = [4.0, 1.0, 3.0, 2.0]
    assert percentile(values, 0) == 1.0
    assert percentile(values, 100) == 4.0
    assert percentile(values, 50) == 2.5
    assert percentile(values, 99) == pytest.approx(3.97)
    assert percentile([7.0], 99) == 7.0


def test_best_each_runs_every_function_once_per_round_in_turn() -> None:
    calls: list[str] = []
    best = best_each(3, lambda: calls.append("a"), lambda: calls.append("b"))
    assert calls == ["a", "b"] * 3
    assert len(best) == 2 and all(t >= 0 for t in best)


def test_a_report_is_short_when_one_target_is_missed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(common, "reference_loop", lambda: 12.5)
    report = Report("x", "A benchmark", "python -m bench.x")
    report.check("speed", 30.0, "ops/s", ">= 20", True)
    assert report.passed
    report.check("latency", 12.0, "ms", "< 10 ms", False)
    assert not report.passed
    text = report.render()
    assert "PASS" in text and "SHORT" in text
    assert "reference loop: 12.5 ms" in text
    figures = report.to_dict()
    assert figures["passed"] is False and [r["verdict"] for r in figures["rows"]] == [True, False]


def test_the_cpu_stolen_by_the_host_is_the_steal_share_since_the_report_began(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(common, "reference_loop", lambda: 1.0)
    # /proc/stat order: user, nice, system, idle, iowait, irq, softirq, steal
    monkeypatch.setattr(common, "cpu_times", lambda: [100, 0, 20, 500, 0, 0, 0, 10])
    report = Report("x", "A benchmark", "python -m bench.x")
    monkeypatch.setattr(common, "cpu_times", lambda: [160, 0, 30, 520, 0, 0, 0, 20])
    assert report.stolen() == pytest.approx(10 / 100)
    assert "CPU stolen by the host: 10.0%" in report.conditions()
    monkeypatch.setattr(common, "cpu_times", lambda: None)  # no /proc/stat: no figure, no error
    assert report.stolen() is None
    assert "CPU stolen by the host: -" in report.conditions()
