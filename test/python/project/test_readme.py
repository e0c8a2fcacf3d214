"""README.md's code blocks run as written, and its layout matches the tree.

How the README marks its blocks (this test reads the marks):
* `<!-- test_readme: env -->` above the one sh block that says what to run in
  a new shell before the README's commands (activating the quick start's
  venv). Every other block runs as a user's fresh shell would: a clean
  environment (HOME, a scratch folder; PATH, the system's folders; nothing
  else: no PYTHONPATH, no active venv), `bash --noprofile --norc`, the env
  block first. So a README command that needs setup the README does not
  state fails here.
* A ```python or ```sh block is run, in README order, in one scratch folder
  that links every top-level entry of the repository but out/ (so `examples/...`,
  `scripts/...`, `.venv/...` and `build/...` resolve and nothing is written
  into the tree). sh blocks run under `bash -e -o pipefail`; a python block
  is a file run by the `python` the env block gives.
* A first line `# needs: gpu` (a GPU and cuda-python), `# needs: ptxas` or
  `# needs: mlir-opt` skips the block, with the reason, where that is missing
  (ptxas and mlir-opt are looked for in that same fresh shell).
* `<!-- test_readme: skip: REASON -->` right above a block: not run here
  (REASON says why and who runs it).
* `<!-- test_readme: output -->` above an unlabelled block: the standard
  output of the sh block before it; a line `...` stands for lines left out.
* `<!-- test_readme: layout -->` above the layout block: every top-level
  folder of the repository is named there, and every folder and file it
  names exists.
"""

import re
import subprocess
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


# A fresh shell's PATH: the system's folders, nothing a user's profile adds.
SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


def _env_block():
    found = [b for b in BLOCKS if b.mark == "env"]
    assert len(found) == 1 and found[0].lang == "sh", \
        "README.md has one ```sh block marked test_readme: env"
    return found[0]


@dataclass
class FreshShell:
    """Runs code as a new user shell would, after the README's env block."""
    work: Path     # the scratch folder (the repository's entries linked)
    home: Path     # HOME, empty at first
    setup: str     # the env block's code

    def run(self, code, timeout=300):
        env = {"HOME": str(self.home), "PATH": SYSTEM_PATH}
        cmd = ["bash", "--noprofile", "--norc", "-e", "-o", "pipefail", "-c",
               self.setup + "\n" + code]
        return subprocess.run(cmd, cwd=self.work, env=env, capture_output=True,
                              text=True, timeout=timeout, check=False)


_PROBE = """
command -v mlir-opt >/dev/null || echo "mlir-opt: not on PATH"
python -c 'from tile_mlir.toolchain import find_ptxas
if find_ptxas() is None: print("ptxas: not found (PATH, CUDA_HOME, CUDA_PATH, /usr/local/cuda)")'
"""


def _probe_missing(shell):
    """{need: reason} for the needs the fresh shell lacks (ptxas, mlir-opt)."""
    proc = shell.run(_PROBE)
    assert proc.returncode == 0, f"probing the fresh shell failed:\n{proc.stderr}"
    return dict(line.split(": ", 1) for line in proc.stdout.splitlines() if ": " in line)


@pytest.fixture(scope="module")
def shell(tmp_path_factory):
    if tile_mlir is None:
        pytest.skip("tile_mlir is not built (build/python_packages)")
    if not (ROOT / ".venv" / "bin" / "activate").is_file():
        pytest.skip("the quick start's .venv is missing (bash scripts/setup.sh makes it)")
    work = tmp_path_factory.mktemp("readme")
    for entry in ROOT.iterdir():
        if entry.name not in (".git", "out"):   # out/: the blocks' own outputs
            (work / entry.name).symlink_to(entry)
    fresh = FreshShell(work, tmp_path_factory.mktemp("home"), _env_block().code)
    return fresh, _probe_missing(fresh)


def _missing(need, probed):
    if need == "gpu":
        return _gpu_missing()
    if need in ("ptxas", "mlir-opt"):
        return probed.get(need)
    return f"unknown need {need!r} (README mark)"


def test_readme_has_runnable_blocks():
    langs = {b.lang for b in RUNNABLE}
    assert {"python", "sh"} <= langs


def test_every_block_is_known():
    """A block is run (python, sh), skipped with a reason, or marked as an
    output or the layout; nothing else is left for a reader to guess."""
    for b in BLOCKS:
        if b.lang in ("python", "sh"):
            if b.mark and b.mark != "env":
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


def test_env_block_gives_the_build_tree(shell):
    """After the env block alone, `python` imports the built package and
    the commands the README uses are on PATH, from this tree."""
    fresh, _ = shell
    proc = fresh.run("python -c 'import tile_mlir; print(tile_mlir.__file__)'\n"
                     "for tool in tile-opt tile-mlir mlir-opt; do command -v $tool; done\n"
                     "tile-opt --version\ntile-mlir --help")
    assert proc.returncode == 0, f"stdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
    package, *tools = proc.stdout.splitlines()[:4]
    assert Path(package).resolve().is_relative_to((ROOT / "build").resolve()), package
    assert [Path(t).name for t in tools] == ["tile-opt", "tile-mlir", "mlir-opt"], tools


@pytest.mark.parametrize("block", RUNNABLE, ids=_id)
def test_block_runs(block, shell):
    if block.mark.startswith("skip:"):
        pytest.skip(f"README line {block.line}: {block.mark[5:].strip()}")
    fresh, probed = shell
    for need in block.needs:
        reason = _missing(need, probed)
        if reason:
            pytest.skip(f"README line {block.line} needs {need}: {reason}")
    if block.mark == "env":
        code = "true"    # the env block itself, run first as for every block
    elif block.lang == "python":
        script = fresh.work / f"readme_{block.line}.py"
        script.write_text(block.code + "\n")
        code = f"python {script.name}"
    else:
        code = block.code
    proc = fresh.run(code)
    assert proc.returncode == 0, (
        f"README line {block.line} ({block.lang}) exited {proc.returncode} in a fresh shell "
        f"after the README's env block\n"
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
