"""A progress line for the command line's long steps (a 1B model's load and pass take seconds): on stderr,
only where stderr is a terminal (a script reading stderr sees nothing of it), written over in place and
wiped before the command's own output or error line."""
from __future__ import annotations

import sys


class Line:
    def __init__(self, stream=None):
        self.stream = sys.stderr if stream is None else stream
        self.on = bool(getattr(self.stream, "isatty", lambda: False)())
        self.shown = False

    def __call__(self, what: str):
        """A progress(done, total) that shows `what`: done of total."""
        def told(done: int, total: int) -> None:
            if self.on:
                self.stream.write(f"\r{what}: {done} of {total}\033[K")
                self.stream.flush()
                self.shown = True
        return told

    def clear(self) -> None:
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.shown = False
