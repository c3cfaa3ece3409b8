"""The README opens with the two commands that work on a fresh machine; CI runs the second."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    blocks = text.split("```")[1::2]
    return [block.strip() for block in blocks[:2]]


def test_ci_runs_exactly_the_readme_test_command():
    main_job, test_command = readme_commands()
    ci_lines = [line for line in (ROOT / ".ci" / "run").read_text().splitlines() if line and not line.startswith("#")]
    assert ci_lines[-1] == test_command
    assert "pytest" in test_command


def test_main_job_batch_solves_then_prints_stats():
    main_job, _ = readme_commands()
    assert "scorpion batch" in main_job and "scorpion stats" in main_job
    assert main_job.startswith("python3 -m venv .venv")
