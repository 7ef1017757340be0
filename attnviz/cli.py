"""The `attnviz` command line. `attnviz [SCENARIO]` opens the window; the other commands are

{commands}

(this list is made from their parsers in build_parsers, as `attnviz --help` shows it).

SCENARIO is a preset id or a path to a scenario file. Bad input exits with status 2
and one line on stderr; the commands that need no window never import Qt.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import textwrap

import numpy as np

from . import __version__
from .core import compute
from .core.blas import use_one_thread
from .core.formats.table_csv import weights_csv, weights_document
from .core.io import DATA_SUFFIXES, save_data
from .core.numbers import NumberError, parse_number
from .core.presets import DEFAULT_PRESET, list_presets, open_named
from .core.scenario import ScenarioError, count_values, with_settings
from .core.summary import STATS
from .core.text import terminal_safe, visible
from .display import display_problem
from .gui.steps import stages  # Qt-free: the guided steps --step names

PROG = "attnviz"
# Numbers written as text take time (a float's repr: under a million a second on a busy two-core
# machine, see bench/limits.py): a command that prints them refuses more than it writes within
# 30 s. Binary .npz (export -o FILE.npz) has no such limit.
MAX_PRINTED = 2 ** 23   # weights (or rollout) printed as JSON or CSV: 2 heads of 2,048 tokens
MAX_CSV_ROWS = 2 ** 21  # rows of `attnviz export -o FILE.csv`, one per number, five fields each


class UsageError(Exception):
    """Bad command-line input: reported as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse would print the usage and exit itself
        raise UsageError(f"{message} (see '{self.prog} --help')")


def open_scenario(name: str, layer: int | None = None):
    """A preset id or a path to a scenario file -> Scenario (ScenarioError if neither works)."""
    return open_layer(name, layer)[0]


def open_layer(name: str, layer: int | None):
    """(scenario, source) of layer `layer` of a model's file (layer 0 by default); a scenario with
    no layers has only layer 0, a scenario saved from one layer only that one."""
    opened = open_named(name, layer or 0)
    scenario = opened[0]
    if layer is not None:
        have = scenario.layer
        if have is None and layer != 0:
            raise UsageError(f"--layer {layer}: {name} has no layers")
        if have is not None and have[0] != layer:
            raise UsageError(f"--layer {layer}: {name} holds layer {have[0]} of the model only")
    return opened


# ---------------------------------------------------------------- commands

def cmd_presets(args, out) -> int:
    for preset in list_presets():
        out.write(f"{preset.id}\t{preset.tab}\t{preset.title_in(args.lang)}\n")
    return 0


def _settings_change(args):
    """The scenario -> scenario that --no-causal, --no-scale and --temperature ask for."""
    changes = {}
    if args.no_causal:
        changes["causal"] = False
    if args.no_scale:
        changes["scale"] = False
    if args.temperature is not None:
        changes["temperature"] = args.temperature
    return (lambda s: with_settings(s, **changes)) if changes else (lambda s: s)


def cmd_weights(args, out) -> int:
    if args.rollout:
        return _print_rollout(args, out)
    scenario = _settings_change(args)(open_scenario(args.scenario, args.layer))
    heads = _head_indices(args.head, len(scenario.heads))
    _check_printed(args.scenario, len(heads) * scenario.n ** 2, MAX_PRINTED,
                   "choose a head with --head, or write every number with export -o FILE.npz")
    weights = compute(scenario).weights()
    from .gui.common.i18n import system_language  # QtCore only: no display needed
    names = [h.title(args.lang or system_language()) for h in scenario.heads]
    if args.format == "csv":
        out.write(terminal_safe(weights_csv(scenario, weights, heads, names)))
    else:
        document = weights_document(scenario, weights, heads, names)
        if scenario.layer is not None:  # every file with layers says which one this is
            document = {"layer": scenario.layer[0], **document}
        out.write(terminal_safe(json.dumps(document, ensure_ascii=False)) + "\n")
    return 0


