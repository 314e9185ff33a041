"""Dockerfile handling: image mapping for docker, interpretation for the local backend."""

from __future__ import annotations

import pytest

from conftest import get_backend, harbor_task
from reterm.sandbox.dockerfile import map_image, parse, parse_image_map, rewrite_from, substitute
from reterm.sandbox.local import BuildError
from reterm.tasks import load_task


def test_rewrite_from_maps_images_but_not_stages():
    text = "FROM --platform=linux/amd64 ubuntu:22.04 AS build\nRUN x\nFROM build\nFROM python:3.11-slim\n"
    out, bases = rewrite_from(text, {"ubuntu": "reterm/base:bookworm", "python:3.11-slim": "py:local"})
    assert out.splitlines()[0] == "FROM --platform=linux/amd64 reterm/base:bookworm AS build"
    assert out.splitlines()[2] == "FROM build" and out.splitlines()[3] == "FROM py:local"
    assert bases == ["reterm/base:bookworm", "py:local"]


def test_image_map_sources(monkeypatch):
    monkeypatch.setenv("RETERM_IMAGE_MAP", "a=b, c:1=d")
    assert parse_image_map(["c:1=e"]) == {"a": "b", "c:1": "e"}
    assert map_image("a:latest", {"a": "b"}) == "b" and map_image("x", {"*": "y"}) == "y"
    assert map_image("registry:5000/img", {"registry:5000/img": "z"}) == "z"
    with pytest.raises(ValueError, match="SRC=DST"):
        parse_image_map(["oops"])


def test_parse_joins_continuations_and_keeps_lines(tmp_path):
    p = tmp_path / "Dockerfile"
    p.write_text("# c\nFROM x\n\nRUN a && \\\n    b\nENV A=1 \\\n  B=2\n")
    ins = parse(p)
    assert [(i.keyword, i.line) for i in ins] == [("FROM", 2), ("RUN", 4), ("ENV", 6)]
    assert ins[1].args == "a &&  b" or ins[1].args.replace("  ", " ") == "a && b"
    assert substitute("${A}/$B/${C:-dflt}", {"A": "1", "B": "2"}) == "1/2/dflt"


def test_local_backend_interprets_the_dockerfile(tmp_path):
    root = harbor_task(tmp_path / "t", dockerfile="""
        FROM ubuntu:22.04
        ARG NAME=world
        ENV GREETING="hello $NAME" \\
            OTHER=x
        WORKDIR /srv/app
        COPY data/ ./data/
        COPY --chmod=755 run.sh /opt/bin/run.sh
        RUN echo "$GREETING" > built.txt && mkdir -p /root/.cfg
        LABEL ignored=yes
        CMD ["bash"]
        """, extra={"environment/data/a.txt": "A\n", "environment/run.sh": "echo run\n"})
    task = load_task(root)
    with get_backend("local").start(task) as sb:
        r = sb.exec("pwd; cat built.txt data/a.txt; /opt/bin/run.sh; echo $GREETING $OTHER; echo ${NAME:-unset}")
        assert r.output == "/srv/app\nhello world\nA\nrun\nhello world x\nunset\n"


@pytest.mark.parametrize("dockerfile, words", [
    ("FROM x\nUSER nobody\n", "Dockerfile:2: the local backend cannot apply `USER`"),
    ("FROM x\nRUN exit 3\n", "Dockerfile:2: RUN exited 3"),
    ("FROM x\nCOPY nothere /app/\n", "Dockerfile:2: COPY source 'nothere' not found"),
    ("FROM x\nCOPY a.txt /usr/bin/a.txt\n", "Dockerfile:2: COPY failed in the local backend"),
    ("FROM x\nCOPY a.txt /usr/bin/a.txt\n", "/usr, /bin, /lib and /sbin are read-only in the local backend"),
    ("FROM x AS a\nFROM y\n", "Dockerfile:2: multi-stage builds"),
])
def test_local_build_errors_name_the_line(tmp_path, dockerfile, words):
    root = harbor_task(tmp_path / "t", dockerfile=dockerfile, extra={"environment/a.txt": "a\n"})
    with pytest.raises(BuildError) as e:
        get_backend("local").start(load_task(root))
    assert words in str(e.value)


def test_docker_backend_refuses_to_pull_and_says_how_to_map(tmp_path):
    from reterm.sandbox.docker_backend import ImageNotFound

    backend = get_backend("docker")
    root = harbor_task(tmp_path / "t", dockerfile="FROM some/unpullable:1.0\n")
    with pytest.raises(ImageNotFound, match=r"--image-map some/unpullable:1.0=reterm/base:bookworm"):
        backend.start(load_task(root))


def test_docker_backend_maps_docker_image_tasks(tmp_path):
    backend = get_backend("docker")
    root = harbor_task(tmp_path / "t", toml='[environment]\ndocker_image = "ubuntu:24.04"\nworkdir = "/app"\n')
    (root / "environment" / "Dockerfile").unlink()
    with backend.start(load_task(root)) as sb:
        assert sb.image == "reterm/base:bookworm"
        assert sb.exec("pwd").output == "/app\n"
