"""Writing output files in one step: a reader never sees half a file, a failure leaves none.

(The `reliability` branch adds this module with the same `write_text_atomic(path, text)`;
on merge keep theirs.)
"""

from __future__ import annotations

import os
import tempfile


def write_text_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write `text` to a temporary file beside `path`, then rename it over `path`."""
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmp-", suffix=os.path.basename(path))
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # as open() would create it, not mkstemp's 0600
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