def _print_rollout(args, out) -> int:
    """{"tokens": [...], "rollout": [[...], ...]}: Â_L ⋯ Â_1 over every layer of the file."""
    if args.format != "json" or args.head is not None or args.layer is not None:
        raise UsageError("--rollout combines every head of every layer into one matrix, printed as JSON: "
                         "leave out --head, --layer and --format csv")
    from .core.summary import check_work, final_rollout, layer_weights, named_layers
    first, count, scenario_of = named_layers(args.scenario, _settings_change(args))
    _check_printed(args.scenario, first.n ** 2, MAX_PRINTED, "the rollout is tokens × tokens")
    check_work(first, count, rollout=True)  # before a second layer is read
    product = final_rollout(layer_weights(count, scenario_of))
    document = {"tokens": list(first.tokens), "rollout": product.tolist()}
    out.write(terminal_safe(json.dumps(document, ensure_ascii=False)) + "\n")
    return 0


def _check_printed(name: str, count: int, limit: int, advice: str) -> None:
    """Refuse, before computing, more numbers than can be written as text within 30 s."""
    if count > limit:
        raise UsageError(f"{name}: {count:,} numbers is more than the {limit:,} written as text at once: {advice}")


def cmd_stats(args, out) -> int:
    """One record per layer × head: its statistics (summary.STATISTICS)."""
    from .core.summary import check_work, head_stats, layer_weights, named_layers
    if args.layer is None:
        first, count, scenario_of = named_layers(args.scenario)
        check_work(first, count)  # before a second layer is read
        layers = range(count)
    else:  # that layer alone is read
        count, layers = 1, [args.layer]

        def scenario_of(_):
            return open_scenario(args.scenario, args.layer)
    records = []
    for layer, weights in zip(layers, layer_weights(count, scenario_of)):
        records += [{"layer": layer, "head": head, **dict(zip(STATS, map(float, row)))}
                    for head, row in enumerate(head_stats(weights))]
    if args.format == "csv":
        out.write(",".join(("layer", "head", *STATS)) + "\n")
        out.writelines(",".join(f"{r[key]!r}" if isinstance(r[key], float) else str(r[key])
                                for key in ("layer", "head", *STATS)) + "\n" for r in records)
    else:
        out.write(json.dumps(records) + "\n")
    return 0


def cmd_model(args, out) -> int:
    """Run the real model on TEXT (or a saved session): write every layer to FILE.npz, the session
    to FILE.attnviz-model.json, and/or print the next tokens."""
    from .core import llama
    if args.output and os.path.splitext(args.output)[1].lower() != ".npz":
        raise UsageError(f"-o {args.output}: the model's layers are written as an .npz file")
    if args.session is not None:
        if args.text is not None or args.ablate or args.model or args.save_session:
            raise UsageError("--session runs the text, model and changes the session holds: leave out TEXT, "
                             "--model, --ablate and --save-session")
        with np.errstate(all="ignore"):  # an overflow ends as NaN, refused below in one line
            model, encoded, result = _run_session(args.session)
    elif args.text is None:
        raise UsageError("give the TEXT the model reads, or --session FILE")
    else:
        llama.check_text(args.text)  # empty, or bytes that are not UTF-8: said before the model loads
        model = llama.load(args.model)
        encoded = llama.encode(model, args.text)
        changes = tuple(llama.ablation(model, spec) for spec in args.ablate)
        with np.errstate(all="ignore"):
            result = llama.run(model, encoded.ids, changes)
    if not np.isfinite(result.probs).all():
        raise UsageError(f"{model.path}: the model's next-token probabilities are not numbers (NaN or infinity): "
                         "the file is damaged or not a model")
    if args.output:
        llama.save_run(model, encoded, result, args.output)
    if args.save_session:
        _save_session(model, encoded, result, args.save_session)
    if args.format == "json" or not (args.output or args.save_session):
        document = {"tokens": list(encoded.labels), "token_ids": list(encoded.ids),
                    "next": [{"token": text, "id": i, "p": p} for i, text, p in llama.top(model, result.probs, args.top_k)]}
        out.write(terminal_safe(json.dumps(document, ensure_ascii=False, allow_nan=False)) + "\n")  # JSON: no NaN
    return 0


