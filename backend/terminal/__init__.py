"""The terminal client: ``lounge play`` plays in a lounge room from a shell.

``client`` talks the protocol (REST and Socket.IO), ``model`` keeps what the server said,
``text`` makes the server's text safe for a terminal (control characters removed),
``commands`` reads typed lines, ``render`` draws the screen with ``rich``, ``keys`` reads the
keyboard, and ``app`` runs the loop. See ``docs/terminal.md``.
"""
