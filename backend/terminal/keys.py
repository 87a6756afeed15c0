"""The keyboard: single keys without Enter (cbreak mode), and a small line editor on top.

Cbreak mode turns off the terminal's own echo and line editing, so the client can act on one
key at once (Slapjack's slap) and still draw the typed line itself. Ctrl-C is read as a key too,
not left to the terminal to turn into SIGINT: a SIGINT can be ignored by whatever started the
client (a background job of a script inherits that), and CPython can run its handler late when
the signal lands on another thread. Ctrl-Z still suspends.

Bracketed paste is turned on while the keyboard is ours: the terminal then wraps pasted text
in ``ESC [200~`` … ``ESC [201~``, and the whole paste comes as one key (``PASTE`` and the
text), which the editor inserts as text: a pasted line break never submits a line.

A terminal without bracketed paste (or ``tmux paste-buffer`` without ``-p``) sends a paste as
plain keys. So a read that holds a line break with more after it is a paste too: a person's
Enter comes alone, or last in a read, never in the middle of one. All that is there is read at
once (what arrives within ``PASTE_GAP`` of the last bytes too) before the rule is applied.
"""

from __future__ import annotations

import codecs
import os
import select
import sys
import termios
import tty
from typing import TextIO

ENTER, BACKSPACE, KILL, EOF, INTERRUPT = "\n", "\x7f", "\x15", "\x04", "\x03"
MAX_LINE = 500  # the server's limit for one chat message (docs/protocol.md, Limits)
ESC_TIMEOUT = 0.08  # seconds: an Esc with nothing after it this soon is a key of its own
PASTE_ON, PASTE_OFF = "\x1b[?2004h", "\x1b[?2004l"
PASTE_START, PASTE_END = "\x1b[200~", "\x1b[201~"
PASTE = "\x1b[paste]"  # the first characters of a key that holds pasted text
MAX_PASTE = 4 * MAX_LINE  # more than any line holds: the editor says the line is full
READ_SIZE = 65536
MAX_READ = 1 << 20  # bytes taken as one read at most (a paste is never longer)
PASTE_GAP = 0.01  # seconds: bytes that follow this soon belong to the same read (a big paste)