def _run_session(path: str):
    """(model, encoded text, run with every change) of a saved session."""
    from .core import llama
    from .core.session import read_session, restore
    session, _ = read_session(path)
    model, encoded, _, result = restore(session, llama.load)
    return model, encoded, result


def _save_session(model, encoded, result, path: str) -> None:
    """The run as a session file, showing layer 0, head 0 and the last token (as the window opens it)."""
    from .core import llama
    from .core.session import identity, save_session, session_of
    shown = llama.scenario(model, encoded, result, 0)
    save_session(session_of(shown, 0, shown.n - 1, identity(model)), path)


def _head_indices(head, n_heads: int) -> list[int]:
    if head is None:
        return list(range(n_heads))
    if not 0 <= head < n_heads:
        have = "only head 0" if n_heads == 1 else f"heads 0 to {n_heads - 1}"
        raise UsageError(f"--head {head}: this scenario has {have}")
    return [head]


def cmd_gui(args, out) -> int:
    if args.install_desktop or args.uninstall_desktop:
        return cmd_desktop(args, out)
    session = _session_file(args.scenario)
    opened = open_named(args.scenario) if args.scenario and not session else None  # bad input fails before Qt starts
    if args.model_text is not None:
        from .core import llama
        try:
            llama.check_text(args.model_text)
        except llama.ModelError as e:
            raise UsageError(f"--model-text: {e}") from None
    if args.model and args.model_text is None:
        raise UsageError("--model needs --model-text (or choose the file in File → Real model…)")
    if args.model:
        from .core.gguf import check_file
        check_file(args.model)  # a folder, a missing or a non-GGUF file: said before the window opens
    problem = display_problem()
    if problem:
        print(f"{PROG}: error: {problem}", file=sys.stderr)
        return 2
    from .gui.window.app import run  # Qt is imported only when a window is wanted
    return run(opened, args.lang, model_text=args.model_text, model_path=args.model, session=session)


def _session_file(name: str | None) -> str | None:
    """`name` when it is a real model's session file (checked now, before Qt starts), else None."""
    from .core.session import looks_like_session, read_session
    if not name or not os.path.isfile(name) or not looks_like_session(name):
        return None
    read_session(name)
    return name


def cmd_desktop(args, out) -> int:
    """--install-desktop / --uninstall-desktop: this program in the user's applications menu (Linux)."""
    from . import desktop
    if args.scenario or args.model_text is not None or args.model:
        raise UsageError("--install-desktop and --uninstall-desktop take no scenario, --model or --model-text")
    try:
        return desktop.run(out, remove=args.uninstall_desktop)
    except desktop.DesktopError as e:
        raise UsageError(str(e)) from None


def cmd_screenshot(args, out) -> int:
    scenario = open_layer(args.scenario, args.layer)  # with its source, so the title names it
    from .gui.window.app import screenshot
    screenshot(scenario, args.output, args.width, args.height, args.lang, args.presentation, args.step, args.view)
    return 0


def cmd_export(args, out) -> int:
    if args.compare_layer is not None and args.compare is None:
        raise UsageError("--compare-layer needs --compare OTHER (which may be the same file)")
    if args.overview:
        return _export_overview(args)
    scenario = open_scenario(args.scenario, args.layer)
    if os.path.splitext(args.output)[1].lower() in DATA_SUFFIXES:  # numbers, not a picture: no Qt
        if args.compare is not None:
            raise UsageError("--compare draws a picture: give FILE.png, .svg or .pdf")
        if args.output.lower().endswith(".csv"):
            _check_printed(args.scenario, len(scenario.heads) * scenario.n ** 2 + count_values(scenario, given=False),
                           MAX_CSV_ROWS, "write them as .npz")
        save_data(scenario, compute(scenario).weights(), args.output)
        return 0
    if args.compare is not None:
        if args.head is not None or args.step or args.all_heads or args.query is not None:
            raise UsageError("--compare shows every head of both: leave out --head, --all-heads, --step and --query")
        from .gui.window.app import export_comparison
        other = open_scenario(args.compare, args.compare_layer if args.compare_layer is not None else args.layer)
        export_comparison(scenario, other, args.output, width=args.width,
                          caption=not args.no_caption, lang=args.lang, scale=args.scale)
        return 0
    kind = "all" if args.all_heads else "step" if args.step else "head"
    head = _head_indices(args.head, len(scenario.heads))[0] if args.head is not None else 0
    if args.query is not None and not 0 <= args.query < scenario.n:
        raise UsageError(f"--query {args.query}: this scenario has tokens 0 to {scenario.n - 1}")
    from .gui.window.app import export
    export(scenario, args.output, kind=kind, head=head, query=args.query, width=args.width,
           caption=not args.no_caption, lang=args.lang, scale=args.scale)
    return 0


