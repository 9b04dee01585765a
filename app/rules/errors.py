"""The root of every error the domain reports, and the root of the rules' own: RuleError.

The rules are the innermost layer (they import nothing of the app), so the root every domain
error shares lives here; the sessions add theirs under it, grouped by meaning
(``sessions/errors.py``). Each concrete error carries a stable snake_case ``code``; the HTTP edge
gives each its status and title in one table (``api/problems.py``), so the domain never knows
about HTTP.
"""

from typing import ClassVar


class DomainError(Exception):
    """Something the domain refuses or cannot do. ``code`` is what clients branch on."""

    code: ClassVar[str]

    def details(self) -> dict[str, object]:
        """Machine-readable facts about the error (JSON-compatible values)."""
        return {}


class RuleError(DomainError):
    """A move that breaks a rule of the game. It is refused and changes nothing."""
