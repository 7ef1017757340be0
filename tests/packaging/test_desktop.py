"""The menu entry (`attnviz --install-desktop`, `AttnViz --install-desktop`, `make install-desktop`):
it starts AttnViz from any folder name. Checked three ways: read back by the Desktop Entry
specification's rules (here, always), by desktop-file-validate, and launched through GLib (`gio launch`)."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from attnviz import desktop

# Folder names a user's USB stick or home may have: each one broke the entry before.
HOSTILE = ["USB STICK", 'say "hi"', "back`tick`", "$HOME and ${PATH}", "back\\slash\\", "100%f", "%%u %F",
           "%\\%$`\"", "it's (1) & <2>; #3 | ~*?", "tab\there", "日本語 ünïcödé", "a=b", "new\nline"]
FILE_ARGUMENT = "my scenario (copy).attnviz.json"
ESCAPES = {"s": " ", "n": "\n", "t": "\t", "r": "\r", "\\": "\\"}
RESERVED = set(" \t\n\"'\\><~|&;$*?#()`")


# ---------------------------------------------------------------- the specification, as a reader

def read_string(value: str) -> str:
    """A string value: \\s \\n \\t \\r \\\\ undone; any other escape is an error (GLib refuses the file)."""
    out, i = [], 0
    while i < len(value):
        if value[i] == "\\":
            assert value[i + 1:i + 2] in ESCAPES, f"invalid escape in {value!r}"
            out.append(ESCAPES[value[i + 1]])
            i += 2
        else:
            out.append(value[i])
            i += 1
    return "".join(out)


def read_exec(value: str, file: str) -> list[str]:
    """The command line of Exec: string escapes undone, then quoting, then the field codes (%f is the
    file, %% a %), strictly: a reserved character unquoted or unescaped inside quotes is an error."""
    text, args, i = read_string(value), [], 0
    while i < len(text):
        if text[i] == " ":
            i += 1
        elif text[i] == '"':
            arg, i = [], i + 1
            while text[i] != '"':
                if text[i] == "\\":
                    i += 1
                    assert text[i] in '"`$\\', f"\\{text[i]} inside quotes in {text!r}"
                else:
                    assert text[i] not in "`$", f"{text[i]} unescaped inside quotes in {text!r}"
                arg.append(text[i])
                i += 1
            args.append(_field_codes("".join(arg), None))
            i += 1
        else:
            end = text.find(" ", i) if " " in text[i:] else len(text)
            word = text[i:end]
            assert not RESERVED & set(word), f"reserved character unquoted in {text!r}"
            args.append(_field_codes(word, file))
            i = end
    return args


def _field_codes(arg: str, file: str | None) -> str:
    if arg == "%f" and file is not None:  # a field code only unquoted and alone
        return file
    assert "%" not in arg.replace("%%", ""), f"a lone % (field code) in {arg!r}"
    return arg.replace("%%", "%")


def entry_keys(path: Path) -> dict[str, str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "[Desktop Entry]"
    return dict(line.split("=", 1) for line in lines[1:] if line)


def launched_command(keys: dict[str, str], file: str) -> list[str]:
    """What a launcher runs: Exec read back, and through `/bin/sh -c 'exec "$0" "$@"'` the program it names."""
    argv = read_exec(keys["Exec"], file)
    if argv[:3] == ["/bin/sh", "-c", 'exec "$0" "$@"']:
        argv = argv[3:]
    return argv


# ---------------------------------------------------------------- fixtures

def program_in(folder: Path) -> Path:
    """A stand-in for AttnViz in `folder`: prints each argument it gets, one per line in brackets."""
    folder.mkdir(parents=True)
    program = folder / "Attn Viz"
    program.write_text('#!/bin/sh\nfor a in "$0" "$@"; do printf "[%s]\\n" "$a"; done\n', encoding="utf-8")
    program.chmod(0o755)
    return program


def printed(argv: list[str]) -> str:
    return "".join(f"[{a}]\n" for a in argv)


@pytest.fixture(params=HOSTILE, ids=range(len(HOSTILE)))
def installed(request, tmp_path):
    """(program, entry): the stand-in in a hostile folder, installed into a temporary data home."""
    program = program_in(tmp_path / request.param / "AttnViz")
    home = tmp_path / "share"
    desktop.install([str(program)], home)
    return program, home / "applications" / "attnviz.desktop"


# ---------------------------------------------------------------- the escaping

def test_exec_quotes_and_escapes_as_the_specification_says():
    # Inside quotes \" \` \$ \\ (then every \ doubled by the string escape), % as %%, %f outside.
    assert desktop.exec_value(["/USB STICK/AttnViz"]) == '"/USB STICK/AttnViz"'
    assert desktop.exec_value(['/a"b']) == '"/a\\\\"b"'
    assert desktop.exec_value(["/$HOME"]) == '"/\\\\$HOME"'
    assert desktop.exec_value(["/a`b`"]) == '"/a\\\\`b\\\\`"'
    assert desktop.exec_value(["/back\\slash"]) == '"/back\\\\\\\\slash"'  # four backslashes for one
    assert desktop.exec_value(["/100%f/x"]) == '"/100%%f/x"'
    assert desktop.exec_value(["/tab\there"]) == '"/tab\\there"'
    assert desktop.string_value("/a\\b\nc") == "/a\\\\b\\nc"


def test_tryexec_is_the_plain_path_and_exec_reads_back_as_the_program(installed):
    program, entry = installed
    keys = entry_keys(entry)
    assert read_string(keys["TryExec"]) == str(program)  # no quotes: TryExec is a path, not a command line
    assert keys["Exec"].endswith(" %f")
    assert launched_command(keys, FILE_ARGUMENT) == [str(program), FILE_ARGUMENT]


# ---------------------------------------------------------------- the tools of the desktop

def test_desktop_file_validate_accepts_the_entry(installed):
    if not shutil.which("desktop-file-validate"):
        pytest.skip("desktop-file-validate is not installed (Debian: apt install desktop-file-utils; .ci/run does)")
    _, entry = installed
    check = subprocess.run(["desktop-file-validate", str(entry)], capture_output=True, text=True)
    assert check.returncode == 0 and check.stdout == "", check.stdout + check.stderr  # not even a hint


def test_glib_launches_it_with_a_file_whose_name_has_spaces(installed, tmp_path):
    if not shutil.which("gio"):
        pytest.skip("gio is not installed (Debian: apt install libglib2.0-bin; .ci/run does)")
    program, entry = installed
    opened = program.parent / FILE_ARGUMENT
    opened.write_text("{}", encoding="utf-8")
    # The launched program inherits gio's stdout: run() returns once both have closed it.
    result = subprocess.run(["gio", "launch", str(entry), str(opened)], capture_output=True, text=True,
                            env={**os.environ, "HOME": str(tmp_path)}, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout == printed([str(program), str(opened)])


# ---------------------------------------------------------------- attnviz --install-desktop

def attnviz(*args, env):
    """The venv's attnviz, started in HOME; env names HOME, so that nothing can reach the real one."""
    return subprocess.run([sys.executable, "-m", "attnviz", *args], capture_output=True, text=True,
                          env={**os.environ, **env}, cwd=env["HOME"], timeout=120)