def _export_overview(args) -> int:
    if args.head is not None or args.step or args.all_heads or args.query is not None or args.compare is not None \
            or args.layer is not None:
        raise UsageError("--overview shows every layer and head: leave out --head, --all-heads, --step, --query, "
                         "--compare and --layer")
    if os.path.splitext(args.output)[1].lower() in DATA_SUFFIXES:
        raise UsageError("--overview draws a picture: give FILE.png, .svg or .pdf")
    from .gui.window.app import export_overview
    export_overview(args.scenario, args.output, width=args.width, caption=not args.no_caption, lang=args.lang,
                    scale=args.scale)
    return 0


# ---------------------------------------------------------------- parsing

def _temperature(text: str) -> float:
    try:
        value = parse_number(text)
    except NumberError:
        value = None
    if value is None or not 0.01 <= value <= 100:
        raise argparse.ArgumentTypeError(f"'{terminal_safe(text)}' is not a temperature: give a number from 0.01 to 100")
    return value


def _whole(text: str) -> bool:
    """Plain digits 0-9 (str.isdigit() also takes "³" and "٣", which int() refuses)."""
    return text.isascii() and text.isdigit() and len(text) <= 9


def _index(what: str):
    """An argparse type: a head, query or layer number (0, 1, 2, ...)."""
    def parse(text: str) -> int:
        if not _whole(text):
            raise argparse.ArgumentTypeError(f"'{terminal_safe(text)}' is not a {what} number (0, 1, 2, ...)")
        return int(text)
    return parse


def _count(what: str, high: int):
    """An argparse type: a whole number from 1 to `high`."""
    def parse(text: str) -> int:
        if not _whole(text) or not 1 <= int(text) <= high:
            raise argparse.ArgumentTypeError(f"'{terminal_safe(text)}' is not a number from 1 to {high}")
        return int(text)
    return parse


def _pixels(what: str, high: int):
    """An argparse type: a whole number of pixels from 200 to `high`."""
    def parse(text: str) -> int:
        if not _whole(text) or not 200 <= int(text) <= high:
            raise argparse.ArgumentTypeError(f"'{terminal_safe(text)}' is not a {what} in pixels from 200 to {high}")
        return int(text)
    return parse


