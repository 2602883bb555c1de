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
