"""runtime.load and the first call of an artifact name what is wrong with the
path, the manifest, the arguments and the launch shape before they need the
CUDA driver: every case here runs on a machine without a GPU, with the driver
simulated missing, and the driver's absence is named only for an artifact
and a call with nothing else wrong."""

import json
import shutil

import numpy as np
import pytest

from tile_mlir import compiler, contract, runtime
from tile_mlir.artifact import Artifact
from tile_mlir.errors import TileError, TileUsageError
from tile_mlir.runtime import driver
from tile_mlir.runtime.errors import TileRuntimeError
from tile_mlir.runtime.signature import Signature
from tile_mlir.testing.runtime_kernels import build_box_at


class NoDriver:
    """cuda-python whose libcuda cannot be loaded (cuInit raises)."""

    def cuInit(self, flags):
        raise OSError("libcuda.so.1: cannot open shared object file")


@pytest.fixture
def no_driver(monkeypatch):
    monkeypatch.setattr(driver, "cuda", lambda: NoDriver())
    monkeypatch.setattr(driver, "_primary", {})


@pytest.fixture(scope="module")
def compiled():
    """A kernel with two float32 arrays (200 x 128) and two int32 scalars,
    compiled without ptxas; a stand-in cubin, as nothing here reaches the
    driver."""
    art = compiler.compile(build_box_at(), cubin=False)
    return Artifact(ptx=art.ptx, cubin=b"not loaded", manifest=art.manifest)


@pytest.fixture
def folder(compiled, tmp_path):
    return compiled.save(tmp_path / "art")


def rule_of(call, *args, cls=TileError, **kwargs) -> TileError:
    with pytest.raises(cls) as err:
        call(*args, **kwargs)
    return err.value


def write_manifest(folder, manifest) -> None:
    text = manifest if isinstance(manifest, str) else json.dumps(manifest)
    (folder / "manifest.json").write_text(text)


def manifest_of(folder) -> dict:
    return json.loads((folder / "manifest.json").read_text())


# -- the path ------------------------------------------------------------------

def test_a_good_artifact_gets_to_the_driver(folder, no_driver):
    err = rule_of(runtime.load, folder, cls=TileRuntimeError)
    assert err.rule == "cuda-driver-missing"


@pytest.mark.parametrize("path", [12, None, b"/tmp", 1.5, ["a"]])
def test_a_path_that_is_no_path_is_artifact_path(path, no_driver):
    err = rule_of(runtime.load, path, cls=TileRuntimeError)
    assert err.rule == "artifact-path" and repr(path) in err.message


def test_a_missing_folder_is_artifact_path(tmp_path, no_driver):
    err = rule_of(runtime.load, tmp_path / "nowhere", cls=TileRuntimeError)
    assert err.rule == "artifact-path" and "nowhere" in err.message
    assert "does not exist" in err.message


def test_a_file_is_not_a_folder(folder, no_driver):
    err = rule_of(runtime.load, str(folder / "kernel.ptx"), cls=TileRuntimeError)
    assert err.rule == "artifact-path" and "is a file" in err.message


def test_a_folder_without_a_manifest_is_artifact_path(tmp_path, no_driver):
    (tmp_path / "kernel.cubin").write_bytes(b"x")
    err = rule_of(runtime.load, tmp_path, cls=TileRuntimeError)
    assert err.rule == "artifact-path" and "manifest.json" in err.message


def test_a_folder_without_a_cubin_is_artifact_cubin(folder, no_driver):
    (folder / "kernel.cubin").unlink()
    assert rule_of(runtime.load, folder, cls=TileRuntimeError).rule == "artifact-cubin"


# -- the manifest ----------------------------------------------------------------

@pytest.mark.parametrize("text, named", [
    ("", "not valid JSON"),
    ("{\"arch\": ", "not valid JSON"),
    ("[1, 2]", "holds list"),
    ("\"sm_90a\"", "holds str"),
    ("null", "holds NoneType"),
])
def test_a_manifest_that_is_no_json_object_is_named(folder, no_driver, text, named):
    write_manifest(folder, text)
    err = rule_of(runtime.load, folder, cls=TileRuntimeError)
    assert err.rule == "artifact-manifest" and named in err.message
    assert str(folder / "manifest.json") in err.message


