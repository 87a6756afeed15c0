"""The one exception the rules raise."""


class InvalidMove(Exception):
    """A move the rules do not allow. Its message is written for the player."""

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else "That move is not allowed"
