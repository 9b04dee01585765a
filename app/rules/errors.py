"""The base class of every rule violation the engines report.

Each subclass carries a stable snake_case ``code``; the HTTP edge maps classes to statuses in one
table, so the rules never know about HTTP.
"""


class RuleError(Exception):
    """A request that breaks a game rule. ``code`` is what clients branch on."""

    code: str = "rule_violation"
    title: str = "Rule violation"

    def details(self) -> dict[str, object]:
        """Machine-readable facts about the violation (JSON-compatible values)."""
        return {}