def test_install_and_uninstall_from_the_command_line_in_the_users_data_home(tmp_path):
    home, env = tmp_path / "data home", {"HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data home")}
    result = attnviz("--install-desktop", env=env)
    assert result.returncode == 0, result.stderr
    entry = home / "applications" / "attnviz.desktop"
    assert str(entry) in result.stdout.splitlines()
    keys = entry_keys(entry)
    assert launched_command(keys, "x.json") == [*desktop.this_program(), "x.json"]  # this venv's attnviz
    assert keys["Icon"] == "attnviz" and keys["Name"] == "AttnViz" and keys["Comment[ja]"]
    assert keys["MimeType"] == "application/x-attnviz-scenario;"
    mime = (home / "mime" / "packages" / "attnviz.xml").read_text()
    assert '<glob pattern="*.attnviz.json"/>' in mime and '<glob pattern="*.attnviz-model.json"/>' in mime
    icons = home / "icons" / "hicolor"
    assert (icons / "256x256" / "apps" / "attnviz.png").is_file()
    assert (icons / "scalable" / "apps" / "attnviz.svg").is_file()
    result = attnviz("--uninstall-desktop", env=env)
    assert result.returncode == 0 and f"removed {entry}" in result.stdout.splitlines()
    left = [p for p in home.rglob("*") if p.is_file()]  # the desktop's caches, rebuilt without AttnViz
    assert not [p for p in left if "attnviz" in p.name or b"attnviz" in p.read_bytes()], left