class Keyboard:
    """Reads keys from a file descriptor; use as a context manager to set and restore cbreak
    mode and bracketed paste."""

    def __init__(self, fd: int, screen: TextIO | None = None) -> None:
        self.fd = fd
        self.is_tty = os.isatty(fd)
        self.screen = screen if screen is not None else sys.stdout
        self._saved: list | None = None
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._escape = ""  # the part of an escape sequence (arrow keys…) read so far
        self._paste: str | None = None  # the text of a paste still coming in

    def __enter__(self) -> Keyboard:
        self.resume()
        return self

    def __exit__(self, *exc: object) -> None:
        self.pause()

    def resume(self) -> None:
        """Cbreak mode and bracketed paste on (the terminal's own settings are kept for
        :meth:`pause`)."""
        if self.is_tty and self._saved is None:
            self._saved = termios.tcgetattr(self.fd)
            tty.setcbreak(self.fd)
            mode = termios.tcgetattr(self.fd)
            mode[tty.CC][termios.VINTR] = os.fpathconf(self.fd, "PC_VDISABLE")
            termios.tcsetattr(self.fd, termios.TCSANOW, mode)
            self._tell_terminal(PASTE_ON)

    def pause(self) -> None:
        """The terminal as it was before (on exit, and while suspended with Ctrl-Z)."""
        if self._saved is not None:
            self._tell_terminal(PASTE_OFF)
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)
            self._saved = None

    def _tell_terminal(self, sequence: str) -> None:
        if os.environ.get("TERM") == "dumb":
            return
        try:
            if self.screen.isatty():
                self.screen.write(sequence)
                self.screen.flush()
        except (OSError, ValueError):
            pass  # the terminal went away: nothing to turn on or off

    def read(self, timeout: float) -> list[str] | None:
        """The keys typed within ``timeout`` seconds ([] if none); None at the end of input."""
        data = self._read(timeout)
        if data is None:
            return None
        text = self._decoder.decode(data)
        keys = self._keys(text)
        while self._escape:  # an Esc, maybe the start of a sequence: wait a moment for the rest
            more = self._read(ESC_TIMEOUT)
            if not more:
                self.drop_escape()
                if not keys and more is None:
                    return None
                break
            chunk = self._decoder.decode(more)
            text += chunk
            keys += self._keys(chunk)
        return [as_paste(keys)] if keys and looks_pasted(text) else keys

    def _read(self, timeout: float) -> bytes | None:
        """The bytes there within ``timeout`` (b"" if none), with all that follows at once;
        None at the end of input."""
        data = self._read_once(timeout)
        while data and len(data) < MAX_READ:
            more = self._read_once(PASTE_GAP)
            if not more:
                break
            data += more
        return data

    def _read_once(self, timeout: float) -> bytes | None:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return b""
        try:
            data = os.read(self.fd, READ_SIZE)
        except OSError:
            return None
        return data or None

    def drop_escape(self) -> None:
        """Nothing more came in time: that was the Esc key (ignored), or a sequence cut short,
        not the start of the next key."""
        self._escape = ""

    def _keys(self, text: str) -> list[str]:
        keys: list[str] = []
        for ch in text:
            if self._paste is not None:
                self._paste_char(ch, keys)
            elif self._escape:
                self._escape += ch
                # CSI sequences end with a letter or ~; anything else after ESC is one key
                if self._escape_done(ch):
                    if self._escape == PASTE_START:
                        self._paste = ""
                    self._escape = ""
            elif ch == "\x1b":
                self._escape = ch
            elif ch == "\r":
                keys.append(ENTER)
            elif ch == "\x08":
                keys.append(BACKSPACE)
            else:
                keys.append(ch)
        return keys

    def _paste_char(self, ch: str, keys: list[str]) -> None:
        """One character of a paste: kept until the paste's end marker comes."""
        paste = (self._paste or "") + ch
        if len(paste) > MAX_PASTE + len(PASTE_END):  # keep the head, and the tail for the end
            paste = paste[:MAX_PASTE] + paste[-len(PASTE_END):]
        if paste.endswith(PASTE_END):
            keys.append(PASTE + paste[:-len(PASTE_END)])
            self._paste = None
        else:
            self._paste = paste

    def _escape_done(self, ch: str) -> bool:
        if len(self._escape) == 2:
            return ch not in "[O"
        return ch.isalpha() or ch == "~" or len(self._escape) > 16


class LineEditor:
    """The line being typed: printable keys add, Backspace and Ctrl-U remove, Enter submits, a
    paste adds its text (line breaks as spaces). ``overflowed`` says a key or a paste did not
    fit in the line's 500 characters (until the line is sent or cleared)."""

    def __init__(self) -> None:
        self.text = ""
        self.overflowed = False

    def feed(self, key: str) -> str | None:
        """Take one key; the finished line when it is Enter, else None."""
        if key == ENTER:
            line = self.text
            self.clear()
            return line
        if key.startswith(PASTE):
            self._add(pasted_text(key[len(PASTE):]))
        elif key == BACKSPACE:
            self.text = self.text[:-1]
        elif key == KILL:
            self.clear()
        elif key.isprintable():
            self._add(key)
        return None

    def clear(self) -> None:
        self.text, self.overflowed = "", False

    def _add(self, text: str) -> None:
        room = MAX_LINE - len(self.text)
        if len(text) > room:
            self.overflowed = True
        self.text += text[:max(0, room)]


def looks_pasted(text: str) -> bool:
    """Whether the text of one read holds a line break with more after it (a paste)."""
    return any(ch in "\r\n" for ch in text[:-1])


def as_paste(keys: list[str]) -> str:
    """The keys of one read as one pasted text: Enter a line break, control keys dropped
    (by :func:`pasted_text`), a bracketed paste inside it as its text."""
    return PASTE + "".join(key[len(PASTE):] if key.startswith(PASTE) else key for key in keys)


def pasted_text(text: str) -> str:
    """Pasted text as one line: line breaks and tabs become spaces, other controls go."""
    text = text.replace("\r\n", "\n")
    spaced = "".join(" " if ch in "\r\n\t" else ch for ch in text)
    return "".join(ch for ch in spaced if ch.isprintable())