def _edit(manifest: dict, path: str, value) -> dict:
    """`manifest` with the field at `path` ("kernels.0.params.1.shape") set
    to `value` (or removed where value is ...)."""
    *parents, last = path.split(".")
    node = manifest
    for part in parents:
        node = node[int(part)] if isinstance(node, list) else node[part]
    key = int(last) if isinstance(node, list) else last
    if value is ...:
        del node[key]
    else:
        node[key] = value
    return manifest


@pytest.mark.parametrize("path, value, field", [
    ("version", 2, "version is 2"),
    ("version", "1", "version is '1'"),
    ("arch", ..., "arch is missing"),
    ("arch", 90, "arch is 90"),
    ("kernels", ..., "kernels is missing"),
    ("kernels", {"name": "k"}, "kernels is {'name': 'k'}"),
    ("kernels.0", "box_at", "kernels[0] is 'box_at'"),
    ("kernels.0.name", ..., "kernels[0].name is missing"),
    ("kernels.0.name", 7, "kernels[0].name is 7"),
    ("kernels.0.name", "", "kernels[0].name is ''"),
    ("kernels.0.params", None, "kernels[0].params is None"),
    ("kernels.0.params.0", [], "kernels[0].params[0] is []"),
    ("kernels.0.params.0.kind", "tensor", "kernels[0].params[0].kind is 'tensor'"),
    ("kernels.0.params.0.shape", "200x128", "kernels[0].params[0].shape is '200x128'"),
    ("kernels.0.params.0.shape", [200, -1], "kernels[0].params[0].shape is [200, -1]"),
    ("kernels.0.params.0.element", ..., "kernels[0].params[0].element is missing"),
    ("kernels.0.params.2.dtype", 32, "kernels[0].params[2].dtype is 32"),
    ("kernels.0.grid", [0], "kernels[0].grid is [0]"),
    ("kernels.0.block", "32", "kernels[0].block is '32'"),
    ("kernels.0.static_shared_bytes", -4, "kernels[0].static_shared_bytes is -4"),
    ("kernels.0.dynamic_shared_bytes", 1.5, "kernels[0].dynamic_shared_bytes is 1.5"),
    ("kernels.0.tensor_maps", {}, "kernels[0].tensor_maps is {}"),
    ("kernels.0.tensor_maps.0.swizzle", ..., "kernels[0].tensor_maps[0] is"),
    ("kernels.0.tensor_maps.0.source", 9, "kernels[0].tensor_maps[0].source is 9"),
    ("debug", [], "debug is []"),
])
def test_a_wrong_field_is_named(folder, no_driver, path, value, field):
    write_manifest(folder, _edit(manifest_of(folder), path, value))
    err = rule_of(runtime.load, folder, cls=TileRuntimeError)
    assert err.rule == "artifact-manifest", err
    assert field in err.message


def test_a_debug_entry_names_its_missing_field(folder, no_driver):
    manifest = manifest_of(folder)
    manifest["debug"] = {"buffer": "__tile_debug_error", "words": 32}
    write_manifest(folder, manifest)
    err = rule_of(runtime.load, folder, cls=TileRuntimeError)
    assert err.rule == "artifact-manifest" and "debug.fields is missing" in err.message


def test_two_kernels_of_one_name_are_named(folder, no_driver):
    manifest = manifest_of(folder)
    manifest["kernels"].append(dict(manifest["kernels"][0]))
    write_manifest(folder, manifest)
    err = rule_of(runtime.load, folder, cls=TileRuntimeError)
    assert err.rule == "artifact-manifest" and "kernels[1].name" in err.message


