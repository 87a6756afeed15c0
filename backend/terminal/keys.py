"""The keyboard: single keys without Enter (cbreak mode), and a small line editor on top.

Cbreak mode turns off the terminal's own echo and line editing, so the client can act on one
key at once (Slapjack's slap) and still draw the typed line itself. Ctrl-C is read as a key too,
not left to the terminal to turn into SIGINT: a SIGINT can be ignored by whatever started the
client (a background job of a script inherits that), and CPython can run its handler late when
the signal lands on another thread. Ctrl-Z still suspends.
"""

from __future__ import annotations

import codecs
import os
import select
import termios
import tty

ENTER, BACKSPACE, KILL, EOF, INTERRUPT = "\n", "\x7f", "\x15", "\x04", "\x03"
MAX_LINE = 500


class Keyboard:
    """Reads keys from a file descriptor; use as a context manager to set and restore cbreak."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.is_tty = os.isatty(fd)
        self._saved: list | None = None
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._escape = ""  # the part of an escape sequence (arrow keys…) read so far

    def __enter__(self) -> Keyboard:
        self.resume()
        return self

    def __exit__(self, *exc: object) -> None:
        self.pause()

    def resume(self) -> None:
        """Cbreak mode on (the terminal's own settings are kept for :meth:`pause`)."""
        if self.is_tty and self._saved is None:
            self._saved = termios.tcgetattr(self.fd)
            tty.setcbreak(self.fd)
            mode = termios.tcgetattr(self.fd)
            mode[tty.CC][termios.VINTR] = os.fpathconf(self.fd, "PC_VDISABLE")
            termios.tcsetattr(self.fd, termios.TCSANOW, mode)

    def pause(self) -> None:
        """The terminal as it was before (on exit, and while suspended with Ctrl-Z)."""
        if self._saved is not None:
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)
            self._saved = None

    def read(self, timeout: float) -> list[str] | None:
        """The keys typed within ``timeout`` seconds ([] if none); None at the end of input."""
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return []
        try:
            data = os.read(self.fd, 1024)
        except OSError:
            return None
        if not data:
            return None
        return self._keys(self._decoder.decode(data))

    def _keys(self, text: str) -> list[str]:
        keys = []
        for ch in text:
            if self._escape:
                self._escape += ch
                # CSI sequences end with a letter or ~; anything else after ESC is one key
                if self._escape_done(ch):
                    self._escape = ""
                continue
            if ch == "\x1b":
                self._escape = ch
            elif ch == "\r":
                keys.append(ENTER)
            elif ch == "\x08":
                keys.append(BACKSPACE)
            else:
                keys.append(ch)
        return keys


    def _escape_done(self, ch: str) -> bool:
        if len(self._escape) == 2:
            return ch not in "[O"
        return ch.isalpha() or ch == "~" or len(self._escape) > 16


class LineEditor:
    """The line being typed: printable keys add, Backspace and Ctrl-U remove, Enter submits."""

    def __init__(self) -> None:
        self.text = ""

    def feed(self, key: str) -> str | None:
        """Take one key; the finished line when it is Enter, else None."""
        if key == ENTER:
            line, self.text = self.text, ""
            return line
        if key == BACKSPACE:
            self.text = self.text[:-1]
        elif key == KILL:
            self.text = ""
        elif key.isprintable() and len(self.text) < MAX_LINE:
            self.text += key
        return None