def build_parsers():
    commands = _Parser(prog=PROG, description="AttnViz command line.")
    sub = commands.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    presets = sub.add_parser("presets", help="list the built-in scenarios: id, tab, title")
    presets.add_argument("--lang", choices=["ja", "en"], default="en")
    presets.set_defaults(run=cmd_presets)

    weights = sub.add_parser("weights", help="print the attention weights of a scenario")
    weights.add_argument("scenario", metavar="SCENARIO", help="a preset id or a scenario file")
    weights.add_argument("--head", type=_index("head"), help="only this head (0 is the first)")
    weights.add_argument("--no-causal", action="store_true", help="let every token see the future")
    weights.add_argument("--no-scale", action="store_true", help="do not divide by √d_k")
    weights.add_argument("--temperature", type=_temperature, help="a further divisor (0.01 to 100)")
    weights.add_argument("--format", choices=["json", "csv"], default="json")
    weights.add_argument("--lang", choices=["ja", "en"], help="language of the heads' names (default: the system's)")
    weights.add_argument("--layer", type=_index("layer"), help="this layer of a model's file (default 0)")
    weights.add_argument("--rollout", action="store_true",
                         help="attention rollout over every layer: Â_L ⋯ Â_1 with Â = 0.5·(mean over heads) "
                              "+ 0.5·I, rows renormalised (JSON)")
    weights.set_defaults(run=cmd_weights)

    stats = sub.add_parser("stats", help=f"each layer × head's statistics: {', '.join(STATS)}")
    stats.add_argument("scenario", metavar="FILE", help="a model's file (every layer), a scenario file or a preset")
    stats.add_argument("--layer", type=_index("layer"), help="only this layer")
    stats.add_argument("--format", choices=["json", "csv"], default="json")
    stats.set_defaults(run=cmd_stats)

    model = sub.add_parser("model", help="run the real language model on TEXT: its layers to a file, "
                                         "its next-token prediction as JSON")
    model.add_argument("text", metavar="TEXT", nargs="?", help="what the model reads")
    model.add_argument("-o", "--output", metavar="FILE.npz", help="write every layer's q, k, v (and the "
                                                                   "prediction) for 'attnviz FILE.npz'")
    model.add_argument("--model", metavar="PATH.gguf", help="another llama-architecture GGUF file "
                                                             "(default: the built-in SmolLM2-135M)")
    model.add_argument("--top-k", type=_count("--top-k", 1000), default=10, help="how many next tokens (default 10)")
    model.add_argument("--ablate", action="append", default=[], metavar="LAYER.HEAD",
                       help="switch a head off (its output zeroed before W_o), e.g. 3.2; may be repeated")
    model.add_argument("--format", choices=["json"], help="print the tokens and the next tokens as JSON "
                                                          "(the default without -o and --save-session)")
    model.add_argument("--save-session", metavar="FILE", help="write the run as a session (text, model file, "
                                                             "switched-off heads) that 'attnviz FILE' opens")
    model.add_argument("--session", metavar="FILE", help="run a saved session again (its text, model and every "
                                                        "change) instead of TEXT")
    model.set_defaults(run=cmd_model)

    export = sub.add_parser("export", help="write a heatmap as PNG, SVG or PDF, or the numbers as CSV or "
                                           ".npz (by the file's suffix)")
    export.add_argument("scenario", metavar="SCENARIO", help="a preset id or a scenario file")
    export.add_argument("-o", "--output", required=True, metavar="FILE",
                        help="FILE.png, .svg or .pdf (a heatmap); FILE.csv or .npz (weights and q, k, v)")
    which = export.add_mutually_exclusive_group()
    which.add_argument("--head", type=_index("head"), help="this head (0 is the first; the default)")
    which.add_argument("--all-heads", action="store_true", help="every head in one grid")
    which.add_argument("--step", action="store_true",
                       help="the query's arithmetic beside its head (with --query, --head in the window)")
    export.add_argument("--query", type=_index("query"), help="highlight this query row (0 is the first token)")
    export.add_argument("--compare-layer", type=_index("layer"), metavar="L",
                        help="with --compare: this layer of OTHER (default: the same as --layer); OTHER may be "
                             "SCENARIO itself, to set two layers of one model side by side")
    export.add_argument("--overview", action="store_true",
                        help="every layer × head of a model's file as one grid of thumbnails")
    export.add_argument("--compare", metavar="OTHER", help="SCENARIO (A) beside OTHER (B), every head, and B − A")
    export.add_argument("--width", type=_pixels("width", 8000), default=2400, help="PNG width in pixels (default 2400)")
    export.add_argument("--no-caption", action="store_true", help="leave out the caption line")
    export.add_argument("--scale", choices=["linear", "log", "row"], default="linear",
                        help="colour scale: linear 0 to 1 (the default), log 0.0001 to 1, or each row to its maximum")
    export.add_argument("--lang", choices=["ja", "en"], help="language of the labels (default: the system's)")
    export.add_argument("--layer", type=_index("layer"), help="this layer of a model's file (default 0)")
    export.set_defaults(run=cmd_export)

    shot = sub.add_parser("screenshot", help="render the whole window offscreen into a PNG file")
    shot.add_argument("scenario", metavar="SCENARIO", help="a preset id or a scenario file")
    shot.add_argument("-o", "--output", required=True, metavar="FILE.png")
    shot.add_argument("--width", type=_pixels("size", 10000), default=1600, help="window width in pixels")
    shot.add_argument("--height", type=_pixels("size", 10000), default=1000, help="window height in pixels")
    shot.add_argument("--lang", choices=["ja", "en"], help="interface language (default: the system's)")
    shot.add_argument("--presentation", action="store_true", help="in presentation mode (F5)")
    shot.add_argument("--step", type=int, choices=stages.NUMBERS, metavar=f"{stages.NUMBERS[0]}-{stages.NUMBERS[-1]}",
                      help=stages.command_line_help())
    shot.add_argument("--layer", type=_index("layer"), help="this layer of a model's file (default 0)")
    shot.add_argument("--view", choices=["steps", "maths", "lines"], default="steps",
                      help="the tab shown below the heatmaps: the step table (default), the maths views, the lines")
    shot.set_defaults(run=cmd_screenshot)

    listed = {action.dest: action.help for action in sub._choices_actions}  # each command's help=
    window = _Parser(prog=PROG, description="Open the AttnViz window.",
                     formatter_class=argparse.RawDescriptionHelpFormatter,
                     epilog=f"Other commands (see '{PROG} COMMAND --help'):\n{command_list(listed, '  ')}")
    window.add_argument("scenario", metavar="SCENARIO", nargs="?",
                        help=f"a preset id or a scenario file (default: {DEFAULT_PRESET})")
    window.add_argument("--lang", choices=["ja", "en"],
                        help="interface language (default: the last one chosen, else the system's)")
    window.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    window.add_argument("--model-text", metavar="TEXT", help="open the real model on TEXT (File → Real model…)")
    window.add_argument("--model", metavar="PATH.gguf", help="with --model-text: another llama-architecture "
                                                             "GGUF file than the built-in SmolLM2-135M")
    menu = window.add_mutually_exclusive_group()
    menu.add_argument("--install-desktop", action="store_true", help="add this AttnViz to your applications "
                      "menu (Linux), with its icon and the file types of *.attnviz.json and *.attnviz-model.json; writes under ~/.local/share only")
    menu.add_argument("--uninstall-desktop", action="store_true", help="remove what --install-desktop added")
    window.set_defaults(run=cmd_gui)
    return commands, window, listed


