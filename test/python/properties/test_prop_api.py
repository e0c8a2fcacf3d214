"""Property tests of the Python API: random and near-valid values, types and
files at every public entry point, and one assertion: the call works, or
it raises a TileError whose rule docs/rules.md lists. Each call runs in a
worker process (prop_worker.py), so that an abort or a signal is a failing
example, not the end of pytest.

Entry points covered (the worker's handler in brackets):

- builder signatures [kernel_signature]: `KernelDef(body, grid, block,
  cluster, params=, name=)`, `@kernel(...)` on annotated functions (Tensor,
  Scalar, string annotations, other objects), `Tensor(shape, dtype,
  dynamic_strides)`, `Scalar(dtype)`, `KernelDef.build()`, and
  `compiler.compile(kernel, arch, cubin, debug, cache)` of the result
- copies [builder_body]: `tma.apply` (opcode spellings, valid and mutated,
  operands, box, coords, coord_steps, format, swizzle, element_strides,
  interleave, l2_promotion, oob_fill, cta_mask, cache_policy, gather4,
  scatter4, pixel box corners, offsets, tag) inside the mbarrier protocol
  (`alloc_shared`, `Buffer.ptr_to`, `mbarrier_init`,
  `mbarrier_arrive_expect_tx`, `cta_sync`, `mbarrier_wait`,
  `bulk_commit_group`, `bulk_wait_group`), steps dropped at random
- builder programs [builder_body]: random sequences of `alloc_shared`,
  `dynamic_shared`, `mbarrier_init` / `arrive` / `arrive_expect_tx` /
  `wait`, `ptr_to`, buffer indexing and stores, `global_pointer`,
  `base_address`, `tma.tx_bytes`, `tma.prefetch_tensormap` on random
  arguments (ints, builder and MLIR values of other types, junk)
- `tensormaps.derive` [builder_body]: every field, in range or not
- builder helpers outside a kernel body [outside_body]
- `compiler.compile` [compile] on MLIR text (the lit suite's chunks, mutated,
  garbage), `mlir.ir.Module`s, KernelDefs and other objects; arch, cubin,
  debug, cache
- `explain.explain` [explain] on the same texts, a KernelDef, bytes and
  junk, with op_index, coords, rows, global_shape, offsets, name; then
  `explain.render_text(slot, rows, elements, max_lines)`
- `runtime.load` [runtime_load]: a real artifact folder with its manifest
  edited (keys deleted, types changed), files truncated, replaced by random
  bytes, removed or made folders; raw paths; in-memory ArtifactData;
  debug_timeout and device (no GPU here: a valid artifact ends at
  [cuda-python-missing] or [cuda-driver-missing])
- `cache.compile_recipe` and `cache.load_kernel` [cache]: builders by
  function, by 'module:function' name, nested functions and junk, with
  random JSON and non-JSON parameters, arch, debug, device
- `kernels.permute`, `kernels.pad`, `kernels.unfold` [layout]: CPU torch
  tensors where torch is installed, numpy arrays and junk
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import prop_strategies as S
from prop_harness import check, examples


@settings(max_examples=examples(400))
@given(spec=S.kernel_signatures())
def test_kernel_signature(worker, rules, spec):
    check(worker, rules, "kernel_signature", spec)


@settings(max_examples=examples(600))
@given(spec=S.copy_program())
def test_tma_apply(worker, rules, spec):
    check(worker, rules, "builder_body", spec)


@settings(max_examples=examples(300))
@given(spec=S.builder_programs())
def test_builder_program(worker, rules, spec):
    check(worker, rules, "builder_body", spec)


@settings(max_examples=examples(250))
@given(spec=S.derive_programs())
def test_tensormap_derive(worker, rules, spec):
    check(worker, rules, "builder_body", spec)


@settings(max_examples=examples(60))
@given(spec=S.outside_calls())
def test_builder_outside_body(worker, rules, spec):
    check(worker, rules, "outside_body", spec)


@settings(max_examples=examples(400))
@given(spec=S.compile_calls())
def test_compile(worker, rules, spec):
    check(worker, rules, "compile", spec)


@settings(max_examples=examples(400))
@given(spec=S.explain_calls())
def test_explain(worker, rules, spec):
    check(worker, rules, "explain", spec)


@settings(max_examples=examples(200))
@given(data=st.data())
def test_runtime_load(worker, rules, base_artifact, data):
    check(worker, rules, "runtime_load", data.draw(S.runtime_loads(base_artifact)))


@settings(max_examples=examples(100))
@given(spec=S.cache_calls())
def test_cache_recipe(worker, rules, spec):
    check(worker, rules, "cache", spec)


@settings(max_examples=examples(80))
@given(spec=S.layout_calls())
def test_layout_ops(worker, rules, spec):
    check(worker, rules, "layout", spec)
