"""The five games. Each module defines ``GAME``, an :class:`shared_rules.engine.Game`."""

from importlib import resources


def load_rules(slug: str) -> str:
    """The rules text (markdown) shown on the game's rules page."""
    return resources.files(__package__).joinpath("rules", f"{slug}.md").read_text("utf-8")