def command_list(commands: dict, indent: str) -> str:
    """One line per command, its name and what it does (wrapped beneath it): the list in
    `attnviz --help` and in this module's docstring."""
    width = max(map(len, commands)) + len(PROG) + 3
    return "\n".join(textwrap.fill(what or "", 79, initial_indent=f"{indent}{PROG} {name}".ljust(len(indent) + width),
                                   subsequent_indent=" " * (len(indent) + width))
                     for name, what in commands.items())


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    use_one_thread()
    commands, window, names = build_parsers()
    out = _utf8_stdout()
    try:
        parser = commands if argv and argv[0] in names else window
        args = parser.parse_args(argv)
        return args.run(args, out)
    except (UsageError, ScenarioError) as e:
        print(f"{PROG}: error: {visible(str(e))}", file=sys.stderr)  # one line, whatever a file name holds
        return 2
    except MemoryError:
        print(f"{PROG}: error: not enough memory for this", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `attnviz presets | head`
        return 0
    except KeyboardInterrupt:
        return 130
    finally:
        _flush_quietly(out)


def _utf8_stdout():
    """Japanese tokens print on any console, whatever its locale."""
    try:
        sys.stdout.reconfigure(encoding="utf-8")
    except (AttributeError, ValueError):
        pass
    return sys.stdout


def _flush_quietly(out) -> None:
    try:
        out.flush()
    except (BrokenPipeError, ValueError):
        try:
            sys.stdout = open(os.devnull, "w")  # nothing else may write to the closed pipe
        except OSError:
            pass


if __doc__:  # None under python -OO
    __doc__ = __doc__.replace("{commands}", command_list(build_parsers()[2], "    "))


if __name__ == "__main__":
    sys.exit(main())