def test_a_launch_shape_beyond_the_limits_is_named(folder, no_driver):
    write_manifest(folder, _edit(manifest_of(folder), "kernels.0.grid",
                                 [contract.MAX_GRID_X + 1]))
    err = rule_of(runtime.load, folder, cls=TileRuntimeError)
    assert err.rule == "artifact-manifest" and "[grid-limit]" in err.message
    assert str(contract.MAX_GRID_X + 1) in err.message


def test_an_in_memory_artifact_is_checked_too(compiled, no_driver):
    broken = Artifact(ptx="", cubin=b"x", manifest={"arch": "sm_90a"})
    err = rule_of(runtime.load, broken, cls=TileRuntimeError)
    assert err.rule == "artifact-manifest" and "kernels is missing" in err.message


def test_artifact_load_checks_the_folder(folder, tmp_path):
    assert Artifact.load(folder).manifest == manifest_of(folder)
    assert rule_of(Artifact.load, tmp_path / "none").rule == "artifact-path"
    write_manifest(folder, "{")
    assert rule_of(Artifact.load, folder).rule == "artifact-manifest"


def test_compile_writes_the_manifest_version(compiled, folder):
    assert compiled.manifest["version"] == 1 and manifest_of(folder)["version"] == 1


def test_a_manifest_without_a_version_is_version_1(folder, no_driver):
    manifest = manifest_of(folder)
    del manifest["version"]
    write_manifest(folder, manifest)
    assert rule_of(runtime.load, folder, cls=TileRuntimeError).rule == \
        "cuda-driver-missing"


def test_a_device_of_the_wrong_kind_is_named_without_a_driver(folder, no_driver):
    for device in ("cpu", 1.0, "cuda:x", -2):
        err = rule_of(runtime.load, folder, device=device, cls=TileRuntimeError)
        assert err.rule == "device-index" and repr(device) in err.message


@pytest.mark.parametrize("timeout", ["1", 0, -1.5, float("nan"), float("inf"), True,
                                     [1], 1j])
def test_a_debug_timeout_that_is_no_duration_is_named(folder, no_driver, timeout):
    err = rule_of(runtime.load, folder, debug_timeout=timeout, cls=TileRuntimeError)
    assert err.rule == "debug-timeout" and repr(timeout) in err.message


def test_a_debug_timeout_in_seconds_gets_to_the_driver(folder, no_driver):
    for timeout in (0.5, 2, np.float32(0.25)):
        err = rule_of(runtime.load, folder, debug_timeout=timeout, cls=TileRuntimeError)
        assert err.rule == "cuda-driver-missing"


def test_kernel_lookup_by_name(compiled):
    assert compiled.kernel("box_at")["name"] == "box_at"
    with pytest.raises(KeyError) as err:
        compiled.kernel("nope")
    assert err.value.rule == "kernel-name" and "'nope'" in str(err.value)
    assert "box_at" in str(err.value)


# -- the first call --------------------------------------------------------------

def arrays():
    return np.zeros((200, 128), np.float32), np.zeros((200, 128), np.float32)


def test_a_good_call_gets_to_the_driver(compiled, no_driver):
    a, b = arrays()
    err = rule_of(Artifact(compiled.ptx, compiled.cubin, compiled.manifest), a, b, 0, 64,
                  cls=TileRuntimeError)
    assert err.rule == "cuda-driver-missing"


@pytest.mark.parametrize("args, rule, named", [
    (lambda a, b: (a, b, 0), "argument-count", "takes 4 arguments, got 3"),
    (lambda a, b: (a, b, 0, 64, 1), "argument-count", "got 5"),
    (lambda a, b: (a.astype(np.float64), b, 0, 64), "argument-dtype", "float64"),
    (lambda a, b: (a[:, :64], b, 0, 64), "argument-shape", "axis 1 is 64"),
    (lambda a, b: (a, b, 2**31, 64), "scalar-range", "2147483648"),
    (lambda a, b: (a, b, "0", 64), "scalar-type", "str"),
    (lambda a, b: (a, b, a, 64), "argument-kind", "argument 2"),
    (lambda a, b: (1.0, b, 0, 64), "argument-kind", "argument 0"),
    (lambda a, b: ([1, 2], b, 0, 64), "device-array", "argument 0"),
])
def test_a_wrong_call_is_named_before_the_driver(compiled, no_driver, args, rule, named):
    art = Artifact(compiled.ptx, compiled.cubin, compiled.manifest)
    err = rule_of(art, *args(*arrays()))
    assert err.rule == rule and named in err.message


