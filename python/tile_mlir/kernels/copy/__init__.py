"""The copy and transpose kernels (persistent, warp-specialized, dynamic,
one tile a CTA, SIMT), the launch-cost kernels, and TileClaims; the
package `tile_mlir.kernels` exports their builders by name."""
