"""The layout ops inside torch.compile, torch.export and CUDA graphs.

While Dynamo or torch.export traces (`is_compiling`), each public op
(permute, pad, unfold) calls `traced`, which calls its torch custom op:
torch.ops.tile_mlir.permute, .pad and .unfold (torch.library, defined by
layout/torch_library.py). The tracers see one node per call, with the
output's shape and strides from the op's fake implementation, and its
gradient from the op's registered adjoint; the compiled code and the
exported program run the ops' kernels through that node.

This module imports no torch, so the ops import it at no cost: the custom
ops are defined the first time a trace reaches one (`register`), once a
process. A process that loads a saved exported program defines them
first with `register()`.
"""

import sys

_is_compiling = None   # torch.compiler.is_compiling, once torch is imported


def is_compiling() -> bool:
    """Whether Dynamo or torch.export traces the caller
    (torch.compiler.is_compiling()); False where torch is not imported,
    which no trace is without. (Every op call asks: the function is looked
    up once, 0.1 us a call against 0.16.)"""
    global _is_compiling
    if _is_compiling is None:
        torch = sys.modules.get("torch")
        if torch is None:
            return False
        _is_compiling = torch.compiler.is_compiling
    return _is_compiling()


def register():
    """Defines the custom ops (once a process; it imports torch) and returns
    their namespace, torch.ops.tile_mlir."""
    return _library().namespace()


def traced(name: str, x, *args):
    """The op `name` ("permute", "pad" or "unfold") on the torch tensor x
    with the public op's other arguments, as its custom op: what the public
    ops return while a trace runs. The arguments are checked as the op
    checks them (TileUsageError with the op's rules) and passed in the
    custom op's schema (lists of ints; pad's value a float)."""
    return _library().call(name, x, *args)


def _library():
    # Imported here: torch_library imports torch and defines the ops on
    # import. Dynamo runs an import for real while it traces, so the first
    # traced call defines them too.
    from . import torch_library
    return torch_library
