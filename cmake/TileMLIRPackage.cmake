# The TileMLIR CMake package: `cmake --install build --prefix P` puts
#   P/include/Tile/...                the dialect and pass headers, their .td
#                                     and .def files and the generated .h.inc
#   P/lib/libTileDialect.a            TileMLIR::TileDialect
#   P/lib/libTilePasses.a             TileMLIR::TilePasses (links TileDialect)
#   P/lib/cmake/TileMLIR/             config, version and exported targets
# so that a downstream project can `find_package(TileMLIR)`. Everything here
# is component TileMLIRDevelopment (`cmake --install build --component
# TileMLIRDevelopment` installs only this); the Python package tree
# (python/CMakeLists.txt) is the other, unnamed component.
include(CMakePackageConfigHelpers)

set(TILE_MLIR_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/TileMLIR)

# One version, the Python package's (pyproject.toml).
file(STRINGS ${PROJECT_SOURCE_DIR}/pyproject.toml _tile_version_line
  REGEX "^version = \"[0-9.]+\"$" LIMIT_COUNT 1)
string(REGEX REPLACE "^version = \"([0-9.]+)\"$" "\\1" TILE_MLIR_VERSION
  "${_tile_version_line}")
if(NOT TILE_MLIR_VERSION)
  message(FATAL_ERROR "no `version = \"X.Y.Z\"` line in pyproject.toml")
endif()

install(TARGETS TileDialect TilePasses EXPORT TileMLIRTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT TileMLIRDevelopment)

# Headers, with the ODS/.def files they include, and the generated .h.inc
# from the build folders where tablegen writes them (beside their .td:
# Tile/IR/ and Tile/), globbed at install time so that new ops and passes
# are installed without a change here.
install(DIRECTORY
    ${PROJECT_SOURCE_DIR}/dialect/include/
    ${PROJECT_SOURCE_DIR}/passes/include/
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT TileMLIRDevelopment
  FILES_MATCHING PATTERN "*.h" PATTERN "*.def" PATTERN "*.td")
install(DIRECTORY ${PROJECT_BINARY_DIR}/dialect/include/Tile/IR/
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/Tile/IR COMPONENT TileMLIRDevelopment
  FILES_MATCHING PATTERN "*.h.inc" PATTERN "CMakeFiles" EXCLUDE)
install(DIRECTORY ${PROJECT_BINARY_DIR}/passes/include/Tile/
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/Tile COMPONENT TileMLIRDevelopment
  FILES_MATCHING PATTERN "*.h.inc" PATTERN "CMakeFiles" EXCLUDE)

install(EXPORT TileMLIRTargets NAMESPACE TileMLIR::
  DESTINATION ${TILE_MLIR_CMAKE_INSTALL_DIR} COMPONENT TileMLIRDevelopment)

# The MLIR/LLVM release the libraries were compiled against: the config asks
# for exactly this one.
set(TILE_MLIR_LLVM_VERSION ${LLVM_PACKAGE_VERSION})
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/TileMLIRConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/TileMLIRConfig.cmake
  INSTALL_DESTINATION ${TILE_MLIR_CMAKE_INSTALL_DIR})
# 0.x: a minor release may break the API, so only the same major.minor matches.
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/TileMLIRConfigVersion.cmake
  VERSION ${TILE_MLIR_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES
    ${PROJECT_BINARY_DIR}/cmake/TileMLIRConfig.cmake
    ${PROJECT_BINARY_DIR}/cmake/TileMLIRConfigVersion.cmake
  DESTINATION ${TILE_MLIR_CMAKE_INSTALL_DIR} COMPONENT TileMLIRDevelopment)
