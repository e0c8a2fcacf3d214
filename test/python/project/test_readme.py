"""README.md's code blocks run as written, and its layout matches the tree.

How the README marks its blocks (this test reads the marks):
* A ```python or ```sh block is run, in README order, in one scratch folder
  that links every top-level entry of the repository (so `examples/...`,
  `scripts/...` and `build/...` resolve and nothing is written into the
  tree), with the build tree's package on PYTHONPATH and on PATH its
  tile-opt, `python` (this interpreter), a `tile-mlir` that runs
  `python -m tile_mlir`, and the mlir wheel's mlir-opt. sh blocks run under `bash -e -o pipefail`.
* A first line `# needs: gpu` (a GPU and cuda-python), `# needs: ptxas` or
  `# needs: mlir-opt` skips the block, with the reason, where that is missing.
* `<!-- test_readme: skip: REASON -->` right above a block: not run here
  (REASON says why and who runs it).
* `<!-- test_readme: output -->` above an unlabelled block: the standard
  output of the sh block before it; a line `...` stands for lines left out.
* `<!-- test_readme: layout -->` above the layout block: every top-level
  folder of the repository is named there, and every folder and file it
  names exists.
"""

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
README = ROOT / "README.md"

try:
    import tile_mlir
except ImportError:  # not built
    tile_mlir = None


@dataclass
class Block:
    lang: str      # "python", "sh", "" ...
    code: str
    line: int      # 1-based line of the opening fence
    mark: str      # the test_readme mark above it ("" when none)

    @property
    def needs(self):
        first = self.code.splitlines()[0] if self.code else ""
        m = re.match(r"#\s*needs:\s*(.+)", first)
        return [n.strip() for n in m.group(1).split(",")] if m else []


_MARK = re.compile(r"<!--\s*test_readme:\s*(.*?)\s*-->")


def readme_blocks(text=None):
    lines = (README.read_text(encoding="utf-8") if text is None else text).splitlines()
    blocks, i = [], 0
    while i < len(lines):
        fence = re.match(r"^```(\S*)\s*$", lines[i])
        if not fence:
            i += 1
            continue
        mark = ""
        j = i - 1
        while j >= 0 and not lines[j].strip():
            j -= 1
        if j >= 0 and _MARK.search(lines[j]):
            mark = _MARK.search(lines[j]).group(1)
        end = i + 1
        while end < len(lines) and not lines[end].startswith("```"):
            end += 1
        blocks.append(Block(fence.group(1), "\n".join(lines[i + 1:end]), i + 1, mark))
        i = end + 1
    return blocks


BLOCKS = readme_blocks()
RUNNABLE = [b for b in BLOCKS if b.lang in ("python", "sh")]


def _id(block):
    return f"{block.lang}@{block.line}"


def _expected_output(block):
    """The output block that follows `block`, if any."""
    k = BLOCKS.index(block)
    if k + 1 < len(BLOCKS) and BLOCKS[k + 1].mark == "output":
        return BLOCKS[k + 1].code
    return None


def _gpu_missing():
    try:
        from cuda.bindings import driver
    except ImportError:
        try:
            from cuda import cuda as driver
        except ImportError:
            return "cuda-python is not installed"
    try:
        err, = driver.cuInit(0)
        if int(err) != 0:
            return f"no CUDA driver or device (cuInit: {err})"
        err, count = driver.cuDeviceGetCount()
        if int(err) != 0 or count == 0:
            return "no GPU"
    except Exception as exc:  # the driver library itself is missing
        return f"no CUDA driver ({type(exc).__name__})"
    return None


def _mlir_bin():
    try:
        import mlir
    except ImportError:
        return None
    # `mlir` is a namespace package (no __init__.py): look in each folder.
    for base in getattr(mlir, "__path__", []):
        folder = Path(base).resolve() / "bin"
        if (folder / "mlir-opt").exists():
            return folder
    return None


def _ptxas():
    if shutil.which("ptxas"):
        return True
    cuda_home = os.environ.get("CUDA_HOME")
    return bool(cuda_home) and (Path(cuda_home) / "bin" / "ptxas").exists()


