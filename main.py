"""Run AttnViz from a checkout: `python main.py [SCENARIO]`, the same as `attnviz`."""
import sys

from attnviz.cli import main

if __name__ == "__main__":
    sys.exit(main())
