import signal
import sys

# A Ctrl+C while the command line is still being imported ends it as the terminal's interrupt does, with no
# traceback; once imported, the commands take it as KeyboardInterrupt (exit 130) or note it (--class).
signal.signal(signal.SIGINT, signal.SIG_DFL)
from .cli import main  # noqa: E402

signal.signal(signal.SIGINT, signal.default_int_handler)
sys.exit(main())
