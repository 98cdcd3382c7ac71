"""What a conformance check answers: one result per law, and the report over all of them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal


class LawFailure(Exception):
    """Raised by a law: the rule it found broken and the smallest input that shows it."""

    def __init__(self, message: str, example: str | None = None):
        super().__init__(message)
        self.message = message
        self.example = example


class LawSkipped(Exception):
    """Raised by a law that cannot be checked for this puzzle (say why)."""


@dataclass(frozen=True)
class LawResult:
    """How one law went: ``"pass"``, ``"fail"`` or ``"skip"``, with a line saying what was
    checked (or why it failed) and, on failure, a minimal failing example."""

    law: str
    title: str
    status: Literal["pass", "fail", "skip"]
    message: str = ""
    example: str | None = None

    @property
    def ok(self) -> bool:
        return self.status != "fail"

    def text(self) -> str:
        """The result as the lines ``puzzle check`` prints."""
        head = f"{self.status.upper():4}  {self.law}: {self.title}"
        lines = [head]
        if self.message:
            lines.append(f"      {self.message}")
        if self.example is not None:
            lines.append(f"      minimal failing example: {self.example}")
        return "\n".join(lines)


@dataclass(frozen=True)
class CheckReport:
    """Every law's result for one puzzle; ``ok`` when none failed."""

    puzzle_id: str
    plugin: str | None
    results: tuple[LawResult, ...] = field(default_factory=tuple)

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.results)

    @property
    def failures(self) -> list[LawResult]:
        return [r for r in self.results if not r.ok]

    def summary(self) -> str:
        counts = {s: sum(r.status == s for r in self.results) for s in ("pass", "fail", "skip")}
        verdict = "conforms" if self.ok else "does NOT conform"
        return (f"{self.puzzle_id} {verdict}: {counts['pass']} passed, {counts['fail']} failed, "
                f"{counts['skip']} skipped")

    def text(self) -> str:
        """The whole report as ``puzzle check`` prints it."""
        owner = f" (plugin {self.plugin})" if self.plugin else ""
        return "\n".join([f"checking {self.puzzle_id}{owner}"] + [r.text() for r in self.results]
                         + [self.summary()])