def test_without_xdg_data_home_it_goes_to_local_share_in_home(tmp_path):
    for unset in ("", "relative/share"):  # unset, or not absolute: the base directory spec says ignore it
        result = attnviz("--install-desktop", env={"HOME": str(tmp_path), "XDG_DATA_HOME": unset})
        assert result.returncode == 0, result.stderr
        assert (tmp_path / ".local" / "share" / "applications" / "attnviz.desktop").is_file()
        assert not (tmp_path / "relative").exists() and attnviz("--uninstall-desktop", env={
            "HOME": str(tmp_path), "XDG_DATA_HOME": unset}).returncode == 0
        assert not (tmp_path / ".local" / "share" / "applications" / "attnviz.desktop").exists()


def test_the_standalone_program_names_itself(monkeypatch, tmp_path):
    frozen = tmp_path / "USB STICK" / "AttnViz" / "AttnViz"
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(frozen))
    assert desktop.this_program() == [str(frozen)]  # no Python: the folder's own program


def test_bad_requests_are_one_line_and_write_nothing(tmp_path):
    env = {"HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "share")}
    for args in (["--install-desktop", "seed-demo"], ["--install-desktop", "--uninstall-desktop"],
                 ["--install-desktop", "--model-text", "A"]):
        result = attnviz(*args, env=env)
        assert result.returncode == 2 and result.stderr.startswith("attnviz: error: ")
        assert len(result.stderr.splitlines()) == 1, result.stderr
    assert not (tmp_path / "share").exists()


def test_a_missing_program_or_a_name_no_entry_can_hold_is_refused_before_writing(tmp_path):
    home = tmp_path / "share"
    with pytest.raises(desktop.DesktopError, match="not an executable"):
        desktop.install([str(tmp_path / "nowhere")], home)
    latin1 = program_in(Path(os.fsdecode(bytes(tmp_path) + b"/caf\xe9")))  # a folder named in Latin-1
    with pytest.raises(desktop.DesktopError, match="not UTF-8"):
        desktop.install([str(latin1)], home)
    assert not home.exists()


def test_a_data_home_that_cannot_be_written_is_one_line(tmp_path):
    home = tmp_path / "share"
    home.write_text("a file, not a folder")  # refused even to root, unlike a read-only folder
    result = attnviz("--install-desktop", env={"HOME": str(tmp_path), "XDG_DATA_HOME": str(home)})
    assert result.returncode == 2 and "cannot write" in result.stderr, result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_a_link_where_a_file_goes_is_replaced_not_written_through(tmp_path):
    home, elsewhere = tmp_path / "share", tmp_path / "someone's file"
    elsewhere.write_text("kept")
    entry = home / "applications" / "attnviz.desktop"
    entry.parent.mkdir(parents=True)
    entry.symlink_to(elsewhere)
    desktop.install([str(program_in(tmp_path / "AttnViz"))], home)
    assert elsewhere.read_text() == "kept"
    assert not entry.is_symlink() and entry_keys(entry)["Name"] == "AttnViz"


def test_a_pipe_where_a_file_goes_is_refused_in_one_line_not_opened(tmp_path):
    home = tmp_path / "share"
    mime = home / "mime" / "packages" / "attnviz.xml"
    mime.parent.mkdir(parents=True)
    os.mkfifo(mime)  # opening it to write would wait for a reader for ever
    result = attnviz("--install-desktop", env={"HOME": str(tmp_path), "XDG_DATA_HOME": str(home)})
    assert result.returncode == 2 and "not a regular file" in result.stderr, result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_a_desktop_tool_that_never_returns_is_left_and_the_entry_stays_written(tmp_path, monkeypatch):
    """Attacker round 15: update-mime-database opens a pipe left among its files and waited for ever."""
    tools = tmp_path / "bin"
    tools.mkdir()
    for tool in ("update-mime-database", "update-desktop-database"):
        (tools / tool).write_text("#!/bin/sh\nexec sleep 600\n")
        (tools / tool).chmod(0o755)
    monkeypatch.setenv("PATH", f"{tools}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setattr(desktop, "REFRESH_SECONDS", 0.2)
    home = tmp_path / "share"
    written = desktop.install([str(program_in(tmp_path / "AttnViz"))], home)
    assert home / "applications" / "attnviz.desktop" in written and entry_keys(written[0])["Name"] == "AttnViz"
    assert desktop.uninstall(home) and not (home / "applications" / "attnviz.desktop").exists()