def _missing(need):
    if need == "gpu":
        return _gpu_missing()
    if need == "ptxas":
        return None if _ptxas() else "ptxas is not installed"
    if need == "mlir-opt":
        return None if _mlir_bin() else "the mlir wheel has no mlir-opt"
    return f"unknown need {need!r} (README mark)"


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    if tile_mlir is None:
        pytest.skip("tile_mlir is not built (build/python_packages)")
    work = tmp_path_factory.mktemp("readme")
    for entry in ROOT.iterdir():
        if entry.name != ".git":
            (work / entry.name).symlink_to(entry)
    shims = tmp_path_factory.mktemp("bin")
    # `python` is this interpreter (with the bindings) even when the venv is
    # not activated; `tile-mlir` is the build tree's package.
    for name, command in (("python", ""), ("tile-mlir", " -m tile_mlir")):
        shim = shims / name
        shim.write_text(f'#!/bin/sh\nexec "{sys.executable}"{command} "$@"\n')
        shim.chmod(0o755)
    path = [str(shims), str(Path(tile_mlir.__file__).resolve().parent / "bin")]
    if _mlir_bin():
        path.append(str(_mlir_bin()))
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join(path + [env.get("PATH", "")])
    package = str(Path(tile_mlir.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(
        [package] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    return work, env


def test_readme_has_runnable_blocks():
    langs = {b.lang for b in RUNNABLE}
    assert {"python", "sh"} <= langs


def test_every_block_is_known():
    """A block is run (python, sh), skipped with a reason, or marked as an
    output or the layout; nothing else is left for a reader to guess."""
    for b in BLOCKS:
        if b.lang in ("python", "sh"):
            if b.mark:
                assert b.mark.startswith("skip:") and b.mark[5:].strip(), \
                    f"README line {b.line}: a skip mark needs a reason"
            for need in b.needs:
                assert need in ("gpu", "ptxas", "mlir-opt"), \
                    f"README line {b.line}: unknown need {need!r}"
        else:
            assert b.mark in ("output", "layout"), \
                f"README line {b.line}: a ```{b.lang} block without a test_readme mark"
    for b in BLOCKS:
        if b.mark == "output":
            k = BLOCKS.index(b)
            assert k > 0 and BLOCKS[k - 1].lang == "sh", \
                f"README line {b.line}: an output block follows no sh block"


def _match_output(expected, actual):
    """Every line of `expected` appears in `actual` in order; consecutive
    lines are consecutive there unless a `...` line stands between them."""
    want = [line.rstrip() for line in expected.splitlines()]
    got = [line.rstrip() for line in actual.splitlines()]
    pos, gap = 0, False
    for line in want:
        if line.strip() == "...":
            gap = True
            continue
        if gap:
            try:
                pos = got.index(line, pos)
            except ValueError:
                return f"not in the output (after line {pos}): {line!r}"
        elif pos >= len(got) or got[pos] != line:
            shown = got[pos] if pos < len(got) else "<end of output>"
            return (f"output line {pos + 1} is {shown!r}, the README shows "
                    f"{line!r} (a `...` line marks lines left out)")
        pos += 1
        gap = False
    if not gap and pos != len(got):
        return f"the output goes on after the README's last line: {got[pos]!r}"
    return None


def test_match_output():
    assert _match_output("a\n...\nd", "a\nb\nc\nd") is None
    assert _match_output("a\nb\n...", "a\nb\nc") is None
    assert _match_output("a\nc", "a\nb\nc") is not None
    assert _match_output("a", "a\nb") is not None


@pytest.mark.parametrize("block", RUNNABLE, ids=_id)
def test_block_runs(block, scratch):
    if block.mark.startswith("skip:"):
        pytest.skip(f"README line {block.line}: {block.mark[5:].strip()}")
    for need in block.needs:
        reason = _missing(need)
        if reason:
            pytest.skip(f"README line {block.line} needs {need}: {reason}")
    work, env = scratch
    if block.lang == "python":
        script = work / f"readme_{block.line}.py"
        script.write_text(block.code + "\n")
        cmd = [sys.executable, str(script)]
    else:
        cmd = ["bash", "-e", "-o", "pipefail", "-c", block.code]
    proc = subprocess.run(cmd, cwd=work, env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, (
        f"README line {block.line} ({block.lang}) exited {proc.returncode}\n"
        f"stdout:\n{proc.stdout[-3000:]}\nstderr:\n{proc.stderr[-3000:]}")
    expected = _expected_output(block)
    if expected is not None:
        problem = _match_output(expected, proc.stdout)
        assert problem is None, f"README line {block.line}: {problem}"


def _layout_block():
    found = [b for b in BLOCKS if b.mark == "layout"]
    assert len(found) == 1, "README.md has one block marked test_readme: layout"
    return found[0]


def test_layout_matches_tree():
    from test_docs import top_level_folders  # same rule for "top-level folder"

    block = _layout_block()
    named, missing, top = [], [], None
    for line in block.code.splitlines():
        head = re.match(r"^([\w.-]+)/\s", line + " ")
        if head:
            top = ROOT / head.group(1)
            named.append(head.group(1))
            if not top.is_dir():
                missing.append(head.group(1) + "/")
                continue
            line = line[head.end():]
        if top is None or not top.is_dir():
            continue
        for token in re.findall(r"(?<![\w./-])([A-Za-z][\w.-]*(?:/[\w.-]+)*/?)", line):
            if token.endswith("/"):
                rel = token.rstrip("/")
                if not ((top / rel).is_dir() or any(p.is_dir() for p in top.glob("**/" + rel))):
                    missing.append(f"{top.name}/.../{token}")
            elif re.search(r"\.(def|td|h|md|py|sh|mlir)$", token) and not token.startswith("_"):
                name = token.rsplit("/", 1)[-1]
                if name.startswith("_"):
                    continue  # generated at build time
                if not any(top.glob("**/" + name)):
                    missing.append(f"{top.name}/.../{token}")
    assert not missing, f"README's layout names what the tree lacks: {missing}"
    unnamed = sorted(set(top_level_folders()) - set(named))
    assert not unnamed, f"README's layout leaves out top-level folders: {unnamed}"
