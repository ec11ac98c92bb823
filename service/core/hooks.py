"""Extension points: a feature lower down offers a Registry, features above it register functions
in their init_app, and the lower one calls them. So a feature reacts to another's change without
the two importing each other (docs/architecture.md)."""
from __future__ import annotations


class Registry:
    """Functions (or other hook values) in the order registered. Registering one again changes
    nothing: apps are made many times in one process, by tests."""

    def __init__(self, doc: str = ""):
        self.__doc__ = doc
        self._hooks: list = []

    def register(self, hook, first: bool = False) -> None:
        """Add `hook` after those registered so far (`first`: before them)."""
        if hook not in self._hooks:
            self._hooks.insert(0 if first else len(self._hooks), hook)

    def __call__(self) -> tuple:
        """The hooks registered, as a tuple: statements built from them can be cached by it."""
        return tuple(self._hooks)