@pytest.mark.parametrize("launch, rule, named", [
    ({"grid": (2**31, 1, 1)}, "grid-limit", str(2**31)),
    ({"grid": (1, contract.MAX_GRID_YZ + 1)}, "grid-limit", "extent y"),
    ({"block": (2048,)}, "block-limit", "2048 threads"),
    ({"block": (1, 1, contract.MAX_BLOCK_Z * 2)}, "block-limit", "z"),
    ({"cluster": (contract.MAX_CLUSTER_CTAS * 2,), "grid": 64}, "cluster-limit",
     f"{contract.MAX_CLUSTER_CTAS * 2} CTAs"),
    ({"cluster": (2,), "grid": 3}, "cluster-limit", "multiple"),
    ({"grid": 0}, "launch-shape", "0"),
    ({"grid": (1, 2, 3, 4)}, "launch-shape", "(1, 2, 3, 4)"),
    ({"block": "32"}, "launch-shape", "'32'"),
])
def test_a_launch_shape_is_checked_before_the_driver(compiled, no_driver, launch, rule,
                                                     named):
    art = Artifact(compiled.ptx, compiled.cubin, compiled.manifest)
    err = rule_of(art, *arrays(), 0, 64, **launch)
    assert err.rule == rule and named in err.message
    assert isinstance(err, TileUsageError)


def test_the_signature_checks_an_override(compiled):
    info = compiled.kernel()
    sig = Signature(info)
    grid, block, cluster = sig.launch_shape()   # the manifest's, 3-D
    assert grid[:len(info["grid"])] == tuple(info["grid"]) and len(grid) == 3
    assert block[:len(info["block"])] == tuple(info["block"]) and cluster is None
    assert sig.launch_shape(grid=[4, 2])[0] == (4, 2, 1)
    assert rule_of(sig.launch_shape, grid=(2**31, 1, 1)).rule == "grid-limit"


def test_bind_checks_before_the_driver(compiled, no_driver):
    art = Artifact(compiled.ptx, compiled.cubin, compiled.manifest)
    a, b = arrays()
    assert rule_of(art.bind, a, b, 0).rule == "argument-count"


def test_an_artifact_without_a_cubin_is_named_at_the_call(compiled, no_driver):
    art = Artifact(compiled.ptx, None, compiled.manifest)
    assert rule_of(art, *arrays(), 0, 64).rule == "artifact-cubin"


# -- saving ----------------------------------------------------------------------

def test_save_into_an_unwritable_place_is_output_path(compiled, tmp_path):
    afile = tmp_path / "file"
    afile.write_text("x")
    for where, reason in ((afile / "art", "Not a directory"), (afile, "exists"),
                          ("/proc/tile-mlir-art", "")):
        err = rule_of(compiled.save, where, cls=TileUsageError)
        assert err.rule == "output-path" and str(where) in err.message
        assert reason in err.message
    assert rule_of(compiled.save, 3, cls=TileUsageError).rule == "output-path"
    nul = str(tmp_path / "a\x00b")           # no system call takes it (ValueError)
    err = rule_of(compiled.save, nul, cls=TileUsageError)
    assert err.rule == "output-path" and repr(nul) in err.message


def test_save_then_load_round_trips(compiled, tmp_path):
    again = Artifact.load(compiled.save(tmp_path / "a" / "b"))
    assert (again.ptx, again.cubin, again.manifest) == (compiled.ptx, compiled.cubin,
                                                       compiled.manifest)
    shutil.rmtree(tmp_path / "a")
