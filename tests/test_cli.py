"""The console script answers --version and --help."""

import pytest

from dealerassist import __version__
from dealerassist.cli import main


def test_version_prints_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    """`dealerassist --version` prints the version and exits 0."""
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert __version__ in capsys.readouterr().out


def test_healthz_answers_ok() -> None:
    """/healthz answers 200 with status ok."""
    from dealerassist.api import create_app

    client = create_app().test_client()
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok"}


def test_a_command_piped_into_a_reader_that_stops_early_exits_without_a_traceback() -> None:
    """`dealerassist profiles | head -1`: the closed pipe ends the command quietly."""
    import subprocess
    import sys

    script = (  # far more than a pipe holds, so the writer meets the closed pipe every time
        "import sys\nfrom dealerassist.cli import main\n"
        "sys.stdout.reconfigure(line_buffering=True)\n"
        "code = 0\n"
        "for _ in range(2000):\n"
        "    code = main(['profiles'])\n"
        "    if code:\n"
        "        break\n"
        "sys.exit(code)"
    )
    command = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert command.stdout is not None and command.stderr is not None
    command.stdout.readline()
    command.stdout.close()  # the reader stops after one line
    with command.stderr:
        error = command.stderr.read().decode()
    assert command.wait(timeout=60) == 1
    assert "Traceback" not in error and "BrokenPipeError" not in error
