# Runs tile-contract-gen with the digest of its sources, at build time (a
# digest taken at configure time would go stale with the tables).
#   -DGEN=<tool> -DROOT=<source dir> -DSOURCES=<path,...> -DOUT=<file>
string(REPLACE "," ";" _sources "${SOURCES}")
set(_listing "")
foreach(_src IN LISTS _sources)
  file(SHA256 "${ROOT}/${_src}" _hash)
  string(APPEND _listing "${_hash}  ${_src}\n")
endforeach()
string(SHA256 _digest "${_listing}")
execute_process(
  COMMAND "${GEN}" --digest "${_digest}" --sources "${SOURCES}" -o "${OUT}"
  RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "tile-contract-gen failed (${_rc})")
endif()
