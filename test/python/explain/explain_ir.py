"""The IR the explain tests explain: one 2-D tile-mode copy of a
1024-byte aligned shared buffer, as a module's text."""


def load_text(shape=(64, 64), box=(64, 64), coords=(0, 0), swizzle=3, dtype="bf16",
              direction="load", steps=None, shared=None):
    """A `direction` copy of box `box` at `coords` of a global `shape`
    (`steps`: a second slot's coord step; `shared`: the buffer's type,
    default the box's, two of them with `steps`)."""
    slots = f"2x{box[0]}" if steps else f"{box[0]}"
    shared = shared or f"memref<{slots}x{box[1]}x{dtype}, 3>"
    global_ = f"memref<{shape[0]}x{shape[1]}x{dtype}>"
    attrs = f", swizzle = {swizzle} : i32" if swizzle else ""
    if steps:
        attrs += f", coord_steps = [array<i64: {steps[0]}, {steps[1]}>]"
    mbar = " mbar(%bar)" if direction == "load" else ""
    box_attr = f"box = array<i64: {box[0]}, {box[1]}>"
    return f"""
gpu.module @k {{
  memref.global "private" @smem : {shared} {{alignment = 1024}}
  gpu.func @f(%A: {global_}, %bar: !llvm.ptr<3>) kernel {{
    %k0 = arith.constant {coords[0]} : i32
    %k1 = arith.constant {coords[1]} : i32
    %s = memref.get_global @smem : {shared}
    tile.tma_copy {direction} tile 2d %s, %A[%k0, %k1]{mbar} {{{box_attr}{attrs}}} : {shared}, {global_}
    gpu.return
  }}
}}
"""
