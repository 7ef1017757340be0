"""Run AttnViz from a checkout: `python main.py [SCENARIO]`, the same as `attnviz`; the standalone
folder's executable runs this file too, so it also answers as a chat template's child process."""
import sys

if __name__ == "__main__":
    if sys.argv[1:2] == ["--chat-template-child"]:  # template.CHILD, without importing the CLI first
        from attnviz.core.lm.template import child
        sys.exit(child())
    from attnviz.cli import main
    sys.exit(main())
