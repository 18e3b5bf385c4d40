"""Progress for long calls: ``progress=True`` shows a line on standard error, a callable is
called with ``(stage, done)``; the library reports every so often, and the call passes on
the latest report about every 50 ms."""

import sys
import time


class _Line:
    """One line on stderr, rewritten in place, shown once the call has run for ``DELAY``
    seconds (a quick call leaves stderr alone)."""

    DELAY = 1.0

    def __init__(self):
        self.start = time.monotonic()
        self.shown = False

    def __call__(self, stage, done):
        elapsed = time.monotonic() - self.start
        if elapsed < self.DELAY:
            return
        sys.stderr.write(f"\r{stage}: {done:,} [{elapsed:.0f} s]\x1b[K")
        sys.stderr.flush()
        self.shown = True

    def close(self):
        if self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


def call(function, *args, progress=None, **kwargs):
    """Calls the compiled ``function`` with a progress callable made from ``progress``."""
    if progress is None or progress is False:
        return function(*args, **kwargs)
    if progress is True:
        line = _Line()
        try:
            return function(*args, progress=line, **kwargs)
        finally:
            line.close()
    if not callable(progress):
        raise TypeError("progress must be True, False, None or a callable (stage, done)")
    return function(*args, progress=progress, **kwargs)
